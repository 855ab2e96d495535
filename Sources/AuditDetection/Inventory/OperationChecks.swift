import AuditBytes
import AuditInputs

/// The checks of an operation (the element of a push body, a pull page and the engine's queue)
/// and of a push body, as `personal_sync_operation.dart` and the server's sync-core make them.
enum OperationChecks {
    static let maximumPushOperations = 100

    /// `fieldLists`: the worker's recent comparisons of field lists with their documents.
    ///
    /// The draft's trees are read through views (`CapturedJSON.view`), and no closure here
    /// reads the draft: one that did copied all of it.
    static func check(_ d: borrowing DocumentDraft, texts: UnsafeBufferPointer<UInt8>, fieldLists: FieldListComparisons,
                      into violations: inout [ContractViolation]) {
        func add(_ message: String, key: String? = nil, offset: Int? = nil) {
            violations.append(violation(message, key: key, offset: offset))
        }
        if let version = d.protocolVersion {
            if let problem = ContractValidator.protocolVersionProblem(version, texts: texts) {
                violations.append(ContractViolation(check: .protocolVersion, message: problem, key: "protocolVersion",
                                                    offset: d.protocolVersionOffset, memberPath: [.key("protocolVersion")]))
            }
        } else {
            violations.append(ContractViolation(check: .protocolVersion, message: "The operation has no protocolVersion: every operation carries the protocol version it was written for."))
        }
        ContractValidator.checkSensitiveMembers(d, what: "an operation's additional fields", into: &violations)

        let kind = d.kind?.withText(in: texts, Kind.init(text:)) ?? nil
        if kind == nil {
            add("The operation's kind is \(d.kind.map { $0.isString ? "another string" : $0.kindName } ?? "missing"), not one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).",
                key: "kind", offset: d.kindOffset)
        }
        switch d.revision.map({ Revision.parse($0.view, at: $0.view.root) }) {
        case .success(let r)?:
            if !isOperationId(d.operationId, of: r, in: d.revision!.view, texts: texts) {
                add("The operationId is \(d.operationId.map { $0.isString ? "another string" : $0.kindName } ?? "missing"), not operation/<encoded deviceId>/<sequence> of its revision (the operationId is the idempotency key).",
                    key: "operationId", offset: d.operationIdOffset)
            }
        case .failure(let problem)?:
            add("The operation's revision \(problem.message).", key: "revision", offset: d.revision?.view.rootOffset)
        case nil:
            add("The operation has no revision {deviceId, sequence}.")
        }

        let changedIsValid = isFieldList(d.changedFields?.view, name: "changedFields", into: &violations)
        let changedMetadataIsValid = isFieldList(d.changedMetadataFields?.view, name: "changedMetadataFields", into: &violations)
        guard let kind, d.document != nil else { return }
        guard d.document!.isEntityDocument else {
            // A storage envelope there is reported as one, by contract.storage-envelope.
            if !d.document!.isStorageEnvelope {
                add("The operation's document is not an entity document.", key: "document", offset: d.documentOffset)
            }
            return
        }
        let isDelete = kind == .delete
        if let deleted = d.document!.deleted, deleted != isDelete {
            add(isDelete ? "A delete operation carries a live document, not a tombstone." : "A \(kind.rawValue) operation carries a tombstone, not a live document.",
                key: "document", offset: d.documentOffset)
        }
        checkFieldLists(of: kind, changed: changedIsValid ? d.changedFields?.view : nil,
                        changedMetadata: changedMetadataIsValid ? d.changedMetadataFields?.view : nil,
                        payloadKeysOf: d.document!.payload?.view, metadataKeys: d.document!.metadataKeys, fieldLists: fieldLists, into: &violations)
    }

    /// Whether `id` is the operation id of the revision `r`, parsed from `tree`. (A function of
    /// its own: a closure in `check` that read the draft copied all of it.)
    private static func isOperationId(_ id: DraftValue?, of r: Revision, in tree: CapturedJSON.View, texts: UnsafeBufferPointer<UInt8>) -> Bool {
        id?.withText(in: texts) { r.isOperationId($0, in: tree) } ?? false
    }

    /// The server's validateFieldSet and requireComplete, the app's _validatedChangedFields: an
    /// operation's field lists (nil when absent or malformed, which is reported already) against
    /// its entity document: the keys of its payload (nil for none) and its additional fields'
    /// names.
    private static func checkFieldLists(of kind: Kind, changed: CapturedJSON.View?, changedMetadata: CapturedJSON.View?,
                                        payloadKeysOf payload: CapturedJSON.View?, metadataKeys: [String],
                                        fieldLists: FieldListComparisons, into violations: inout [ContractViolation]) {
        func check(_ list: CapturedJSON.View?, available: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void, name: String, what: String) {
            guard let list else { return }
            let whole = kind == .create || kind == .restore || (kind == .delete && name == "changedMetadataFields")
            // An empty list (`changedMetadataFields`, mostly) answers at once, without a table;
            // a list of names mostly repeats one compared before. (Routed here: through the
            // comparisons' call, the empty list cost some 130 instructions an operation more.)
            let (listIsAvailable, availableAreListed) = FieldNameSet.isEmpty(list) ? FieldNameSet.compare(list, with: available)
                : fieldLists.compare(list, with: available)
            if !listIsAvailable {
                violations.append(violation("The operation's \(name) names a field its document does not have (a removed payload key is sent as null).",
                                            key: name, offset: list.rootOffset))
            } else if whole && !availableAreListed {
                violations.append(violation("A \(kind.rawValue) operation lists every one of its document's \(what) in \(name), and only those.",
                                            key: name, offset: list.rootOffset))
            }
        }
        check(changed, available: { body in if let payload { payload.forEachKey(of: payload.root, body) } }, name: "changedFields", what: "payload keys")
        check(changedMetadata, available: { body in for var key in metadataKeys { key.withUTF8(body) } }, name: "changedMetadataFields",
              what: "additional document fields")
        if kind == .patch, let changed, let changedMetadata, FieldNameSet.isEmpty(changed), FieldNameSet.isEmpty(changedMetadata) {
            violations.append(violation("A patch operation changes at least one field.", key: "changedFields", offset: changed.rootOffset))
        }
    }

    /// A violation of the operation, placed at its member `key` when there is one.
    private static func violation(_ message: String, key: String? = nil, offset: Int? = nil) -> ContractViolation {
        ContractViolation(check: .operation, message: message, key: key, offset: offset, memberPath: key.map { [.key($0)] } ?? [])
    }

    /// An operation's kind.
    enum Kind: String, CaseIterable {
        case create, patch, delete, restore

        /// The kind `text` names, told by its first byte and compared as bytes (a `String` of
        /// it went through a string switch at every operation).
        init?(text: UnsafeBufferPointer<UInt8>) {
            let (kind, name): (Kind, StaticString)
            switch text.first {
            case UInt8(ascii: "c"): (kind, name) = (.create, "create")
            case UInt8(ascii: "p"): (kind, name) = (.patch, "patch")
            case UInt8(ascii: "d"): (kind, name) = (.delete, "delete")
            case UInt8(ascii: "r"): (kind, name) = (.restore, "restore")
            default: return nil
            }
            guard text.equals(name) else { return nil }
            self = kind
        }
    }

    /// Whether `list` is a list of field names (duplicates are one name, as both the app and the
    /// server read it); reports it when absent or malformed. The names it lists are screened
    /// where they occur, in the document.
    private static func isFieldList(_ list: CapturedJSON.View?, name: String, into violations: inout [ContractViolation]) -> Bool {
        guard let list else {
            violations.append(violation("The operation has no \(name) list."))
            return false
        }
        guard list.kind(list.root) == .array,
              list.allChildren(of: list.root, satisfy: { $0 == .string && !PortableFields.isBlank($1) }) else {
            violations.append(violation("The operation's \(name) is not a list of field names.", key: name, offset: list.rootOffset))
            return false
        }
        return true
    }

    /// A push body is exactly `{"operations": [...]}` with 1 to 100 operations.
    static func checkPushBody(_ d: borrowing DocumentDraft, operations count: Int, into violations: inout [ContractViolation]) {
        if d.memberCount != 1 {
            violations.append(ContractViolation(check: .pushBody, message: "A push body holds exactly one member, operations; this one has \(d.memberCount) (the server refuses unknown body keys)."))
        }
        if !(1...maximumPushOperations).contains(count) {
            violations.append(ContractViolation(check: .pushBody, message: "A push body carries 1 to \(maximumPushOperations) operations; this one carries \(count).",
                                                key: "operations", offset: d.operationsOffset, memberPath: [.key("operations")]))
        }
    }
}

/// An operation's or entity state's `revision` {deviceId, sequence}: a Lamport clock. It names
/// its `deviceId` by the entry in the tree it was parsed from, which the methods are given: a
/// revision holding the tree retained and released its storage at every operation.
struct Revision {
    let deviceIdEntry: Int
    var sequence: Int

    enum Problem: Error {
        case shape, deviceId, sequence

        var message: String {
            switch self {
            case .shape: "is not an object {deviceId, sequence}"
            case .deviceId: "has a deviceId outside [A-Za-z0-9._~-]{1,128}"
            case .sequence: "has a sequence that is not a safe integer of at least 1"
            }
        }
    }

    /// The revision at `i`.
    static func parse(_ tree: CapturedJSON.View, at i: Int) -> Result<Revision, Problem> {
        // Other members are let through, by the server and the app alike.
        guard tree.kind(i) == .object else { return .failure(.shape) }
        guard let deviceId = tree.member("deviceId", of: i), tree.kind(deviceId) == .string, tree.withText(deviceId, isDeviceId) else {
            return .failure(.deviceId)
        }
        guard let sequence = tree.member("sequence", of: i).flatMap({ PortableFields.integer(tree, $0) }), sequence >= 1 else { return .failure(.sequence) }
        return .success(Revision(deviceIdEntry: deviceId, sequence: sequence))
    }

    /// `body` on the UTF-8 of the device id, in `tree`, the tree the revision was parsed from.
    func withDeviceId<R>(in tree: CapturedJSON.View, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        tree.withText(deviceIdEntry, body)
    }

    /// Whether the UTF-8 `id` is `operation/<deviceId>/<sequence>`, the operation id the app
    /// makes of this revision (parsed from `tree`; a device id's characters are all ones
    /// encodeURIComponent leaves as they are), compared in place: the interpolated string took
    /// an allocation and some 1,500 instructions an operation, generic comparisons of the pieces
    /// 1,300.
    func isOperationId(_ id: UnsafeBufferPointer<UInt8>, in tree: CapturedJSON.View) -> Bool {
        // `parse` makes no other; the digit loop below needs one at least.
        guard sequence >= 1 else { return id.elementsEqual("operation/\(tree.string(deviceIdEntry) ?? "")/\(sequence)".utf8) }
        return withDeviceId(in: tree) { deviceId in
            let prefix: StaticString = "operation/"
            let deviceIdStart = prefix.utf8CodeUnitCount
            let sequenceStart = deviceIdStart + deviceId.count + 1
            guard id.count > sequenceStart, id.hasPrefix(prefix), id.hasBytes(deviceId, at: deviceIdStart),
                  id[sequenceStart - 1] == UInt8(ascii: "/") else { return false }
            // The decimal digits of the sequence (at least 1), most significant first, without
            // a leading zero.
            var rest = sequence
            var end = id.count
            while rest > 0 {
                end -= 1
                guard end >= sequenceStart, id[end] == UInt8(ascii: "0") + UInt8(rest % 10) else { return false }
                rest /= 10
            }
            return end == sequenceStart
        }
    }

    /// Whether the UTF-8 `bytes` are a device id: 1 to 128 of `[A-Za-z0-9._~-]`.
    static func isDeviceId(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        (1...128).contains(bytes.count) && bytes.allSatisfy { b in
            ASCIICase.isLetterOrDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~") || b == UInt8(ascii: "-")
        }
    }
}
