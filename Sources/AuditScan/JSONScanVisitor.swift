import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs

/// Scans one JSON text (an input, an NDJSON line, or an embedded layer) as the reader walks it:
/// runs the name rules on keys and the pattern rules on keys and string values, and opens JSON
/// held in strings as inner layers. Its other jobs each have a part of their own: where it is
/// (`JSONPathTracker`), the inventory's stores (`StoreValueTracker`) and the contract checks
/// (`ContractDrafts`).
struct JSONScanVisitor: JSONVisitor {
    private let scan: ArtifactScan
    private var layer: LayerPosition
    /// Shared by copies of the visitor, which is used in place.
    private let path: JSONPathTracker<ContainerNotes>
    private var stores = StoreValueTracker()
    private var drafts: ContractDrafts
    /// The names of the open arrays under a sensitive name, innermost last.
    private var elementNames: [NameMatch] = []
    private var pendingName: NameMatch?
    /// The name that judges the elements of a list at this text's root (`LayerFrame.rootName`).
    private var rootName: NameMatch?
    /// The context rules the current value's key speaks for (`KeyFacts.contextRules`); for the
    /// root value of a layer, those of the string that carries it (`LayerFrame.context`).
    private var pendingContext: ContextMask = 0
    /// The context rules the carrier of every value speaks for (a HAR entry's host, a header's
    /// name), set by the HAR visitor.
    var carrierContext: ContextMask = 0
    private var unescaped: [UInt8] = []
    /// What the next string value is declared to be (a HAR body's `mimeType`), set by the HAR
    /// visitor for that value only.
    var declaredKind: TextKind?
    /// Keys of the root's `settings` object, listed in the inventory if the root is a backup;
    /// dropped when the root closes (the next NDJSON line's root is another document).
    private var snapshotKeys: [String] = []
    private var unlistedSnapshotKeys = 0
    /// Objects that carry a named value as two members (`NameValuePairs`). Off where the reader
    /// judges them itself: a HAR's headers, cookies and parameters.
    private var pairs = NameValuePairs()
    private let judgesNameValuePairs: Bool
    /// The name/value member the current value is, by its key.
    private var pairMember = NameValueRole.none

    init(scan: ArtifactScan, layer: LayerFrame, judgesNameValuePairs: Bool = true) {
        self.scan = scan
        self.judgesNameValuePairs = judgesNameValuePairs
        self.layer = layer.position
        path = JSONPathTracker(scan: scan, layer: layer)
        drafts = ContractDrafts(scan: scan, layer: layer.position)
        pendingContext = layer.context
        rootName = layer.rootName
    }

    /// The visitor, done with a text it read in full, made ready for another: `layer`'s
    /// (`ArtifactScan.takeLayerVisitor`). It is as it began, its stacks' room kept.
    mutating func retarget(to layer: LayerFrame) {
        self.layer = layer.position
        path.retarget(to: layer)
        drafts.retarget(to: layer.position)
        pendingContext = layer.context
        rootName = layer.rootName
    }

    /// The id of the innermost open container.
    var currentContainerId: Int? { path.currentContainerId }

    // MARK: Events

    mutating func objectStart(at offset: Int) throws {
        let (id, parentDraft) = containerBegins("an object", at: offset)
        var notes = drafts.objectNotes(parentDraft: parentDraft)
        if path.depth == 1 && layer.depth == 0 && path.top.isObject && path.currentKeyIs("settings") {
            notes.isSettingsSnapshot = true
        }
        try checkCaptureSize(at: offset)
        if drafts.wantsValue { drafts.containerOpens(isObject: true, at: offset, parentDraft: parentDraft) }
        // An object under a sensitive name: a `value` member that no name member names is judged
        // by it (a wrapped value: Azure's parameter files, `terraform output -json`).
        if let name = pendingName {
            notes.elementName = Int32(elementNames.count)
            elementNames.append(name)
        }
        path.open(id: id, isObject: true, notes: notes)
    }

    /// An object or array begins as the current value: its id, and the draft of the container it
    /// is in, if any. Not that container's notes: returned and copied whole, they were read back
    /// in 16-byte pieces across the smaller stores that had just written them, which the
    /// processor cannot forward (a third of `objectStart`'s samples on one load).
    private mutating func containerBegins(_ description: String, at offset: Int) -> (id: Int, parentDraft: Int?) {
        beginValue(at: offset)
        stores.containerOpens(depth: path.depth + 1, scan: scan)
        noStringValue(description, at: offset)
        return (path.nextId(), path.isEmpty ? nil : path.top.notes.draft)
    }

    mutating func objectEnd(at offset: Int) {
        drafts.containerCloses(isObject: true, at: offset)
        // The path unretained: a copy captured for the closure was retained and released at
        // every object's end, though the location is asked for only with a violation.
        drafts.objectCloses(path.top.notes) { [path = Unretained(path)] in path.call { $0.location() } }
        if stores.hasOpenContainers { stores.containerCloses(depth: path.depth) }
        pairs.objectCloses(depth: path.depth)
        let container = path.close()
        if container.notes.elementName >= 0 { elementNames.removeLast() }
        let keys = container.notes.keys
        if path.isEmpty && !snapshotKeys.isEmpty && layer.depth == 0 && keys.shape(isTextRoot: true, isInputRoot: true) == .backup {
            for key in snapshotKeys {
                scan.recordSighting(.settingsSnapshot(key: key, inventory: scan.rules.inventory, artifact: scan.artifact))
            }
            scan.countUnlistedKeys(unlistedSnapshotKeys, context: .backup)
        }
        if path.isEmpty {
            snapshotKeys.removeAll(keepingCapacity: true)
            unlistedSnapshotKeys = 0
        }
        if scan.hitCount > container.notes.hitsAtOpen,
           let shape = keys.shape(isTextRoot: path.isEmpty, isInputRoot: path.isEmpty && layer.depth == 0) {
            scan.facts[container.id, default: ContainerFacts()].shape = shape
        }
        endValue()
    }

    mutating func arrayStart(at offset: Int) throws {
        let (id, parentDraft) = containerBegins("an array", at: offset)
        var notes = drafts.arrayNotes(parentDraft: parentDraft)
        try checkCaptureSize(at: offset)
        if drafts.wantsValue { drafts.containerOpens(isObject: false, at: offset, parentDraft: parentDraft) }
        // Only a key's name hit is made for the array itself (`containerBegins`): at a layer's
        // root, the carrying string's stands for it.
        if let name = pendingName ?? (path.isEmpty ? rootName : nil) {
            notes.elementName = Int32(elementNames.count)
            elementNames.append(name)
        }
        notes.elementContext = pendingContext
        path.open(id: id, isObject: false, notes: notes)
    }

    mutating func arrayEnd(at offset: Int) {
        drafts.containerCloses(isObject: false, at: offset)
        if stores.hasOpenContainers { stores.containerCloses(depth: path.depth) }
        let container = path.close()
        if container.notes.elementName >= 0 { elementNames.removeLast() }
        drafts.arrayCloses(container.notes, elements: container.nextIndex)
        endValue()
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        try checkCaptureSize(at: offset, addsValue: false)
        unescaping(raw, escaped) { visitor, key in
            visitor.keyValue(key, at: offset)
            visitor.path.setKey(key)
        }
        if layer.outerOffset == nil { try scan.checkDocumentHits(at: offset) }
    }

    /// The captured members' limits (`ContractDrafts.capturedMemberLimit`), checked at every
    /// event, here on the drafts' stored limit and count: a call of a check of the drafts' own
    /// from the visitor copied the whole `ContractDrafts` struct for one comparison. A key adds
    /// no value, so only the size limit applies to it.
    @inline(__always)
    private mutating func checkCaptureSize(at offset: Int, addsValue: Bool = true) throws(DocumentLimit) {
        if offset > drafts.captureLimitOffset || (addsValue && drafts.capturedValues >= ContractDrafts.maxCapturedValues) {
            throw drafts.capturedMemberLimit(at: offset)
        }
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
        let facts = scan.keyFacts(key)
        // The object's notes in place, through one address: no container opens before the
        // key's value.
        let top = path.topAddress
        top.pointee.notes.keys.formUnion(facts.shape)
        top.pointee.notes.memberCount += 1
        drafts.key(key, facts: facts, at: offset, notes: &top.pointee.notes)
        if top.pointee.notes.isSettingsSnapshot {
            if snapshotKeys.count < ArtifactScan.listedKeysLimit {
                snapshotKeys.append(scan.keyText(key, facts: facts))
            } else {
                unlistedSnapshotKeys += 1
            }
        }
        // Most keys match no name rule, and the previous value has cleared the name: assigning
        // nil regardless released the empty optional at every key.
        if facts.nameIndex >= 0 {
            pendingName = scan.nameMatch(of: facts, key: key)
        } else if pendingName != nil {
            pendingName = nil
        }
        pendingContext = facts.contextRules
        if facts.pairRole != .none && judgesNameValuePairs { pairKey(key, facts: facts) }
        if let store = facts.store {
            let name = scan.keyText(key, facts: facts)
            let location = path.memberLocation(.key(name), key: name)
            // Positioned at the value when it begins; at the key until then (a document that
            // ends or breaks after the key still reports the store, at a real position).
            stores.keyIsStore(hit: scan.recordStore(store, location: location, position: scan.position(of: layer.outerOffset ?? offset)))
        }
        if facts.matchesPattern {
            let found = scan.scanPatterns(UnsafeRawBufferPointer(key), offset: layer.outerOffset ?? offset) {
                path.memberLocation(.key(Redaction.maskedKey), key: nil)
            }
            if found > 0 { scan.maskedKeys.insert(Array(key)) }
        }
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        try checkCaptureSize(at: offset)
        beginValue(at: offset)
        unescaping(raw, escaped) { visitor, value in visitor.stringValue(UnsafeRawBufferPointer(value), at: offset) }
        endValue()
        if layer.outerOffset == nil { try scan.checkDocumentHits(at: offset) }
    }

    /// A string value, unescaped.
    private mutating func stringValue(_ value: UnsafeRawBufferPointer, at offset: Int) {
        if stores.isInStore {
            // Only a store's own value can be a date about it, not a string inside its value.
            let (placeholder, isDate) = StoreValueTracker.kind(of: value, isStoreValue: stores.isStoreValue)
            stores.string(isPlaceholder: placeholder, isDate: isDate, scan: scan)
        }
        if path.depth == 1 && layer.depth == 0 && path.top.isObject && path.currentKeyIs("format"),
           value.elementsEqual("habiter.backup".utf8) {
            path.top.notes.keys.insert(.backupFormat)
        }
        let hitsBefore = scan.hitCount
        var name = pendingName
        if name != nil && stores.isInStore && stores.isInDeviceLocalStore(scan: scan)
            && value.withMemoryRebound(to: UInt8.self, SafeShapes.isIdentifier) {
            name = nil
        }
        // The closure captures the path alone: with one that captured the visitor in place, the
        // scan was retained and released around every call.
        let isJSONText = scan.scanNamedString(value, name: name, at: layer.outerOffset ?? offset, depth: layer.depth, kind: declaredKind,
                             context: pendingContext | carrierContext,
                             recordQuiet: { [path] scan, match, description, offset in
                                 guard scan.options.recordsQuietHitsByParts else { return false }
                                 scan.recordQuietNameHit(match, valueDescription: description, at: offset, path: path)
                                 return true
                             }) { [path] in path.location() }
        if pairMember != .none { pairString(value, hadHits: scan.hitCount > hitsBefore, isJSONText: isJSONText, at: layer.outerOffset ?? offset) }
        if drafts.wantsValue {
            value.withMemoryRebound(to: UInt8.self) { bytes in
                drafts.capture { $0.scalar(.string, bytes, at: offset) }
            }
            if !drafts.pendingKey.isEmpty {
                value.withMemoryRebound(to: UInt8.self) { bytes in
                    drafts.string(bytes, at: offset, matchedPattern: scan.hitCount > hitsBefore, notes: path.top.notes)
                }
            }
        }
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        try checkCaptureSize(at: offset)
        beginValue(at: offset)
        stores.scalar(holdsNothing: true, isSummary: true, scan: scan)
        noStringValue("a number", at: offset)
        if drafts.wantsValue {
            drafts.capture { $0.scalar(.number, raw, at: offset) }
            if !drafts.pendingKey.isEmpty {
                drafts.number(raw, at: offset, notes: path.top.notes)
            }
        }
        endValue()
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws {
        try checkCaptureSize(at: offset)
        beginValue(at: offset)
        stores.scalar(holdsNothing: true, isSummary: true, scan: scan)
        noStringValue(value == .null ? "null" : "a boolean", at: offset)
        if drafts.wantsValue {
            drafts.capture { $0.literal(value, at: offset) }
            if !drafts.pendingKey.isEmpty {
                drafts.scalar(value == .null ? .null : .bool(value == .true), at: offset, matchedPattern: false, notes: path.top.notes)
            }
        }
        endValue()
    }

    /// A value another worker visits (`ScanShare`): it takes its place in the path, nothing more.
    mutating func skippedValue() {
        pairMember = .none
        guard !path.isEmpty else { return }
        path.beginValue()
        endValue()
    }

    /// The innermost array's next `count` elements were passed unread, not even skipped.
    mutating func skippedElements(_ count: Int) {
        path.passElements(count)
    }

    // MARK: Name/value objects

    /// A name or value member's key (`NameValuePairs`). A value whose name came first is judged
    /// by it as by its key's name: it is the pending name. A value that no name names yet, in an
    /// object under a sensitive name (`{"adminPassword": {"value": …}}`), is judged by that name.
    @inline(never)
    private mutating func pairKey(_ key: UnsafeBufferPointer<UInt8>, facts: KeyFacts) {
        pairMember = facts.pairRole
        guard facts.pairRole == .value else { return }
        let named = pairs.valueBegins(key: scan.keyText(key, facts: facts), depth: path.depth, scan: scan)
        if let (match, nameText) = named {
            noteValueName(nameText)
            if pendingName == nil { pendingName = match }
        } else if path.top.notes.elementName >= 0, let objectKey = path.containerKey() {
            noteValueName(objectKey)
            if pendingName == nil { pendingName = elementNames[Int(path.top.notes.elementName)] }
        }
    }

    /// A name or value member that is a string: a name is kept, or judges the value read before
    /// it; a value read before its name is kept for it.
    @inline(never)
    private mutating func pairString(_ value: UnsafeRawBufferPointer, hadHits: Bool, isJSONText: Bool, at offset: Int) {
        let member = pairMember
        pairMember = .none
        let depth = path.depth
        switch member {
        case .name:
            guard value.withMemoryRebound(to: UInt8.self, { pairs.name($0, depth: depth, scan: scan) }) else { return }
            let named = pairs.judged()
            noteValueName(named.nameText)
            judgeEarlyValue(named.early, by: named.match, valueKey: named.valueKey)
        case .value:
            guard pairs.awaitsName(depth: depth) else { return }
            let early: NameValuePairs.EarlyValue
            if hadHits {
                early = .hadHits
            } else if value.count > NameValuePairs.keptValueLimit {
                early = .string(bytes: Array(value.prefix(NameValuePairs.keptValueLimit)), characters: Redaction.characterCount(value),
                                isJSONText: isJSONText, offset: offset)
            } else {
                early = .string(bytes: Array(value), characters: nil, isJSONText: isJSONText, offset: offset)
            }
            pairs.early(early, depth: depth)
        case .none:
            break
        }
    }

    /// A value that is no string (a number, a literal, a container): under a sensitive name, a
    /// name hit that is no secret; as a name/value object's value, what its name will judge.
    @inline(__always)
    private mutating func noStringValue(_ description: String, at offset: Int) {
        if let name = pendingName { recordName(name, credible: false, valueDescription: description, at: offset) }
        if pairMember != .none { pairValue(.other(description: description, offset: layer.outerOffset ?? offset)) }
    }

    /// A value member that is no string, read before its name: kept for it. A name that is no
    /// string names nothing.
    @inline(never)
    private mutating func pairValue(_ early: NameValuePairs.EarlyValue) {
        let member = pairMember
        pairMember = .none
        if member == .value && pairs.awaitsName(depth: path.depth) { pairs.early(early, depth: path.depth) }
    }

    /// The hits in the current object's value member are reported under its name
    /// (`HitPrecedence.applyingFacts`), as a HAR header's are.
    private mutating func noteValueName(_ name: String) {
        guard let id = path.currentContainerId else { return }
        scan.facts[id, default: ContainerFacts()].valueName = name
    }

    /// Judges a value read before its name by the name, as `ArtifactScan.scanNamedString` judges
    /// one under a sensitive key.
    private mutating func judgeEarlyValue(_ early: NameValuePairs.EarlyValue, by match: NameMatch, valueKey: String) {
        let location = path.memberLocation(.key(valueKey), key: valueKey)
        switch early {
        case .hadHits:
            break
        case .string(let bytes, let characters, let isJSONText, let offset):
            bytes.withUnsafeBytes { value in
                var (credible, description) = scan.nameVerdict(on: value, name: match, isJSONText: isJSONText, carriedByProtocol: false)
                if let characters, !isJSONText { description = Redaction.describeValue(length: characters) }
                scan.recordNameHit(match, credible: credible, valueDescription: description, at: offset, location: location, value: value)
            }
        case .other(let description, let offset):
            scan.recordNameHit(match, credible: false, valueDescription: description, at: offset, location: location)
        }
    }

    // MARK: Values and locations

    @inline(__always)
    private mutating func beginValue(at offset: Int) {
        guard !path.isEmpty else { return }
        let top = path.topAddress
        path.beginValue(in: top)
        if top.pointee.isObject {
            if stores.isPending { stores.valueBegins(at: scan.position(of: layer.outerOffset ?? offset), scan: scan) }
        } else {
            let elementName = top.pointee.notes.elementName
            if elementName >= 0 { pendingName = elementNames[Int(elementName)] }
            pendingContext = top.pointee.notes.elementContext
        }
    }

    @inline(__always)
    private mutating func endValue() {
        if pendingName != nil { pendingName = nil }
        pendingContext = 0
        drafts.valueEnded()
        path.endValue()
    }

    /// The location of the current value (see `JSONPathTracker.location`). Mutating only so
    /// that the closures of a scan call it in place: a non-mutating call through them copied
    /// the whole visitor (a retain and a release of each of its arrays) for every hit.
    mutating func location() -> HitLocation {
        path.location()
    }

    private mutating func recordName(_ match: NameMatch, credible: Bool, valueDescription: String, at offset: Int) {
        guard credible || !scan.options.recordsQuietHitsByParts else {
            return scan.recordQuietNameHit(match, valueDescription: valueDescription, at: layer.outerOffset ?? offset, path: path)
        }
        scan.recordNameHit(match, credible: credible, valueDescription: valueDescription,
                           at: layer.outerOffset ?? offset, location: location())
    }
}

/// What the scan's jobs note about an open container, beside its place on the path.
struct ContainerNotes {
    /// The object's keys that `ShapeKeys` names, and how many members have begun.
    var keys: ShapeKeys = []
    var memberCount = 0
    /// For an array under a sensitive name: every element is judged by that name; for an object,
    /// its `value` member that no name member names (an index into `elementNames`, so that a
    /// container holds plain values only).
    var elementName: Int32 = -1
    /// For an array under a key that speaks for context rules (`KeyFacts.contextRules`): every
    /// element is read with them (each element's value begins with them pending).
    var elementContext: ContextMask = 0
    /// Pending hits when the container opened: its shape matters only if hits followed.
    var hitsAtOpen = 0
    /// The object's draft for the contract checks, once a document key appeared in it.
    var draft: Int?
    /// For the `document` object of an operation's draft: that draft.
    var documentOf: Int?
    /// For the `operations` array of a draft: that draft (its elements are counted).
    var operationsOf: Int?
    /// Where this object's members that the app's sensitive-name rule matches begin in the
    /// drafts' screened names, and (an operation's document) its additional fields.
    var appSensitiveKeysStart = 0
    var metadataKeysStart = 0
    /// Where this object's drafts' texts begin (`ContractDrafts.string`).
    var textsStart = 0
    /// The `settings` object of an input's root object: a backup's settings snapshot.
    var isSettingsSnapshot = false
}

/// The path and ancestry of one open container, the same for every value it holds: a document
/// with millions of hits makes them once per container, not per hit (see `HitLocation`). One per
/// artifact scan, shared by its JSON visitors: container ids are unique within the scan.
final class ContainerPlace {
    var container = -1
    var containerPath = LayeredPath()
    var ancestry: [Int] = []
}
