import AuditCore
import AuditDetection
import AuditInputs

/// Scans one JSON text (an input, an NDJSON line, or an embedded layer) as the reader walks it:
/// tracks the path and the open containers, runs the name rules on keys and the pattern rules on
/// keys and string values, and opens JSON held in strings as inner layers.
struct JSONScanVisitor: JSONVisitor {
    /// An open container and the member it is at: the path is the members of the open
    /// containers, outermost first.
    private struct Container {
        var id: Int
        var isObject: Bool
        /// Arrays: the index of the next element (the current one is `nextIndex - 1`).
        var nextIndex = 0
        /// Objects: the current member's key, unescaped, as the bytes `keyStart..<keyEnd` of
        /// `keyArena`; set at the key, before its value begins. (Two integers, not a `Range`,
        /// which is not `BitwiseCopyable`.)
        var keyStart = 0
        var keyEnd = 0
        var key: Range<Int> { keyStart..<keyEnd }
        /// The current member's value has begun and not ended yet (so it is on the path).
        var memberBegun = false
        var keys: ShapeKeys = []
        /// Objects: how many members have begun.
        var memberCount = 0
        /// For an array under a sensitive name: every element is judged by that name (an index
        /// into `elementNames`, so that a container holds plain values only).
        var elementName: Int32 = -1
        /// Pending hits when the container opened: its shape matters only if hits followed.
        var hitsAtOpen = 0
        /// The object's draft for the contract checks, once a document key appeared in it.
        var draft: Int?
        /// For the `document` object of an operation's draft: that draft.
        var documentOf: Int?
        /// For the `operations` array of a draft: that draft (its elements are counted).
        var operationsOf: Int?
        /// Where this object's members that the app's sensitive-name rule matches begin in
        /// `appSensitiveKeys`, and (an operation's document) its additional fields in
        /// `metadataKeys`.
        var appSensitiveKeysStart = 0
        var metadataKeysStart = 0
        /// The `settings` object of an input's root object: a backup's settings snapshot.
        var isSettingsSnapshot = false
    }

    /// A member of a draft being collected as a tree.
    private struct Capture {
        var builder: JSONTreeBuilder
        /// How many of its containers are open.
        var depth: Int
        var draft: Int
        var member: ShapeKeys
        var start: Int
    }

    private let scan: ArtifactScan
    private let layer: LayerFrame
    /// The keys on the current path (and the pending key), unescaped, back to back. The input's
    /// bytes do not outlive the token, so keys are copied here.
    private let keyArena = ValueStack<UInt8>(capacity: 256)
    /// Shared by copies of the visitor, which is used in place (see `ValueStack`).
    private let containers = ValueStack<Container>()
    /// The names of the open arrays under a sensitive name, innermost last.
    private var elementNames: [NameMatch] = []
    private var pendingName: NameMatch?
    private var unescaped: [UInt8] = []
    /// Contract drafts of the open objects that have one (see `DocumentDraft`).
    private var drafts: [DocumentDraft] = []
    /// The document key (`entityId`, `payload`, …) whose value comes next.
    private var pendingDocumentKey: ShapeKeys = []
    /// Members of drafts being collected as trees (a payload, a revision, changed fields, field
    /// registers): every event goes to each, innermost last.
    private var captures: [Capture] = []
    /// Members of the open objects that the app's sensitive-name rule matches (name, offset),
    /// innermost object last: the contract checks screen a document's or operation's
    /// additional fields with them.
    private var appSensitiveKeys: [(name: String, offset: Int)] = []
    /// The additional fields of the open operation documents, innermost last: an operation's
    /// `changedMetadataFields` list them.
    private var metadataKeys: [String] = []
    /// The inventory hit of the current key, until its value begins; then until its kind is known.
    private var pendingStoreHit: Int?
    private var storeHitForValue: Int?
    /// Stores whose value is an open container: their hit, and the depth of that container. A
    /// string in one that is not a placeholder means the store holds something.
    private var openStoreContainers: [(hit: Int, depth: Int)] = []
    /// Keys of the root's `settings` object, listed in the inventory if the root is a backup.
    private var snapshotKeys: [String] = []
    private var unlistedSnapshotKeys = 0

    init(scan: ArtifactScan, layer: LayerFrame) {
        self.scan = scan
        self.layer = layer
    }

    // MARK: Events

    mutating func objectStart(at offset: Int) throws {
        beginValue(at: offset)
        if storeHitForValue != nil { noteStoreContainer() }
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an object", at: offset) }
        var container = Container(id: nextId(), isObject: true, hitsAtOpen: scan.hitCount, appSensitiveKeysStart: appSensitiveKeys.count,
                                  metadataKeysStart: metadataKeys.count)
        if pendingDocumentKey == .document, !containers.isEmpty, let draft = containers.top.draft { container.documentOf = draft }
        if containers.count == 1 && layer.depth == 0 && containers.top.isObject
            && keyText(containers.top.key) == "settings" {
            container.isSettingsSnapshot = true
        }
        if !pendingDocumentKey.isEmpty || !captures.isEmpty { try containerValue(isObject: true, at: offset) }
        containers.push(container)
    }

    mutating func objectEnd(at offset: Int) {
        if !captures.isEmpty {
            for i in captures.indices { captures[i].builder.objectEnd(at: offset) }
            closeCapture()
        }
        // The draft of an object is the last one open; it is moved out, not copied.
        if containers.top.draft != nil {
            var draft = drafts.removeLast()
            draft.keys = containers.top.keys
            draft.memberCount = containers.top.memberCount
            draft.appSensitiveKeys = Array(appSensitiveKeys[containers.top.appSensitiveKeysStart...])
            if let parent = containers.top.documentOf {
                drafts[parent].document = DocumentSummary(draft, metadataKeys: Array(metadataKeys[containers.top.metadataKeysStart...]))
            }
            checkContract(draft)
        } else if let parent = containers.top.documentOf {
            drafts[parent].document = DocumentSummary(isEntityDocument: false)
        }
        appSensitiveKeys.removeSubrange(containers.top.appSensitiveKeysStart...)
        metadataKeys.removeSubrange(containers.top.metadataKeysStart...)
        if !openStoreContainers.isEmpty { closeStoreContainer() }
        let container = containers.pop()
        if containers.isEmpty && !snapshotKeys.isEmpty && layer.depth == 0
            && container.keys.shape(isTextRoot: true, isInputRoot: true) == .backup {
            for key in snapshotKeys {
                scan.recordSighting(.settingsSnapshot(key: key, inventory: scan.rules.inventory, artifact: scan.artifact))
            }
            scan.countUnlistedKeys(unlistedSnapshotKeys, context: .backup)
        }
        if scan.hitCount > container.hitsAtOpen,
           let shape = container.keys.shape(isTextRoot: containers.isEmpty, isInputRoot: containers.isEmpty && layer.depth == 0) {
            scan.facts[container.id, default: ContainerFacts()].shape = shape
        }
        endValue()
    }

    mutating func arrayStart(at offset: Int) throws {
        beginValue(at: offset)
        if storeHitForValue != nil { noteStoreContainer() }
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an array", at: offset) }
        var container = Container(id: nextId(), isObject: false)
        if pendingDocumentKey == .operations, !containers.isEmpty, let draft = containers.top.draft { container.operationsOf = draft }
        if !pendingDocumentKey.isEmpty || !captures.isEmpty { try containerValue(isObject: false, at: offset) }
        if let name = pendingName {
            container.elementName = Int32(elementNames.count)
            elementNames.append(name)
        }
        containers.push(container)
    }

    mutating func arrayEnd(at offset: Int) {
        if !captures.isEmpty {
            for i in captures.indices { captures[i].builder.arrayEnd(at: offset) }
            closeCapture()
        }
        if !openStoreContainers.isEmpty { closeStoreContainer() }
        let container = containers.pop()
        if container.elementName >= 0 { elementNames.removeLast() }
        if let draft = container.operationsOf { drafts[draft].operationCount = container.nextIndex }
        endValue()
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if !captures.isEmpty { try checkCaptureSize(at: offset) }
        let start = keyArena.count
        unescaping(raw, escaped) { visitor, key in
            visitor.keyValue(key, at: offset)
            visitor.keyArena.push(contentsOf: key)
        }
        containers.top.keyStart = start
        containers.top.keyEnd = keyArena.count
        if layer.outerOffset == nil { try scan.checkDocumentHits(at: offset) }
    }

    /// Calls `body` with the string content unescaped: the raw bytes when there is no escape,
    /// else the scratch buffer, borrowed so that `body` may mutate the visitor.
    private mutating func unescaping(_ raw: UnsafeBufferPointer<UInt8>, _ escaped: Bool,
                                     _ body: (inout JSONScanVisitor, UnsafeBufferPointer<UInt8>) -> Void) {
        guard escaped else { return body(&self, raw) }
        var buffer: [UInt8] = []
        swap(&buffer, &unescaped)
        buffer.removeAll(keepingCapacity: true)
        JSONString.unescape(raw, into: &buffer)
        buffer.withUnsafeBufferPointer { body(&self, $0) }
        swap(&buffer, &unescaped)
    }

    /// A key, unescaped: shape flags, name rules, and pattern rules (a secret used as a key is
    /// reported, and never printed again).
    private mutating func keyValue(_ key: UnsafeBufferPointer<UInt8>, at offset: Int) {
        for i in captures.indices { captures[i].builder.key(key, escaped: false, at: offset) }
        let facts = scan.keyFacts(key)
        let flag = facts.shape
        containers.top.keys.formUnion(flag)
        containers.top.memberCount += 1
        if facts.isAppSensitive { appSensitiveKeys.append((String(decoding: key, as: UTF8.self), offset)) }
        if containers.top.documentOf != nil && flag.isDisjoint(with: ShapeKeys.entityDocumentMembers) {
            metadataKeys.append(String(decoding: key, as: UTF8.self))
        }
        pendingDocumentKey = flag.intersection(.documentKeys)
        if !pendingDocumentKey.isEmpty && containers.top.draft == nil {
            containers.top.draft = drafts.count
            drafts.append(DocumentDraft(startOffset: layer.outerOffset ?? offset))
            drafts[drafts.count - 1].position = scan.position(of: layer.outerOffset ?? offset)
        }
        if containers.top.isSettingsSnapshot {
            if snapshotKeys.count < ArtifactScan.listedKeysLimit {
                snapshotKeys.append(String(decoding: key, as: UTF8.self))
            } else {
                unlistedSnapshotKeys += 1
            }
        }
        pendingName = facts.nameIndex < 0 ? nil : scan.nameMatch(of: facts, key: key)
        if let store = facts.store {
            let name = String(decoding: key, as: UTF8.self)
            let location = memberLocation(.key(name), key: name)
            // Positioned at the value when it begins; at the key until then (a document that
            // ends or breaks after the key still reports the store, at a real position).
            pendingStoreHit = scan.recordStore(store, location: location, position: scan.position(of: layer.outerOffset ?? offset))
        }
        if facts.matchesPattern {
            let found = scan.scanPatterns(UnsafeRawBufferPointer(key), offset: layer.outerOffset ?? offset) {
                memberLocation(.key(Redaction.maskedKey), key: nil)
            }
            if found > 0 { scan.maskedKeys.insert(Array(key)) }
        }
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if !captures.isEmpty { try checkCaptureSize(at: offset) }
        beginValue(at: offset)
        unescaping(raw, escaped) { visitor, value in visitor.stringValue(UnsafeRawBufferPointer(value), at: offset) }
        endValue()
        if layer.outerOffset == nil { try scan.checkDocumentHits(at: offset) }
    }

    /// A string value, unescaped.
    private mutating func stringValue(_ value: UnsafeRawBufferPointer, at offset: Int) {
        if storeHitForValue != nil || !openStoreContainers.isEmpty {
            let placeholder = value.withMemoryRebound(to: UInt8.self) { Placeholders.isPlaceholder($0) }
            noteStoreValue(holdsNothing: placeholder)
            if !placeholder {
                for open in openStoreContainers { scan.noteStoreValue(open.hit, holdsNothing: false) }
            }
        }
        if containers.count == 1 && layer.depth == 0 && containers.top.isObject,
           keyArena.withElements(containers.top.key, { bytes in bytes.elementsEqual("format".utf8) }),
           value.elementsEqual("habiter.backup".utf8) {
            containers.top.keys.insert(.backupFormat)
        }
        let hitsBefore = scan.hitCount
        scan.scanNamedString(value, name: pendingName, at: layer.outerOffset ?? offset, depth: layer.depth) { location() }
        if !pendingDocumentKey.isEmpty || !captures.isEmpty {
            value.withMemoryRebound(to: UInt8.self) { bytes in
                for i in captures.indices { captures[i].builder.string(bytes, escaped: false, at: offset) }
            }
            if !pendingDocumentKey.isEmpty {
                scalarValue(.string(String(decoding: value, as: UTF8.self)), at: offset, matchedPattern: scan.hitCount > hitsBefore)
            }
        }
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        if !captures.isEmpty { try checkCaptureSize(at: offset) }
        beginValue(at: offset)
        noteStoreValue(holdsNothing: true)
        if let name = pendingName { recordName(name, credible: false, valueDescription: "a number", at: offset) }
        for i in captures.indices { captures[i].builder.number(raw, at: offset) }
        if !pendingDocumentKey.isEmpty {
            scalarValue(.number(String(decoding: raw, as: UTF8.self)), at: offset, matchedPattern: false)
        }
        endValue()
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws {
        if !captures.isEmpty { try checkCaptureSize(at: offset) }
        beginValue(at: offset)
        noteStoreValue(holdsNothing: true)
        if let name = pendingName {
            recordName(name, credible: false, valueDescription: value == .null ? "null" : "a boolean", at: offset)
        }
        for i in captures.indices { captures[i].builder.literal(value, at: offset) }
        if !pendingDocumentKey.isEmpty {
            scalarValue(value == .null ? .null : .bool(value == .true), at: offset, matchedPattern: false)
        }
        endValue()
    }

    /// Records what the value of the current key's store holds.
    private mutating func noteStoreValue(holdsNothing: Bool) {
        guard let hit = storeHitForValue else { return }
        scan.noteStoreValue(hit, holdsNothing: holdsNothing)
        storeHitForValue = nil
    }

    /// A store's value that is a container holds nothing until a string in it says otherwise.
    private mutating func noteStoreContainer() {
        guard let hit = storeHitForValue else { return }
        noteStoreValue(holdsNothing: true)
        openStoreContainers.append((hit, containers.count + 1))
    }

    /// Forgets a store's container when it closes (call before popping `containers`).
    private mutating func closeStoreContainer() {
        if let last = openStoreContainers.last, last.depth == containers.count { openStoreContainers.removeLast() }
    }

    // MARK: Contract drafts

    /// A scalar value of a document key.
    private mutating func scalarValue(_ value: DraftValue, at offset: Int, matchedPattern: Bool) {
        guard let draft = containers.top.draft else { return }
        recordDocumentValue(value, draft: draft, offset: offset)
        if pendingDocumentKey == .entityId { drafts[draft].entityIdIsSecret = matchedPattern }
        if ShapeKeys.capturedMembers.contains(pendingDocumentKey) {
            drafts[draft].setCaptured(pendingDocumentKey, JSONValue.Node(value: value.jsonValue, offset: offset))
        }
    }

    /// An object or array as the value of a document key, or inside a captured member.
    private mutating func containerValue(isObject: Bool, at offset: Int) throws {
        if !captures.isEmpty { try checkCaptureSize(at: offset) }
        for i in captures.indices {
            captures[i].depth += 1
            if isObject { captures[i].builder.objectStart(at: offset) } else { captures[i].builder.arrayStart(at: offset) }
        }
        guard !pendingDocumentKey.isEmpty, !containers.isEmpty, let draft = containers.top.draft else { return }
        recordDocumentValue(isObject ? .object : .array, draft: draft, offset: offset)
        if ShapeKeys.capturedMembers.contains(pendingDocumentKey) {
            var builder = JSONTreeBuilder()
            if isObject { builder.objectStart(at: offset) } else { builder.arrayStart(at: offset) }
            captures.append(Capture(builder: builder, depth: 1, draft: draft, member: pendingDocumentKey, start: offset))
        }
    }

    /// Ends the captures whose last container closed.
    private mutating func closeCapture() {
        for i in captures.indices { captures[i].depth -= 1 }
        while let last = captures.last, last.depth == 0 {
            captures.removeLast()
            if let tree = last.builder.result { drafts[last.draft].setCaptured(last.member, tree) }
        }
    }

    /// A captured member is validated whole, so its size is bounded: beyond the limit the input
    /// fails with a `limit` error rather than go unchecked or take unbounded memory.
    private func checkCaptureSize(at offset: Int) throws(DocumentLimit) {
        guard let first = captures.first, offset - first.start > JSONScanVisitor.maxCapturedBytes else { return }
        throw DocumentLimit.capturedMember(offset: layer.outerOffset ?? offset, limit: JSONScanVisitor.maxCapturedBytes)
    }

    /// Far above what the app sends: its client refuses responses over 256 KiB.
    static let maxCapturedBytes = 4 << 20

    private mutating func recordDocumentValue(_ value: DraftValue, draft: Int, offset: Int) {
        let position = scan.position(of: layer.outerOffset ?? offset)
        switch pendingDocumentKey {
        case .entityId:
            drafts[draft].entityId = value
            drafts[draft].entityIdOffset = offset
            drafts[draft].position = position
        case .schemaVersion: drafts[draft].schemaVersion = value
        case .deleted: drafts[draft].deleted = value
        case .payload:
            drafts[draft].hasPayload = true
            if case .object = value { drafts[draft].payloadIsObject = true }
        case .protocolVersion:
            drafts[draft].protocolVersion = value
            drafts[draft].protocolVersionOffset = offset
        case .operationId:
            drafts[draft].operationId = value
            drafts[draft].operationIdOffset = offset
        case .kind:
            drafts[draft].kind = value
            drafts[draft].kindOffset = offset
        case .document:
            drafts[draft].hasDocument = true
            drafts[draft].documentOffset = offset
        case .operations:
            drafts[draft].operationsOffset = offset
        case .migratedAt: drafts[draft].hasMigratedAt = true
        case .quarantine: drafts[draft].hasQuarantine = true
        default: break
        }
    }

    /// Checks a closing object against the contract and records its violations, on its
    /// `entityId` (the key of a whole-document violation is the entity id).
    private mutating func checkContract(_ draft: DocumentDraft) {
        let violations = ContractValidator.check(draft, inventory: scan.rules.inventory)
        guard !violations.isEmpty else { return }
        // The key of a whole-document violation is the entity id; without one, the name of the
        // object (`document`), as for any value.
        var location = location()
        if case .string(let id)? = draft.entityId {
            location.key = draft.entityIdIsSecret ? Redaction.maskedKey : id
        }
        for violation in violations {
            // The app's sensitive-name rule where ours already reports the name: one finding.
            if violation.check == .sensitiveName, let name = violation.key,
               Array(name.utf8).withUnsafeBufferPointer({ scan.nameMatch($0) }) != nil {
                continue
            }
            var located = location
            if !violation.memberPath.isEmpty {
                var path = location.path
                for token in violation.memberPath.dropLast() { path.append(token) }
                // A member's violation without a name of its own (a setting's value) is named
                // by its document's entity id, as whole-document violations are.
                located = HitLocation(key: violation.key ?? location.key, containerPath: path, token: violation.memberPath.last, ancestry: location.ancestry,
                                      readerContext: location.readerContext, carrier: location.carrier)
            } else if let key = violation.key {
                located.key = key
            }
            let position = violation.offset.map { scan.position(of: layer.outerOffset ?? $0) } ?? draft.position
            scan.recordContractViolation(ruleId: violation.ruleId, message: violation.message, location: located, position: position)
        }
    }

    // MARK: Path and containers

    @inline(__always)
    private mutating func beginValue(at offset: Int) {
        guard !containers.isEmpty else { return }
        containers.top.memberBegun = true
        if containers.top.isObject {
            if let hit = pendingStoreHit {
                scan.moveHit(hit, to: scan.position(of: layer.outerOffset ?? offset))
                storeHitForValue = hit
                pendingStoreHit = nil
            }
        } else {
            containers.top.nextIndex += 1
            let elementName = containers.top.elementName
            if elementName >= 0 { pendingName = elementNames[Int(elementName)] }
        }
    }

    @inline(__always)
    private mutating func endValue() {
        if pendingName != nil { pendingName = nil }
        pendingDocumentKey = []
        guard !containers.isEmpty else { return }
        containers.top.memberBegun = false
        if containers.top.isObject { keyArena.truncate(to: containers.top.keyStart) }
    }

    private func nextId() -> Int {
        defer { scan.nextContainerId += 1 }
        return scan.nextContainerId
    }

    /// The id of the innermost open container.
    var currentContainerId: Int? { containers.isEmpty ? nil : containers.top.id }

    private func ancestry() -> [Int] {
        var ancestry = layer.ancestry
        ancestry.reserveCapacity(ancestry.count + containers.count)
        for index in 0..<containers.count { ancestry.append(containers[index].id) }
        return ancestry
    }

    /// A key on the path, as reported (masked if a pattern rule matched it).
    private func keyText(_ range: Range<Int>) -> String {
        keyArena.withElements(range) { bytes in
            if !scan.maskedKeys.isEmpty && scan.maskedKeys.contains(Array(bytes)) { return Redaction.maskedKey }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The path token of the member a container is at.
    private func memberToken(_ container: Container) -> PathToken {
        container.isObject ? .key(keyText(container.key)) : .index(container.nextIndex - 1)
    }

    /// The nearest object key enclosing the current value.
    private func nearestKey() -> String? {
        for index in stride(from: containers.count - 1, through: 0, by: -1) {
            let container = containers[index]
            if container.isObject && container.memberBegun {
                return keyText(container.key)
            }
        }
        return layer.outerKey
    }

    /// The path of the innermost open container and the ids of the open containers (root: the
    /// input or layer itself).
    private func currentPlace() -> (containerPath: LayeredPath, ancestry: [Int]) {
        guard !containers.isEmpty else { return (layer.path, layer.ancestry) }
        let container = containers.top.id
        let place = scan.containerPlace
        if place.container != container {
            // The innermost container sits at the members of the ones around it.
            var path = layer.path
            path.layers[path.layers.count - 1].tokens.reserveCapacity(path.layers[path.layers.count - 1].tokens.count + containers.count)
            for index in 0..<containers.count - 1 { path.append(memberToken(containers[index])) }
            place.container = container
            place.containerPath = path
            place.ancestry = ancestry()
        }
        return (place.containerPath, place.ancestry)
    }

    /// The location of the current value: a value of the innermost container once it has begun,
    /// else the container itself. Mutating only so that the closures of a scan call it in place:
    /// a non-mutating call through them copied the whole visitor (a retain and a release of each
    /// of its arrays) for every hit.
    mutating func location() -> HitLocation {
        let place = currentPlace()
        let leaf = !containers.isEmpty && containers.top.memberBegun ? memberToken(containers.top) : nil
        let key: String? = if case .key(let name)? = leaf { name } else { nearestKey() }
        return HitLocation(key: key, containerPath: place.containerPath, token: leaf, ancestry: place.ancestry,
                           readerContext: layer.readerContext, carrier: layer.carrier)
    }

    /// The location of a member of the innermost container that has not begun yet (at its key).
    private mutating func memberLocation(_ token: PathToken, key: String?) -> HitLocation {
        let place = currentPlace()
        return HitLocation(key: key, containerPath: place.containerPath, token: token, ancestry: place.ancestry,
                           readerContext: layer.readerContext, carrier: layer.carrier)
    }

    private mutating func recordName(_ match: NameMatch, credible: Bool, valueDescription: String, at offset: Int) {
        scan.recordNameHit(match, credible: credible, valueDescription: valueDescription,
                           at: layer.outerOffset ?? offset, location: location())
    }
}

/// The path and ancestry of one open container, the same for every value it holds: a document
/// with millions of hits makes them once per container, not per hit (see `HitLocation`). One per
/// artifact scan, shared by its JSON visitors: container ids are unique within the scan.
final class ContainerPlace {
    var container = -1
    var containerPath = LayeredPath()
    var ancestry: [Int] = []
}
