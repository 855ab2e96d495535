import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs

/// The contract checks' part of a JSON scan: a draft (`DocumentDraft`) for every open object in
/// which a document key appeared, the members the checks read whole (`Capture`), and the names
/// they screen. A closing object's draft goes to `ContractValidator`; its violations are
/// recorded on the scan.
struct ContractDrafts {
    /// A member of a draft being collected as a tree.
    private struct Capture {
        var builder: CapturedJSON.Builder
        /// How many of its containers are open.
        var depth: Int
        var draft: Int
        var member: ShapeKeys
        /// Whether a name in it matches the app's sensitive-name rule.
        var holdsSensitiveName = false
    }

    /// Far above what the app sends: its client refuses responses over 256 KiB.
    static let maxCapturedBytes = 4 << 20
    /// The most values a captured member may hold: far above what the app sends too (a payload
    /// has tens), and its tree stays within 16 MiB of entries. Under the byte limit alone a
    /// member of tiny values (`[0,0,…]`, 3.9 MB) held 1.95 million and peaked at 98 MB of RSS,
    /// over the input-plus-64-MB bound (BENCHMARKS.md, "The contract checks on flat captures").
    static let maxCapturedValues = 1 << 19

    private let scan: ArtifactScan
    private var layer: LayerPosition
    /// Drafts of the open objects that have one, innermost last.
    private var drafts: [DocumentDraft] = []
    /// The document key (`entityId`, `payload`, …) whose value comes next.
    private(set) var pendingKey: ShapeKeys = []
    /// Members of drafts being collected as trees (a payload, a revision, changed fields, field
    /// registers): the first `openCaptures`, innermost last, take every event; those after them
    /// ended, and are kept for their builders' room. A capture opens and ends where it lies,
    /// field by field: moved in and out whole, it was copied 16 bytes at a time across the
    /// smaller stores that had just written it, which the processor cannot forward (a third of
    /// `containerCloses`' samples on two such loads).
    private var captures: [Capture] = []
    private var openCaptures = 0
    /// The offset past which the outermost capture is over `maxCapturedBytes`, `Int.max` while
    /// nothing is captured: every event's offset is compared with it (`capturedMemberLimit`).
    private(set) var captureLimitOffset = Int.max
    /// The values of the outermost capture so far, 0 while nothing is captured: every value's
    /// event compares it with `maxCapturedValues` (`capturedMemberLimit`).
    private(set) var capturedValues = 0
    /// Members of the open objects that the app's sensitive-name rule matches (name, offset),
    /// innermost object last: the contract checks screen a document's or operation's
    /// additional fields with them.
    private var appSensitiveKeys: [(name: String, offset: Int)] = []
    /// The additional fields of the open operation documents, innermost last: an operation's
    /// `changedMetadataFields` list them.
    private var metadataKeys: [String] = []
    /// The texts of the open drafts' string and number values, back to back (`DraftValue.text`
    /// and `.number`), cut back when an object closes.
    private var texts: [UInt8] = []
    /// The storages of checked drafts' trees, for the next captures' trees.
    private let spareStorages = CapturedJSON.SpareStorages()

    init(scan: ArtifactScan, layer: LayerPosition) {
        self.scan = scan
        self.layer = layer
    }

    /// The drafts of another text, `layer`'s: those of the one before are all checked.
    mutating func retarget(to layer: LayerPosition) {
        precondition(drafts.isEmpty && openCaptures == 0 && texts.isEmpty, "drafts done with their text")
        self.layer = layer
    }

    /// Whether the next value matters to the checks: the value of a document key, or inside a
    /// captured member.
    var wantsValue: Bool { !pendingKey.isEmpty || openCaptures > 0 }

    /// The notes a new object starts with (where its names begin in the screened lists); an
    /// operation's `document` is tied to the operation's draft (`parentDraft`, the draft of the
    /// container it is in).
    func objectNotes(parentDraft: Int?) -> ContainerNotes {
        var notes = ContainerNotes(hitsAtOpen: scan.hitCount, appSensitiveKeysStart: appSensitiveKeys.count,
                                   metadataKeysStart: metadataKeys.count, textsStart: texts.count)
        if pendingKey == .document, let draft = parentDraft { notes.documentOf = draft }
        return notes
    }

    /// An array's notes: the `operations` array of a draft counts its elements.
    func arrayNotes(parentDraft: Int?) -> ContainerNotes {
        var notes = ContainerNotes()
        if pendingKey == .operations, let draft = parentDraft { notes.operationsOf = draft }
        return notes
    }

    /// A key of the innermost object (`notes`), with the facts `ArtifactScan.keyFacts` gave it.
    @inline(__always)
    mutating func key(_ key: UnsafeBufferPointer<UInt8>, facts: KeyFacts, at offset: Int, notes: inout ContainerNotes) {
        let flag = facts.shape, isAppSensitive = facts.isAppSensitive
        let isMetadataKey = notes.documentOf != nil && flag.isDisjoint(with: ShapeKeys.entityDocumentMembers)
        for i in 0..<openCaptures {
            captures[i].builder.key(key, at: offset)
            if isAppSensitive { captures[i].holdsSensitiveName = true }
        }
        // The key's text, taken once for both lists that keep it.
        if isAppSensitive || isMetadataKey {
            let text = scan.keyText(key, facts: facts)
            if isAppSensitive { appSensitiveKeys.append((text, offset)) }
            if isMetadataKey { metadataKeys.append(text) }
        }
        pendingKey = flag.intersection(.documentKeys)
        if !pendingKey.isEmpty && notes.draft == nil {
            notes.draft = drafts.count
            let start = layer.outerOffset ?? offset
            let firstTicket = scan.deferredCount
            drafts.append(DocumentDraft(startOffset: start, ticket: scan.deferPosition(of: start), firstTicket: firstTicket))
        }
    }

    /// The current value ended.
    mutating func valueEnded() {
        pendingKey = []
    }

    /// A string value of a document key (`notes`: of the object it is in), kept in the texts.
    /// Out of line, as `number` is: a few values an operation, inlined into the reader's loop
    /// they made the code around every value larger.
    @inline(never)
    mutating func string(_ value: UnsafeBufferPointer<UInt8>, at offset: Int, matchedPattern: Bool, notes: ContainerNotes) {
        guard notes.draft != nil else { return }
        scalar(.text(keep(value)), at: offset, matchedPattern: matchedPattern, notes: notes)
    }

    /// A number value of a document key (`notes`: of the object it is in), its text kept in the
    /// texts.
    @inline(never)
    mutating func number(_ text: UnsafeBufferPointer<UInt8>, at offset: Int, notes: ContainerNotes) {
        guard notes.draft != nil else { return }
        scalar(.number(keep(text)), at: offset, matchedPattern: false, notes: notes)
    }

    /// Where `bytes` are in the texts once appended.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = texts.count
        texts.append(contentsOf: bytes)
        return start..<texts.count
    }

    /// A scalar value of a document key (`notes`: of the object it is in).
    mutating func scalar(_ value: DraftValue, at offset: Int, matchedPattern: Bool, notes: ContainerNotes) {
        guard let draft = notes.draft else { return }
        recordDocumentValue(value, draft: draft, offset: offset)
        if pendingKey == .entityId { drafts[draft].entityIdIsSecret = matchedPattern }
        if ShapeKeys.capturedMembers.contains(pendingKey) {
            let json = texts.withUnsafeBufferPointer { value.jsonValue(in: $0) }
            drafts[draft].setCaptured(pendingKey, CapturedJSON(JSONValue.Node(value: json, offset: offset)))
        }
    }

    /// Hands each capture a string, number or literal event.
    mutating func capture(_ event: (inout CapturedJSON.Builder) -> Void) {
        if openCaptures > 0 { capturedValues += 1 }
        for i in 0..<openCaptures { event(&captures[i].builder) }
    }

    /// An object or array as the value of a document key, or inside a captured member
    /// (`parentDraft`: the draft of the container it is in).
    mutating func containerOpens(isObject: Bool, at offset: Int, parentDraft: Int?) {
        if openCaptures > 0 { capturedValues += 1 }
        for i in 0..<openCaptures {
            captures[i].depth += 1
            captures[i].builder.containerStart(isObject: isObject, at: offset)
        }
        guard !pendingKey.isEmpty, let draft = parentDraft else { return }
        recordDocumentValue(isObject ? .object : .array, draft: draft, offset: offset)
        if ShapeKeys.capturedMembers.contains(pendingKey) {
            if openCaptures == 0 { (captureLimitOffset, capturedValues) = (offset + ContractDrafts.maxCapturedBytes, 1) }
            if openCaptures == captures.count { captures.append(Capture(builder: CapturedJSON.Builder(), depth: 0, draft: 0, member: [])) }
            let i = openCaptures
            openCaptures += 1
            captures[i].builder.containerStart(isObject: isObject, at: offset)
            captures[i].depth = 1
            captures[i].draft = draft
            captures[i].member = pendingKey
            captures[i].holdsSensitiveName = false
        }
    }

    /// An object or array closes: the captures whose last container it was end.
    mutating func containerCloses(isObject: Bool, at offset: Int) {
        guard openCaptures > 0 else { return }
        for i in 0..<openCaptures {
            captures[i].builder.containerEnd()
            captures[i].depth -= 1
        }
        while openCaptures > 0 && captures[openCaptures - 1].depth == 0 {
            let i = openCaptures - 1
            let (draft, member) = (captures[i].draft, captures[i].member)
            if let tree = captures[i].builder.takeResult(reusing: spareStorages) { drafts[draft].setCaptured(member, tree) }
            if !captures[i].holdsSensitiveName { drafts[draft].membersWithoutSensitiveNames.insert(member) }
            openCaptures = i
        }
        if openCaptures == 0 { (captureLimitOffset, capturedValues) = (Int.max, 0) }
    }

    /// An object closes (`notes`, with the shape keys it had): its draft is checked against the
    /// contract, an operation's document summarised into the operation's draft, and its
    /// screened names dropped.
    mutating func objectCloses(_ notes: ContainerNotes, location: () -> HitLocation) {
        // The draft of an object is the last one open; it is moved out, not copied.
        if notes.draft != nil {
            var draft = drafts.removeLast()
            draft.keys = notes.keys
            draft.memberCount = notes.memberCount
            draft.appSensitiveKeys = appSensitiveKeys.copied(from: notes.appSensitiveKeysStart)
            if let parent = notes.documentOf {
                drafts[parent].document = DocumentSummary(draft, metadataKeys: metadataKeys.copied(from: notes.metadataKeysStart))
            }
            check(draft, location: location)
            draft.giveBackTrees(to: spareStorages)
            scan.releaseDeferred(from: draft.firstTicket)
        } else if let parent = notes.documentOf {
            drafts[parent].document = DocumentSummary(isEntityDocument: false)
        }
        appSensitiveKeys.truncate(to: notes.appSensitiveKeysStart)
        metadataKeys.truncate(to: notes.metadataKeysStart)
        texts.truncate(to: notes.textsStart)
    }

    /// An array closes: the `operations` array of a draft gives its element count.
    mutating func arrayCloses(_ notes: ContainerNotes, elements: Int) {
        if let draft = notes.operationsOf { drafts[draft].operationCount = elements }
    }

    /// The error of an event at `offset` past `captureLimitOffset`, or of a value after the
    /// `maxCapturedValues`th. A captured member is validated whole, so its size is bounded:
    /// beyond either limit the input fails with a `limit` error rather than go unchecked or take
    /// unbounded memory. The visitor checks every event against the limits
    /// (`JSONScanVisitor.checkCaptureSize`).
    func capturedMemberLimit(at offset: Int) -> DocumentLimit {
        capturedValues >= ContractDrafts.maxCapturedValues
            ? DocumentLimit.capturedValues(offset: layer.outerOffset ?? offset, limit: ContractDrafts.maxCapturedValues)
            : DocumentLimit.capturedMember(offset: layer.outerOffset ?? offset, limit: ContractDrafts.maxCapturedBytes)
    }

    /// Records a value of a document key; the values a violation may be reported at keep a
    /// ticket for their position, which the window counts before it drops their bytes (a draft
    /// can outgrow the window).
    private mutating func recordDocumentValue(_ value: DraftValue, draft: Int, offset: Int) {
        // Only where it is kept.
        var ticket: Int { scan.deferPosition(of: layer.outerOffset ?? offset) }
        switch pendingKey {
        case .entityId:
            drafts[draft].entityId = value
            drafts[draft].entityIdOffset = offset
            drafts[draft].positionTicket = ticket
        case .schemaVersion: drafts[draft].schemaVersion = value
        case .deleted: drafts[draft].deleted = value
        case .payload:
            drafts[draft].hasPayload = true
            if case .object = value { drafts[draft].payloadIsObject = true }
        case .protocolVersion:
            drafts[draft].protocolVersion = value
            drafts[draft].protocolVersionOffset = offset
            drafts[draft].protocolVersionTicket = ticket
        case .operationId:
            drafts[draft].operationId = value
            drafts[draft].operationIdOffset = offset
            drafts[draft].operationIdTicket = ticket
        case .kind:
            drafts[draft].kind = value
            drafts[draft].kindOffset = offset
            drafts[draft].kindTicket = ticket
        case .document:
            drafts[draft].hasDocument = true
            drafts[draft].documentOffset = offset
            drafts[draft].documentTicket = ticket
        case .operations:
            drafts[draft].operationsOffset = offset
            drafts[draft].operationsTicket = ticket
        case .migratedAt: drafts[draft].hasMigratedAt = true
        case .quarantine: drafts[draft].hasQuarantine = true
        default: break
        }
    }

    /// Checks a closing object against the contract and records its violations, on its
    /// `entityId` (the key of a whole-document violation is the entity id).
    private func check(_ draft: borrowing DocumentDraft, location: () -> HitLocation) {
        // The checks read the texts in place; the entity id is made a `String` only for a
        // violation's key.
        let (violations, id): ([ContractViolation], String?) = texts.withUnsafeBufferPointer { texts in
            let violations = scan.withInventory { ContractValidator.check(draft, texts: texts, inventory: $0, fieldLists: scan.fieldLists) }
            return (violations, violations.isEmpty ? nil : draft.entityId?.withText(in: texts) { String(decoding: $0, as: UTF8.self) })
        }
        guard !violations.isEmpty else { return }
        // The key of a whole-document violation is the entity id; without one, the name of the
        // object (`document`), as for any value.
        var location = location()
        if let id {
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
            let position = violation.offset.map { offset in
                draft.recordedTicket(of: offset).map(scan.deferredPosition) ?? scan.position(of: layer.outerOffset ?? offset)
            } ?? scan.deferredPosition(draft.positionTicket)
            scan.recordContractViolation(ruleId: violation.ruleId, message: violation.message, location: located, position: position)
        }
    }
}
