import AuditCore
import AuditInputs

/// A document member's value as far as the checks need it: scalars in full, containers by kind
/// only (the members the checks read whole are captured as trees, see `DocumentDraft`).
public enum DraftValue: Equatable {
    /// A string, its UTF-8 held in the drafts' texts (`ContractValidator.check`'s `texts`): the
    /// checks read its bytes. A `String` of each (an operation's `kind`, besides its ids) cost
    /// a validation, and for a longer one an allocation and its release, at every operation.
    case text(Range<Int>)
    /// A number, its text held in the drafts' texts as a string's is.
    case number(Range<Int>)
    case bool(Bool)
    case null
    case object
    case array

    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    var isString: Bool { if case .text = self { true } else { false } }

    /// `body` on the UTF-8 of the value when it is a string, else nil.
    public func withText<R>(in texts: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        if case .text(let range) = self { body(UnsafeBufferPointer(rebasing: texts[range])) } else { nil }
    }

    /// The number's text, when the value is a number.
    func numberText(in texts: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        if case .number(let range) = self { UnsafeBufferPointer(rebasing: texts[range]) } else { nil }
    }

    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .text: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The scalar as a JSON value, its text read from `texts` (a container has no members
    /// here: callers capture those).
    public func jsonValue(in texts: UnsafeBufferPointer<UInt8>) -> JSONValue {
        switch self {
        case .text(let range): .string(String(decoding: texts[range], as: UTF8.self))
        case .number(let range): .number(String(decoding: texts[range], as: UTF8.self))
        case .bool(let b): .bool(b)
        case .null: .null
        case .object: .object([])
        case .array: .array([])
        }
    }
}

/// The members of an object that the contract checks look at, gathered while it streams past:
/// an entity document, an operation, a snapshot's entity state, a sync message or a storage
/// envelope. Offsets are byte offsets in the JSON text the object is in.
public struct DocumentDraft {
    var startOffset: Int
    /// Where whole-object violations are reported: the `entityId` value, else the first
    /// document key. This and the other positions are tickets for positions counted only if
    /// a violation is reported at them (`ByteWindow.deferPosition(of:)`).
    public var positionTicket: Int
    /// The tickets given before the draft's: those from here on are given back when it closes
    /// (its own first one may be an outer draft's, for the same offset).
    public let firstTicket: Int
    /// The object's keys that `ShapeKeys` names, and how many members it has (set when the
    /// object closes).
    public var keys: ShapeKeys = []
    public var memberCount = 0
    public var entityId: DraftValue?
    public var entityIdOffset: Int?
    /// The `entityId` matched a pattern rule: it is never echoed.
    public var entityIdIsSecret = false
    public var schemaVersion: DraftValue?
    public var deleted: DraftValue?
    public var hasPayload = false
    public var payloadIsObject = false
    /// The payload, read whole: every field is checked for type and value.
    var payload: CapturedJSON?
    public var protocolVersion: DraftValue?
    public var protocolVersionOffset: Int?
    public var hasMigratedAt = false
    public var hasQuarantine = false
    // An operation's members.
    public var operationId: DraftValue?
    public var operationIdOffset: Int?
    public var kind: DraftValue?
    public var kindOffset: Int?
    var revision: CapturedJSON?
    var changedFields: CapturedJSON?
    var changedMetadataFields: CapturedJSON?
    public var hasDocument = false
    public var documentOffset: Int?
    /// What the operation's `document` turned out to be, once it closed.
    public var document: DocumentSummary?
    // A snapshot's entity state.
    var lifecycleRevision: CapturedJSON?
    var payloadFields: CapturedJSON?
    var metadataFields: CapturedJSON?
    // A push body or pull page.
    public var operationCount: Int?
    public var operationsOffset: Int?
    /// The object's own member names that the app's sensitive-name rule matches, with offsets.
    public var appSensitiveKeys: [(name: String, offset: Int)] = []
    /// Tickets for the positions of the values at the offsets above, taken as they were read:
    /// when a large object closes, its first values may have left the input's window, where a
    /// position can no longer be counted (the window counts a ticket's before it drops it).
    public var protocolVersionTicket: Int?
    public var operationIdTicket: Int?
    public var kindTicket: Int?
    public var documentTicket: Int?
    public var operationsTicket: Int?

    /// The ticket taken for the value at `offset`, if it is one of the offsets above.
    public func recordedTicket(of offset: Int) -> Int? {
        switch offset {
        case entityIdOffset: positionTicket
        case protocolVersionOffset: protocolVersionTicket
        case operationIdOffset: operationIdTicket
        case kindOffset: kindTicket
        case documentOffset: documentTicket
        case operationsOffset: operationsTicket
        default: nil
        }
    }
    /// The captured members in which the scan saw no name that the app's sensitive-name rule
    /// matches: the checks need not walk them for one.
    public var membersWithoutSensitiveNames: ShapeKeys = []

    /// A draft whose first key's position has `ticket`, made when `firstTicket` tickets were given.
    public init(startOffset: Int, ticket: Int, firstTicket: Int) {
        self.startOffset = startOffset
        (positionTicket, self.firstTicket) = (ticket, firstTicket)
    }

    /// Whether a captured member may hold a name the app's sensitive-name rule matches.
    func mayHoldSensitiveName(_ member: ShapeKeys) -> Bool {
        !membersWithoutSensitiveNames.contains(member)
    }

    /// Gives the trees of the members read whole, and of the document's payload, back to
    /// `spares` (`CapturedJSON.giveBack(_:to:)`), once the checks are done with the draft.
    /// Most members are absent (a draft is one kind of object): a call is made for a tree only.
    public mutating func giveBackTrees(to spares: CapturedJSON.SpareStorages) {
        if payload != nil { CapturedJSON.giveBack(&payload, to: spares) }
        if revision != nil { CapturedJSON.giveBack(&revision, to: spares) }
        if changedFields != nil { CapturedJSON.giveBack(&changedFields, to: spares) }
        if changedMetadataFields != nil { CapturedJSON.giveBack(&changedMetadataFields, to: spares) }
        if lifecycleRevision != nil { CapturedJSON.giveBack(&lifecycleRevision, to: spares) }
        if payloadFields != nil { CapturedJSON.giveBack(&payloadFields, to: spares) }
        if metadataFields != nil { CapturedJSON.giveBack(&metadataFields, to: spares) }
        if document?.payload != nil { CapturedJSON.giveBack(&document!.payload, to: spares) }
    }

    /// Stores a member read whole (consumed: the tree is taken, not copied).
    public mutating func setCaptured(_ member: ShapeKeys, _ tree: consuming CapturedJSON) {
        switch member {
        case .payload: payload = tree
        case .revision: revision = tree
        case .changedFields: changedFields = tree
        case .changedMetadataFields: changedMetadataFields = tree
        case .lifecycleRevision: lifecycleRevision = tree
        case .payloadFields: payloadFields = tree
        case .metadataFields: metadataFields = tree
        default: break
        }
    }
}

/// What an operation's checks need of its `document`.
public struct DocumentSummary {
    var isEntityDocument: Bool
    /// A storage envelope, which `contract.storage-envelope` reports.
    var isStorageEnvelope = false
    var deleted: Bool? = nil
    /// The payload, whose keys an operation's `changedFields` are compared with (none for a
    /// tombstone), and the additional fields' names, for its `changedMetadataFields`.
    var payload: CapturedJSON?
    var metadataKeys: [String] = []

    public init(isEntityDocument: Bool) { self.isEntityDocument = isEntityDocument }

    public init(_ draft: borrowing DocumentDraft, metadataKeys: consuming [String]) {
        isEntityDocument = ContractValidator.isEntityDocument(draft)
        isStorageEnvelope = ContractValidator.isStorageEnvelope(draft)
        deleted = draft.deleted?.boolValue
        if let payload = draft.payload, case let view = payload.view, view.kind(view.root) == .object { self.payload = payload }
        self.metadataKeys = metadataKeys
    }
}

/// A contract violation of one object.
public struct ContractViolation: Equatable {
    public var check: BuiltinCheck
    public var message: String
    /// The name to report when the violation is one member's, not the whole object's.
    public var key: String? = nil
    /// Where the offending member's value begins (nil: the object's position).
    public var offset: Int? = nil
    /// The offending member's path below the object (empty: the object itself).
    public var memberPath: [PathToken] = []

    public var ruleId: String { check.rawValue }
}

/// The data contract's rules for the objects of sync data (`contract/personal-sync-data-contract.md`
/// and the app that is its executable source: `personal_sync_contract.dart`, and the server's
/// `sync-core`, see `APP-FORMATS.md`). A draft in, violations out: the one state it is given,
/// `FieldListComparisons`, only spares comparing field lists again.
public enum ContractValidator {
    /// The entity id grammar of the wire format, quoted by `contract.entity-id`.
    static let entityIdClause = "ids are habit/<id>, entry/<habit id>/<YYYY-MM-DD> or setting/<stable key>, each part encoded as encodeURIComponent does"
    static let supportedSchemaVersions = 1...1
    static let supportedProtocolVersions = 1...1

    /// Whether the draft is an entity document: an `entityId` with a version, a flag or a
    /// payload, and no field registers (those make it an entity state).
    static func isEntityDocument(_ d: borrowing DocumentDraft) -> Bool {
        d.entityId != nil && (d.schemaVersion != nil || d.deleted != nil || d.hasPayload) && !isEntityState(d)
    }

    /// The app's storage envelope: `schemaVersion`, `migratedAt`, `data`, `quarantine`.
    static func isStorageEnvelope(_ d: borrowing DocumentDraft) -> Bool {
        d.schemaVersion != nil && d.hasMigratedAt && d.hasQuarantine
    }

    /// A snapshot's or replica's entity state: field registers instead of a payload.
    static func isEntityState(_ d: borrowing DocumentDraft) -> Bool {
        d.entityId != nil && (d.payloadFields != nil || d.metadataFields != nil || d.lifecycleRevision != nil)
    }

    /// An operation: a `document` with the members only operations have.
    static func isOperation(_ d: borrowing DocumentDraft) -> Bool {
        d.hasDocument && (d.operationId != nil || d.revision != nil || d.changedFields != nil)
    }

    /// `texts`: the bytes the draft's `text` values are in; `fieldLists`: the worker's recent
    /// comparisons of operations' field lists, which answer the same as comparing again.
    public static func check(_ d: borrowing DocumentDraft, texts: UnsafeBufferPointer<UInt8>, inventory: Inventory,
                             fieldLists: FieldListComparisons) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        if isStorageEnvelope(d) {
            violations.append(ContractViolation(check: .storageEnvelope, message: "A raw storage envelope (schemaVersion, migratedAt, data, quarantine) in sync data: \"the envelope itself, its migration metadata, quarantine, and local revision never synchronize\"."))
        }
        if isOperation(d) {
            OperationChecks.check(d, texts: texts, fieldLists: fieldLists, into: &violations)
        } else if let version = d.protocolVersion {
            // A protocol version outside an operation (instance info, capabilities).
            if let problem = protocolVersionProblem(version, texts: texts) {
                violations.append(ContractViolation(check: .protocolVersion, message: problem, key: "protocolVersion", offset: d.protocolVersionOffset))
            }
        }
        if let count = d.operationCount, d.keys.isDisjoint(with: [.cursor, .headOffset, .compactionFloor, .requiresSnapshot]) {
            OperationChecks.checkPushBody(d, operations: count, into: &violations)
        }
        if isEntityState(d) {
            EntityStateChecks.check(d, texts: texts, into: &violations)
        } else if isEntityDocument(d) {
            checkDocument(d, texts: texts, inventory: inventory, into: &violations)
        }
        return violations
    }

    /// What is wrong with a `protocolVersion` (its text in `texts`), or nil.
    static func protocolVersionProblem(_ version: DraftValue, texts: UnsafeBufferPointer<UInt8>) -> String? {
        guard let n = version.numberText(in: texts)?.decimalInteger else {
            return "protocolVersion is \(version.kindName == "a number" ? "not an integer" : version.kindName), not an integer version."
        }
        // The window is written into the message only for a version outside it.
        guard !supportedProtocolVersions.contains(n) else { return nil }
        let window = "\(supportedProtocolVersions.lowerBound)–\(supportedProtocolVersions.upperBound)"
        if n < supportedProtocolVersions.lowerBound {
            return "protocolVersion \(n) is below the supported window \(window): \"a peer below the supported protocol window must upgrade its server\"."
        }
        return "protocolVersion \(n) is above the supported window \(window): \"a peer above it must upgrade its client\"."
    }

    /// Parses the entity id, or reports why it is not one.
    static func entityId(_ d: borrowing DocumentDraft, texts: UnsafeBufferPointer<UInt8>, into violations: inout [ContractViolation]) -> EntityId? {
        guard let parsed = d.entityId?.withText(in: texts, EntityId.parse) else {
            violations.append(ContractViolation(check: .entityId, message: "entityId is \(d.entityId?.kindName ?? "missing"), not a string (\(entityIdClause))."))
            return nil
        }
        switch parsed {
        case .success(let parsed): return parsed
        case .failure(let problem):
            violations.append(ContractViolation(check: .entityId, message: "The entityId does not follow the contract's grammar: \(problem.message) (\(entityIdClause))."))
            return nil
        }
    }

    /// The additional members of an object whose names the app rejects as sensitive.
    /// (No member the contract names matches that rule, so every match is an additional field.)
    static func checkSensitiveMembers(_ d: borrowing DocumentDraft, what: String, into violations: inout [ContractViolation]) {
        for (name, offset) in d.appSensitiveKeys {
            violations.append(sensitiveName(name, offset: offset, path: [.key(name)], where: what))
        }
    }

    static func sensitiveName(_ name: String, offset: Int, path: [PathToken], where place: String) -> ContractViolation {
        ContractViolation(check: .sensitiveName, message: "The app's sensitive-name rule (token, secret, password, credential or api?key, anywhere in the name) rejects this name in \(place): \"sensitive-looking fields are rejected\".",
                          key: name, offset: offset, memberPath: path)
    }

    private static func checkDocument(_ d: borrowing DocumentDraft, texts: UnsafeBufferPointer<UInt8>, inventory: Inventory,
                                      into violations: inout [ContractViolation]) {
        func add(_ check: BuiltinCheck, _ message: String) {
            violations.append(ContractViolation(check: check, message: message))
        }
        /// A violation of one member of the payload (`payload` itself when `member` is nil):
        /// reported there, not at the document.
        func add(_ check: BuiltinCheck, _ message: String, payloadMember member: Int?, payload: CapturedJSON.View?) {
            if let member, let payload {
                let key = payload.key(member)
                violations.append(ContractViolation(check: check, message: message, key: key, offset: payload.offset(member),
                                                    memberPath: [.key("payload"), .key(key)]))
            } else {
                violations.append(ContractViolation(check: check, message: message, key: "payload", offset: payload?.rootOffset,
                                                    memberPath: [.key("payload")]))
            }
        }
        let schemaVersion = d.schemaVersion?.numberText(in: texts)
        if schemaVersion?.decimalInteger.map(supportedSchemaVersions.contains) != true {
            let found = d.schemaVersion.map { v -> String in
                guard let text = schemaVersion else { return v.kindName }
                return text.decimalInteger == nil ? "a version that is not an integer" : "version \(String(decoding: text, as: UTF8.self))"
            } ?? "no schemaVersion"
            add(.schemaVersion, "Unsupported entity schema (\(found)); schema version 1 is supported: \"unsupported entity schemas are rejected before mutation\".")
        }
        guard let entity = entityId(d, texts: texts, into: &violations), let id = d.entityId else { return }
        /// `body` on the UTF-8 of one of the id's parts.
        func withPart<R>(_ part: EntityId.Part, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            id.withText(in: texts) { part.withText(in: $0, body) }!
        }
        checkSensitiveMembers(d, what: "an entity document's additional fields", into: &violations)

        // The registry permits no unknown key, live or deleted.
        let settingKey: String? = if case .setting(let key) = entity { id.withText(in: texts, key.text) } else { nil }
        if let settingKey, inventory.setting(settingKey) == nil {
            let sensitive = AppSensitiveName.matches(settingKey) ? " It is also a sensitive-looking key, which the app rejects (sensitive_setting)." : ""
            add(.settingUnknown, "The setting key is not in the approved setting registry: \"the registry does not permit unknown keys\".\(sensitive)")
            return
        }
        let deleted = d.deleted?.boolValue
        if deleted == nil {
            add(.deletedFlag, "A document needs \"deleted\": true or false (here \(d.deleted?.kindName ?? "missing")): \"version-1 live documents contain schemaVersion, entityId, deleted: false, and a JSON payload; tombstones contain the same version and ID with deleted: true\".")
        }
        if deleted == true {
            if d.hasPayload {
                add(.tombstonePayload, "A tombstone (deleted: true) has a payload key: \"tombstones contain the same version and ID with deleted: true and no payload\".",
                    payloadMember: nil, payload: d.payload?.view)
            }
            return
        }
        guard d.hasPayload && d.payloadIsObject, let payload = d.payload?.view, payload.kind(payload.root) == .object else {
            add(.missingPayload, "A live document needs a JSON payload object (\"version-1 live documents contain schemaVersion, entityId, deleted: false, and a JSON payload\").")
            return
        }
        let root = payload.root
        if let prefsKey = payload.children(root).first(where: { payload.withKey($0) { FlutterPrefsEncoding.pluginPrefix(of: $0) != nil } }) {
            add(.prefsDump, "The payload holds SharedPreferences keys: \"it never synchronizes a raw storage envelope, a SharedPreferences dump, secure storage, or native platform state\".",
                payloadMember: prefsKey, payload: payload)
        }
        switch entity {
        case .habit(let habitId):
            let idMember = payload.member("id", of: root)
            if !(idMember.map { member in withPart(habitId) { payload.isString(member, $0) } } ?? false) {
                add(.identityMismatch, "The habit payload's id \(idMember == nil ? "is missing" : "differs from the id in entityId"): \"their stable entity ID must match payload id\".",
                    payloadMember: idMember, payload: payload)
            }
            PortableFields.checkHabit(payload, screensNames: d.mayHoldSensitiveName(.payload), into: &violations)
        case .entry(let habitId, let date):
            let habitIdMember = payload.member("habitId", of: root), dateMember = payload.member("date", of: root)
            let habitIdDiffers = !(habitIdMember.map { member in withPart(habitId) { payload.isString(member, $0) } } ?? false)
            if habitIdDiffers || !(dateMember.map { member in withPart(date) { payload.isString(member, $0) } } ?? false) {
                add(.identityMismatch, "The entry payload's habitId or date differs from entityId: \"their entity ID must match payload habitId and date\".",
                    payloadMember: habitIdDiffers ? habitIdMember : dateMember, payload: payload)
            }
            PortableFields.checkEntry(payload, screensNames: d.mayHoldSensitiveName(.payload), into: &violations)
        case .setting:
            guard let settingKey, let setting = inventory.setting(settingKey) else { return }
            var members = payload.children(root)
            if payload.count(root) != 1 || !payload.keyIs(members.next()!, "value") {
                add(.settingPayload, "A setting payload holds only \"value\": \"setting payloads contain only value; the entity ID supplies the stable allow-listed key\".",
                    payloadMember: payload.children(root).first { !payload.keyIs($0, "value") }, payload: payload)
            }
            if let value = payload.member("value", of: root), let problem = setting.schema.problem(with: payload.jsonNode(value).value) {
                violations.append(ContractViolation(check: .settingValue, message: "The value of \(setting.key) does not match its schema: \(problem) (\"malformed values are rejected before mutation\").",
                                                    offset: payload.offset(value), memberPath: [.key("payload"), .key("value")]))
            }
        }
    }
}
