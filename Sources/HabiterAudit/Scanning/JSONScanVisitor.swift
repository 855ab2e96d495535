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
        /// For an array under a sensitive name: every element is judged by that name (an index
        /// into `elementNames`, so that a container holds plain values only).
        var elementName: Int32 = -1
        /// Pending hits when the container opened: its shape matters only if hits followed.
        var hitsAtOpen = 0
        /// The object's draft for the contract checks, once a document key appeared in it.
        var draft: Int?
        /// For the `payload` object of a draft: that draft.
        var payloadOf: Int?
        /// The `settings` object of an input's root object: a backup's settings snapshot.
        var isSettingsSnapshot = false
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
    /// The payload field (`id`, `habitId`, `date`, `value`) whose value comes next.
    private var pendingPayloadField: PayloadField?
    /// A setting's `value` being collected as a tree, with its nesting and its draft.
    private var capture: (builder: JSONTreeBuilder, depth: Int, draft: Int)?
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

    mutating func objectStart(at offset: Int) {
        beginValue(at: offset)
        if storeHitForValue != nil { noteStoreContainer() }
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an object", at: offset) }
        var container = Container(id: nextId(), isObject: true, hitsAtOpen: scan.hitCount)
        if pendingDocumentKey == .payload, !containers.isEmpty, let draft = containers.top.draft { container.payloadOf = draft }
        if containers.count == 1 && layer.depth == 0 && containers.top.isObject
            && keyText(containers.top.key) == "settings" {
            container.isSettingsSnapshot = true
        }
        if !pendingDocumentKey.isEmpty || pendingPayloadField != nil || capture != nil { containerValue(isObject: true, at: offset) }
        containers.push(container)
    }

    mutating func objectEnd(at offset: Int) {
        if capture != nil {
            capture!.builder.objectEnd(at: offset)
            closeCapture()
        }
        // The draft of an object is the last one open; it is moved out, not copied.
        if containers.top.draft != nil { checkContract(drafts.removeLast()) }
        if !openStoreContainers.isEmpty { closeStoreContainer() }
        let container = containers.pop()
        if containers.isEmpty && !snapshotKeys.isEmpty && layer.depth == 0 && container.keys.shape(isRoot: true) == .backup {
            for key in snapshotKeys {
                scan.recordSighting(.settingsSnapshot(key: key, inventory: scan.rules.inventory, artifact: scan.artifact))
            }
            scan.countUnlistedKeys(unlistedSnapshotKeys, context: .backup)
        }
        if scan.hitCount > container.hitsAtOpen, let shape = container.keys.shape(isRoot: containers.isEmpty && layer.depth == 0) {
            scan.facts[container.id, default: ContainerFacts()].shape = shape
        }
        endValue()
    }

    mutating func arrayStart(at offset: Int) {
        beginValue(at: offset)
        if storeHitForValue != nil { noteStoreContainer() }
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an array", at: offset) }
        if !pendingDocumentKey.isEmpty || pendingPayloadField != nil || capture != nil { containerValue(isObject: false, at: offset) }
        var container = Container(id: nextId(), isObject: false)
        if let name = pendingName {
            container.elementName = Int32(elementNames.count)
            elementNames.append(name)
        }
        containers.push(container)
    }

    mutating func arrayEnd(at offset: Int) {
        if capture != nil {
            capture!.builder.arrayEnd(at: offset)
            closeCapture()
        }
        if !openStoreContainers.isEmpty { closeStoreContainer() }
        if containers.pop().elementName >= 0 { elementNames.removeLast() }
        endValue()
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
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
        capture?.builder.key(key, escaped: false, at: offset)
        let facts = scan.keyFacts(key)
        let flag = facts.shape
        containers.top.keys.formUnion(flag)
        pendingDocumentKey = flag.intersection(.documentKeys)
        if !pendingDocumentKey.isEmpty && containers.top.draft == nil {
            containers.top.draft = drafts.count
            drafts.append(DocumentDraft(startOffset: layer.outerOffset ?? offset))
            drafts[drafts.count - 1].position = scan.position(of: layer.outerOffset ?? offset)
        }
        if let draft = containers.top.payloadOf { notePayloadKey(facts, draft: draft) }
        if containers.top.isSettingsSnapshot {
            if snapshotKeys.count < ArtifactScan.listedKeysLimit {
                snapshotKeys.append(String(decoding: key, as: UTF8.self))
            } else {
                unlistedSnapshotKeys += 1
            }
        }
        pendingName = facts.nameIndex < 0 ? nil : scan.nameMatch(of: facts)
        if let store = facts.store {
            let name = String(decoding: key, as: UTF8.self)
            let location = memberLocation(.key(name), key: name)
            // Positioned at the value when it begins; at the key until then (a document that
            // ends or breaks after the key still reports the store, at a real position).
            pendingStoreHit = scan.pending.count
            scan.pending.append(PendingHit(detail: .inventory(store: store), location: location,
                                           position: scan.position(of: layer.outerOffset ?? offset)))
        }
        if facts.matchesPattern {
            let found = scan.scanPatterns(UnsafeRawBufferPointer(key), offset: layer.outerOffset ?? offset) {
                memberLocation(.key(Redaction.maskedKey), key: nil)
            }
            if found > 0 { scan.maskedKeys.insert(Array(key)) }
        }
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
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
                for open in openStoreContainers { scan.pending[open.hit].storeValueHoldsNothing = false }
            }
        }
        if containers.count == 1 && layer.depth == 0 && containers.top.isObject,
           keyArena.withElements(containers.top.key, { bytes in bytes.elementsEqual("format".utf8) }),
           value.elementsEqual("habiter.backup".utf8) {
            containers.top.keys.insert(.backupFormat)
        }
        let hitsBefore = scan.hitCount
        scan.scanNamedString(value, name: pendingName, at: layer.outerOffset ?? offset, depth: layer.depth) { location() }
        if !pendingDocumentKey.isEmpty || pendingPayloadField != nil || capture != nil {
            let text = String(decoding: value, as: UTF8.self)
            if capture != nil {
                value.withMemoryRebound(to: UInt8.self) { capture!.builder.string($0, escaped: false, at: offset) }
            }
            scalarValue(.string(text), at: offset, matchedPattern: scan.hitCount > hitsBefore)
        }
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {
        beginValue(at: offset)
        noteStoreValue(holdsNothing: true)
        if let name = pendingName { recordName(name, credible: false, valueDescription: "a number", at: offset) }
        if !pendingDocumentKey.isEmpty || pendingPayloadField != nil || capture != nil {
            capture?.builder.number(raw, at: offset)
            scalarValue(.number(String(decoding: raw, as: UTF8.self)), at: offset, matchedPattern: false)
        }
        endValue()
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) {
        beginValue(at: offset)
        noteStoreValue(holdsNothing: true)
        if let name = pendingName {
            recordName(name, credible: false, valueDescription: value == .null ? "null" : "a boolean", at: offset)
        }
        if !pendingDocumentKey.isEmpty || pendingPayloadField != nil || capture != nil {
            capture?.builder.literal(value, at: offset)
            scalarValue(value == .null ? .null : .bool(value == .true), at: offset, matchedPattern: false)
        }
        endValue()
    }

    /// Records what the value of the current key's store holds.
    private mutating func noteStoreValue(holdsNothing: Bool) {
        guard let hit = storeHitForValue else { return }
        scan.pending[hit].storeValueHoldsNothing = holdsNothing
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

    /// A payload key: which portable field it is, whether it belongs in a payload at all.
    private mutating func notePayloadKey(_ facts: KeyFacts, draft: Int) {
        if let field = facts.payloadField {
            drafts[draft].payload.fields |= 1 << UInt32(field.rawValue)
            if field == .id || field == .habitId || field == .date || field == .value { pendingPayloadField = field }
        } else {
            drafts[draft].payload.hasOtherKeys = true
        }
        if facts.isPrefsKey { drafts[draft].payload.hasPrefsKeys = true }
    }

    /// A scalar value of a document key or a payload field.
    private mutating func scalarValue(_ value: DraftValue, at offset: Int, matchedPattern: Bool) {
        if !pendingDocumentKey.isEmpty, let draft = containers.top.draft {
            recordDocumentValue(value, draft: draft, offset: offset)
            if pendingDocumentKey == .entityId { drafts[draft].entityIdIsSecret = matchedPattern }
        }
        if let field = pendingPayloadField, capture == nil, !containers.isEmpty, let draft = containers.top.payloadOf {
            switch field {
            case .id: drafts[draft].payload.id = value.stringValue
            case .habitId: drafts[draft].payload.habitId = value.stringValue
            case .date: drafts[draft].payload.date = value.stringValue
            case .value: drafts[draft].payload.value = value.jsonValue
            default: break
            }
        }
    }

    /// An object or array as the value of a document key or of a setting's `value`.
    private mutating func containerValue(isObject: Bool, at offset: Int) {
        if !pendingDocumentKey.isEmpty, !containers.isEmpty, let draft = containers.top.draft {
            recordDocumentValue(isObject ? .object : .array, draft: draft, offset: offset)
        }
        if capture != nil {
            capture!.depth += 1
            if isObject { capture!.builder.objectStart(at: offset) } else { capture!.builder.arrayStart(at: offset) }
        } else if pendingPayloadField == .value, !containers.isEmpty, let draft = containers.top.payloadOf {
            var builder = JSONTreeBuilder()
            if isObject { builder.objectStart(at: offset) } else { builder.arrayStart(at: offset) }
            capture = (builder, 1, draft)
        }
    }

    /// Ends a captured `value` when its last container closes.
    private mutating func closeCapture() {
        guard capture != nil else { return }
        capture!.depth -= 1
        if capture!.depth == 0 {
            drafts[capture!.draft].payload.value = capture!.builder.result?.value
            capture = nil
        }
    }

    private mutating func recordDocumentValue(_ value: DraftValue, draft: Int, offset: Int) {
        switch pendingDocumentKey {
        case .entityId:
            drafts[draft].entityId = value
            drafts[draft].entityIdOffset = offset
            drafts[draft].position = scan.position(of: layer.outerOffset ?? offset)
        case .schemaVersion: drafts[draft].schemaVersion = value
        case .deleted: drafts[draft].deleted = value
        case .payload:
            drafts[draft].hasPayload = true
            if case .object = value { drafts[draft].payloadIsObject = true }
        case .protocolVersion:
            drafts[draft].protocolVersion = value
            drafts[draft].protocolVersionPosition = scan.position(of: layer.outerOffset ?? offset)
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
            var located = location
            if let key = violation.key { located.key = key }
            let position = violation.key == "protocolVersion" ? draft.protocolVersionPosition ?? draft.position : draft.position
            scan.pending.append(PendingHit(detail: .contract(ruleId: violation.ruleId, message: violation.message),
                                           location: located, position: position))
        }
    }

    // MARK: Path and containers

    @inline(__always)
    private mutating func beginValue(at offset: Int) {
        guard !containers.isEmpty else { return }
        containers.top.memberBegun = true
        if containers.top.isObject {
            if let hit = pendingStoreHit {
                scan.pending[hit].position = scan.position(of: layer.outerOffset ?? offset)
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
        pendingPayloadField = nil
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
