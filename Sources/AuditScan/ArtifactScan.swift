import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs
import AuditRules

/// The state of scanning one input: positions, pending hits, container shapes, findings and
/// errors. Readers and layer visitors feed it; `finishDocument` turns hits into findings.
final class ArtifactScan {
    let artifact: String
    let rules: RulePack
    let matcher: RegexMatcher
    /// The parts of `rules` that every key or value calls, not retained for each call (`rules`
    /// holds them for the scan's life).
    private let inventory: Unretained<Inventory>
    private let patterns: Unretained<PatternEngine>
    private let names: Unretained<NameMatcher>
    let options: ScanOptions
    let window: ByteWindow
    let layerDecoders: LayerDecoderSet
    /// The worker's last comparisons of operations' field lists (`WorkerCaches`).
    let fieldLists: FieldListComparisons
    /// The JSON visitors' cache of the innermost container's path (see `ContainerPlace`).
    let containerPlace = ContainerPlace()
    // What readers and visitors read and change on every value: each in a box of its own (see
    // `UncheckedBox`), so that two of them may be accessed at once, as before.
    private let rootPathBox = UncheckedBox<LayeredPath>(LayeredPath())
    private let patternScratchBox = UncheckedBox<PatternScratch>(PatternScratch())
    private let pkceBox = UncheckedBox<PKCEPairing>(PKCEPairing())
    private let pendingBox = UncheckedBox<[PendingHit]>([])
    private let quietNameHitsBox = UncheckedBox<QuietNameHits>(QuietNameHits())
    private let factsBox = UncheckedBox<[Int: ContainerFacts]>([:])
    private let nextContainerIdBox = UncheckedBox<Int>(0)
    private let maskedKeysBox = UncheckedBox<Set<[UInt8]>>([])
    /// Visitors that read a layer's JSON text in full, for the next layers to take
    /// (`takeLayerVisitor`). They hold the scan: `dropLayerVisitors` ends that cycle.
    private let spareLayerVisitorsBox = UncheckedBox<[JSONScanVisitor]>([])
    /// How many layer visitors the scan made (tests check that they are reused).
    private(set) var layerVisitorsMade = 0
    /// How many strings that carry layers were located (tests check that the others were not).
    var layerOriginsLocated = 0
    /// The base64 decoder, as a bit mask over `layerDecoders` (0 without one).
    let base64Decoder: UInt16
    /// Set when the base64 decoder opens a layer of a string value outside any layer
    /// (`openLayers`); whoever reads it clears it first. A HAR body declared base64 is decoded
    /// only if the decoder does not recognise it (`HARScanVisitor.closeContent`), which asked
    /// it a second time before. (A value it refuses is rare, and asked about again.)
    var base64RecognisedOutside = false
    /// How many HAR bodies declared base64 the base64 decoder was asked about again when their
    /// `content` closed (tests check that the others were not).
    var declaredBase64BodiesAskedAgain = 0
    /// The findings so far (rule 1 merges a request's repeats in place).
    let findingsBox = UncheckedBox<[Finding]>([])
    private let errorsBox = UncheckedBox<[InputError]>([])

    /// The path of the input's own layer: empty, or `!gzip` for a compressed input.
    var rootPath: LayeredPath {
        _read { yield rootPathBox.value }
        _modify { yield &rootPathBox.value }
    }
    var patternScratch: PatternScratch {
        _read { yield patternScratchBox.value }
        _modify { yield &patternScratchBox.value }
    }
    /// Code challenges seen anywhere in the input, for the verifiers found in it.
    var pkce: PKCEPairing {
        _read { yield pkceBox.value }
        _modify { yield &pkceBox.value }
    }
    /// Hits waiting for the end of their document, but for the quiet name hits.
    var pending: [PendingHit] {
        _read { yield pendingBox.value }
        _modify { yield &pendingBox.value }
    }
    /// Name hits on values that are no secret, kept compact (see `QuietNameHits`).
    var quietNameHits: QuietNameHits {
        _read { yield quietNameHitsBox.value }
    }
    /// Facts about closed containers that hits inside them need, until the document ends.
    var facts: [Int: ContainerFacts] {
        _read { yield factsBox.value }
        _modify { yield &factsBox.value }
    }
    var nextContainerId: Int {
        _read { yield nextContainerIdBox.value }
        _modify { yield &nextContainerIdBox.value }
    }
    /// Keys that are themselves secrets: shown as `[REDACTED]` in paths and messages.
    var maskedKeys: Set<[UInt8]> {
        _read { yield maskedKeysBox.value }
        _modify { yield &maskedKeysBox.value }
    }
    var findings: [Finding] {
        _read { yield findingsBox.value }
    }
    var errors: [InputError] {
        _read { yield errorsBox.value }
    }
    let keyCache: KeyFactsCache
    /// Values in which nothing was found, not to be scanned again (`scanNamedString`).
    private let quietValues: QuietValues

    /// The findings, handed over: the scan keeps none.
    func takeFindings() -> [Finding] {
        defer { findingsBox.value = [] }
        return findingsBox.value
    }
    /// Stores of the inventory seen, for the report's inventory section, each distinct one once.
    private let sightingsBox = UncheckedBox<Set<InventorySighting>>([])
    private var sightings: Set<InventorySighting> {
        _read { yield sightingsBox.value }
        _modify { yield &sightingsBox.value }
    }
    /// Keys without a store (unknown keys, settings-snapshot keys) seen beyond the first
    /// `listedKeysLimit`: counted, not listed, so a hostile input cannot grow the report.
    private(set) var unlistedKeys = 0
    private var unlistedContext = ScanContext.payload
    static let listedKeysLimit = 256
    /// The names of the sightings without a store that `sightings` holds, hashed: a key past
    /// the limit whose hash is not here is not there either, found without hashing whole
    /// sightings and comparing them along the set's probes (some 1,200 instructions a key, for
    /// each of the thousands of unknown keys a prefs export can hold).
    private var unstoredNameHashes = Set<UInt64>()

    /// Forgets the quiet name hits of a document that has ended.
    func clearQuietNameHits() {
        quietNameHitsBox.value.removeAll()
    }

    /// Name rules the scan applies by more than a key's name (nil when the pack lacks them): a
    /// `salt` is password-verifier material only beside its `iterations`; the `code` and `state`
    /// of an authorization response are judged by `name.authorization-response`.
    let passwordVerifierRule: Int?
    let authorizationResponseRule: Int?

    /// This worker's part of the input, when several scan it at once.
    let share: ScanShare?
    /// The challenges of PKCE verifiers reported unpaired, when `share` is set: another worker may
    /// have seen the challenge (`SharedOutcomes`).
    var unpairedChallenges: [[UInt8]] = []

    /// `caches`: the worker's, made for `rules`.
    init(artifact: String, window: ByteWindow, rules: RulePack, matcher: RegexMatcher, caches: WorkerCaches, options: ScanOptions,
         share: ScanShare? = nil) {
        precondition(caches.rules === rules, "a worker's caches hold the judgements of its own rules")
        self.artifact = artifact
        self.window = window
        self.rules = rules
        self.matcher = matcher
        (inventory, patterns, names) = (Unretained(rules.inventory), Unretained(rules.patterns), Unretained(rules.names))
        keyCache = caches.keyFacts
        quietValues = caches.quietValues
        layerDecoders = caches.layerDecoders
        base64Decoder = caches.layerDecoders.mask(named: Base64LayerDecoder().name)
        fieldLists = caches.fieldLists
        self.options = options
        self.share = share
        passwordVerifierRule = rules.nameRules.firstIndex { $0.id == SpecialRule.passwordVerifier.rawValue }
        authorizationResponseRule = rules.nameRules.firstIndex { $0.id == SpecialRule.authorizationResponse.rawValue }
    }

    /// `body` with the inventory, not retained for the call (a load through `rules` was retained
    /// and released around every document's contract checks).
    @inline(__always)
    func withInventory<Result>(_ body: (Inventory) -> Result) -> Result {
        inventory.call(body)
    }

    /// Records a sighting for the inventory section.
    func recordSighting(_ sighting: InventorySighting) {
        if sighting.storeId == nil {
            recordUnstoredSighting(name: sighting.name, context: sighting.context) { sighting }
        } else {
            sightings.insert(sighting)
        }
    }

    /// Records the sighting of a key without a store called `name`, made by `sighting` only
    /// when it is listed: past the limit a new name is counted, and a prefs export has an
    /// unknown key in every entry (its sighting's classes an array, its strings retained).
    func recordUnstoredSighting(name: String, context: ScanContext, _ sighting: () -> InventorySighting) {
        let nameHash = WordHash.hash(name)
        guard sightings.count >= ArtifactScan.listedKeysLimit else {
            unstoredNameHashes.insert(nameHash)
            sightings.insert(sighting())
            return
        }
        // Past the limit only a sighting listed already is recorded, as the same again.
        if !unstoredNameHashes.contains(nameHash) || !sightings.contains(sighting()) {
            unlistedKeys += 1
            unlistedContext = context
        }
    }

    /// Counts keys without a store that were not even collected (see `unlistedKeys`).
    func countUnlistedKeys(_ count: Int, context: ScanContext) {
        guard count > 0 else { return }
        unlistedKeys += count
        unlistedContext = context
    }

    /// The inventory section's sightings of this input, with one line for the keys not listed.
    var inventorySightings: [InventorySighting] {
        var all = Array(sightings)
        if unlistedKeys > 0 {
            all.append(InventorySighting(
                storeId: nil, name: "\(unlistedKeys) further keys without a store", classes: [.unsupported],
                context: unlistedContext, verdict: .note, artifact: artifact,
                note: "more than \(ArtifactScan.listedKeysLimit) in one input: counted, not listed"))
        }
        return all
    }

    /// What the scan knows about a key name (cached per key).
    func keyFacts(_ key: UnsafeBufferPointer<UInt8>) -> KeyFacts {
        switch keyCache.lookUp(key) {
        case .found(let facts): return facts
        case .missed(let miss):
            return keyCache.learn(key, judgeKey(key), at: miss)
        }
    }

    /// The text of a key that `keyFacts` returned `facts` for: the cache's, or decoded again for
    /// a key it did not keep.
    func keyText(_ key: UnsafeBufferPointer<UInt8>, facts: KeyFacts) -> String {
        keyCache.text(of: facts) ?? JSONString.decode(key, escaped: false)
    }

    /// A key name judged afresh, not through the cache: for a name met once, such as a
    /// preference's (unique in its file), which would only fill the cache and be judged again
    /// there once it is full.
    func judgeKey(_ key: UnsafeBufferPointer<UInt8>) -> KeyJudgement {
        // A prefs key carried in JSON (a SharedPreferences dump) names its store too.
        let isFlutterKey = key.hasBytePrefix(ArtifactScan.flutterPrefix)
        let field = isFlutterKey ? UnsafeBufferPointer(rebasing: key[ArtifactScan.flutterPrefix.count...]) : key
        let (store, judgedByName) = inventory.call { inventory in
            let store = inventory.store(jsonField: field)
            // A known store whose name merely looks sensitive is classified by the inventory,
            // not judged by the name rules.
            return (store, store.map { inventory.stores[$0].isSensitive } ?? true)
        }
        let (matchesPattern, contextRules) = keyPatternFacts(key)
        let facts = KeyFacts(
            storeIndex: store.map { Int32($0) } ?? -1, shape: ShapeKeys.flag(of: key), isAppSensitive: AppSensitiveName.matches(key),
            isPrefsKey: isFlutterKey || key.hasBytePrefix(ArtifactScan.secureStoragePrefix),
            matchesPattern: matchesPattern, contextRules: contextRules, pairRole: NameValueRole(key: key))
        return KeyJudgement(facts: facts, name: judgedByName ? names.call { $0.match(key) } : nil)
    }

    /// `judgeKey` of a name held in a string.
    func judgeKey(_ key: String) -> KeyJudgement {
        var key = key
        return key.withUTF8 { judgeKey($0) }
    }

    private static let flutterPrefix = Array(FlutterPrefsEncoding.sharedPreferencesPrefix.utf8)
    private static let secureStoragePrefix = Array(FlutterPrefsEncoding.secureStoragePrefix.utf8)

    /// Whether a pattern rule matches `key` (a limit reached counts as a match: the scan where
    /// the key occurs then reports it), and the context rules with a keyword in it.
    private func keyPatternFacts(_ key: UnsafeBufferPointer<UInt8>) -> (matchesPattern: Bool, contextRules: ContextMask) {
        patterns.call { patterns in
            var found = false
            do {
                let context = try patterns.scanKey(UnsafeRawBufferPointer(key), matcher: matcher, scratch: &patternScratch) { _ in found = true }
                return (found, context)
            } catch {
                return (true, patterns.contextMask(of: UnsafeRawBufferPointer(key)))
            }
        }
    }

    /// The name rule a key matches, if any.
    func nameMatch(_ key: UnsafeBufferPointer<UInt8>) -> NameMatch? {
        nameMatch(of: keyFacts(key), key: key)
    }

    /// The name rule `name` matches, if any (its UTF-8 read in place when the string is native).
    func nameMatch(_ name: String) -> NameMatch? {
        name.utf8.withContiguousStorageIfAvailable { nameMatch($0) } ?? Array(name.utf8).withUnsafeBufferPointer { nameMatch($0) }
    }

    /// The name rule of facts `keyFacts` returned for `key` (matched again for a key too long
    /// for the cache, or when it is full).
    func nameMatch(of facts: KeyFacts, key: UnsafeBufferPointer<UInt8>) -> NameMatch? {
        KeyFactsCache.hasUncachedName(facts) ? names.call { $0.match(key) } : keyCache.name(of: facts)
    }

    /// A visitor for a layer's JSON text: one a layer before read in full, else a new one. A new
    /// visitor per layer cost its allocations, their release and its stacks' growth: a HAR's
    /// body is one layer, 1.4 % of a HAR scan's instructions.
    func takeLayerVisitor(for frame: LayerFrame) -> JSONScanVisitor {
        guard var visitor = spareLayerVisitorsBox.value.popLast() else {
            layerVisitorsMade += 1
            return JSONScanVisitor(scan: self, layer: frame)
        }
        visitor.retarget(to: frame)
        return visitor
    }

    /// A visitor that read its text in full, and so is as it began, for the next layer to take.
    /// One that broke off is dropped: it is inside its text. Taken, not copied: a copy retained
    /// and released each of its references, some 1,000 instructions a layer.
    func keepLayerVisitor(_ visitor: consuming JSONScanVisitor) {
        if options.reusesLayerVisitors { spareLayerVisitorsBox.value.append(visitor) }
    }

    /// Drops the spare layer visitors, which hold the scan, when the scan is done.
    func dropLayerVisitors() {
        spareLayerVisitorsBox.value.removeAll()
    }

    /// The position of a byte offset of the input.
    func position(of offset: Int) -> SourcePosition {
        window.position(of: offset)
    }

    /// The window's deferred positions (`ByteWindow.deferPosition(of:)`), through the scan
    /// that holds the window: a call on `scan.window` from a draft retained the window around
    /// it, some 2 M instructions of the 4 MB NDJSON input.
    func deferPosition(of offset: Int) -> Int { window.deferPosition(of: offset) }
    func deferredPosition(_ ticket: Int) -> SourcePosition { window.deferredPosition(ticket) }
    var deferredCount: Int { window.deferredCount }
    func releaseDeferred(from ticket: Int) { window.releaseDeferred(from: ticket) }
    /// The window's pin (`ByteWindow.pin(at:)`), through the scan, for a capture's fields,
    /// bodies and exchanges: `scan.window.pin` retained and released the window, twice a HAR
    /// field.
    func pinWindow(at offset: Int) { window.pin(at: offset) }
    func unpinWindow() { window.unpin() }

    func fail(_ kind: InputError.Kind, at offset: Int?, _ reason: String) {
        errorsBox.value.append(InputError(kind: kind, artifact: artifact, position: offset.map { position(of: $0) }, reason: reason))
    }

    var errorCount: Int { errors.count }

    /// Stops an input-level reader when the hits waiting for the end of the document exceed
    /// `options.maxDocumentHits`. Inlined: the readers ask at every key and value, and the call
    /// cost about 1 % of an NDJSON scan's instructions.
    @inline(__always)
    func checkDocumentHits(at offset: Int) throws(DocumentLimit) {
        if hitCount > options.maxDocumentHits { throw DocumentLimit.hits(offset: offset, limit: options.maxDocumentHits) }
    }

    /// The hits waiting for the end of the document, of either kind.
    var hitCount: Int { pending.count + quietNameHits.count }

    /// Where the hits recorded so far end, to forget the ones after it (`rollBackHits`).
    struct HitMark {
        fileprivate let pending: Int
        fileprivate let quiet: Int
    }

    var hitMark: HitMark { HitMark(pending: pending.count, quiet: quietNameHits.count) }

    /// Forgets the hits recorded after `mark` (a layer that turned out not to be one).
    func rollBackHits(to mark: HitMark) {
        pending.truncate(to: mark.pending)
        quietNameHitsBox.value.truncate(to: mark.quiet)
    }

    /// Drops errors recorded after `count` (a layer that turned out not to be one).
    func rollBackErrors(to count: Int) {
        errorsBox.value.truncate(to: count)
    }

    /// Runs the pattern rules over `value` (of `kind`, when its carrier declares one) and records
    /// a hit for each match. `locate` is asked only when there is a hit, so that clean values
    /// cost no path or key strings. `context`: the context rules its name or carrier speaks for
    /// (`PatternEngine.contextMask(of:)`).
    func scanPatterns(_ value: UnsafeRawBufferPointer, offset: Int, kind: TextKind? = nil, context: ContextMask = 0,
                      locate: () -> HitLocation) -> Int {
        // Made at the first hit: an empty array retains and releases its shared storage, for
        // every value scanned.
        var hits: [PatternHit]?
        let limit: PatternLimitError? = patterns.call { patterns in
            do throws(PatternLimitError) {
                try patterns.scan(value, kind: kind, context: context, matcher: matcher, scratch: &patternScratch) {
                    if hits == nil { hits = [$0] } else { hits!.append($0) }
                }
            } catch {
                return error
            }
            return nil
        }
        if let limit {
            let rule = rules.patterns.rules[limit.ruleIndex]
            fail(.limit, at: offset, "rule '\(rule.id)': \(limit.error.message)")
        }
        guard let hits else { return 0 }
        let location = locate()
        let position = position(of: offset)
        for hit in hits {
            let rule = rules.patterns.rules[hit.ruleIndex]
            let secret = UnsafeRawBufferPointer(rebasing: value[hit.secret])
            pending.append(PendingHit(
                detail: .pattern(ruleIndex: hit.ruleIndex, confidence: hit.confidence,
                                 preview: Redaction.preview(secret, publicPrefix: rule.previewPrefixLength)),
                location: location, position: position, secretHash: PendingHit.secretHash(of: secret),
                valueDigest: options.valueDigester?.digest(secret)))
        }
        return hits.count
    }

    /// A string value found under a name (an object key, a header, a query parameter, a prefs
    /// key): the layer decoders open it, else the pattern rules scan it; then the name rule it
    /// matches, if any, judges the value. `locate` is asked only when something is found.
    /// `carriedByProtocol`: the value is a header, a cookie or another field of the protocol,
    /// where a session id of any shape is a live credential. `context`: the context rules whose
    /// keyword the name (or the request's host) holds.
    /// `recordQuiet`, when it records a quiet name hit (the value no secret) at the offset it is
    /// given by the parts of its location and says so, spares making the location
    /// (`recordQuietNameHit`). Returns whether the value was JSON text, read as a layer in its
    /// place (judged by what it holds).
    @discardableResult
    func scanNamedString(_ value: UnsafeRawBufferPointer, name: NameMatch?, at offset: Int, depth: Int, excluding excluded: UInt16 = 0,
                         kind: TextKind? = nil, context: ContextMask = 0, carriedByProtocol: Bool = false,
                         recordQuiet: (ArtifactScan, NameMatch, String, Int) -> Bool = { _, _, _, _ in false },
                         locate: () -> HitLocation) -> Bool {
        pkce.observe(value)
        // The location, made at most once and only when something is found. In a local
        // `HitLocation?` it was destroyed at every value, found or not, through the type's
        // value witness: some 60 instructions a string value.
        return withUnsafeTemporaryAllocation(of: HitLocation.self, capacity: 1) { slot -> Bool in
            let slot = slot.baseAddress!
            var located = false
            defer { if located { slot.deinitialize(count: 1) } }
            let hitsBefore = hitCount
            var replaced = false
            let quiet = options.remembersQuietValues
                ? quietValues.lookUp(value, QuietValues.Settings(context: context, excluded: excluded, depth: depth, kind: kind)) : nil
            if quiet?.isRemembered != true {
                let errorsBefore = errorCount
                let layers = openLayers(value, at: offset, depth: depth, excluding: excluded, name: name, context: context) {
                    Self.location(in: slot, located: &located, locate)
                }
                replaced = layers.replacedValue
                if !replaced {
                    _ = scanPatterns(value, offset: offset, kind: kind, context: context) { Self.location(in: slot, located: &located, locate) }
                }
                if let quiet, !layers.any && hitCount == hitsBefore && errorCount == errorsBefore { quietValues.remember(value, quiet) }
            }
            // A hit in the value (a pattern on it, anything in a layer of it) says more than the
            // name, whose hit `finishDocument` would drop: it is not made.
            guard let name, hitCount == hitsBefore else { return replaced }
            let (credible, description) = nameVerdict(on: value, name: name, isJSONText: replaced, carriedByProtocol: carriedByProtocol)
            if !credible && !located && recordQuiet(self, name, description, offset) { return replaced }
            // The location moved out of its slot, its last use: a copy retained and released each of
            // its references (a document of sensitive names has a name hit at every value).
            Self.makeLocation(in: slot, located: &located, locate)
            located = false
            recordNameHit(name, credible: credible, valueDescription: description, at: offset, location: slot.move(), value: value)
            return replaced
        }
    }

    /// How the name rule `name` judges a string value that had no hits of its own: whether it
    /// is credibly a secret, and how its hit describes it. JSON text under the name is judged
    /// like an object: by what it holds.
    func nameVerdict(on value: UnsafeRawBufferPointer, name: NameMatch, isJSONText: Bool, carriedByProtocol: Bool) -> (credible: Bool, description: String) {
        let shape = rules.nameRules[name.ruleIndex].valueShape.carried(byProtocol: carriedByProtocol)
        // Fewer bytes than the shortest credible value: decided without a look at them.
        let credible = !isJSONText && value.count >= ValueCredibility.minimumLength
            && ValueCredibility.isCredible(value.assumingMemoryBound(to: UInt8.self), keyWords: name.keyWords, shape: shape)
        let description = isJSONText ? "JSON text" : value.isEmpty ? "an empty string" : Redaction.describeValue(length: Redaction.characterCount(value))
        return (credible, description)
    }

    /// The location in `slot`, made by `locate` the first time it is asked for. A function of
    /// its own, not one local to the caller: a local function capturing `located` would have it
    /// checked for overlapping access at every call.
    @inline(__always)
    private static func location(in slot: UnsafeMutablePointer<HitLocation>, located: inout Bool, _ locate: () -> HitLocation) -> HitLocation {
        makeLocation(in: slot, located: &located, locate)
        return slot.pointee
    }

    /// Makes the location in `slot` with `locate`, unless it is made already.
    @inline(__always)
    private static func makeLocation(in slot: UnsafeMutablePointer<HitLocation>, located: inout Bool, _ locate: () -> HitLocation) {
        if !located {
            slot.initialize(to: locate())
            located = true
        }
    }

    /// Records that a key or prefs entry belongs to an inventory store; returns the hit's handle,
    /// for what its value turns out to hold (`noteStoreValue`) and where it begins (`moveHit`).
    @discardableResult
    func recordStore(_ store: Int, location: HitLocation, position: SourcePosition) -> Int {
        pending.append(PendingHit(detail: .inventory(store: store), location: location, position: position))
        return pending.count - 1
    }

    /// Whether the store of the inventory hit `hit` is sensitive (credentials, recovery material).
    func storeIsSensitive(_ hit: Int) -> Bool {
        guard case .inventory(let store) = pending[hit].detail else { return false }
        return rules.inventory.stores[store].isSensitive
    }

    /// Records whether the value of the store hit `hit` holds nothing a secret could be.
    func noteStoreValue(_ hit: Int, holdsNothing: Bool, isSummary: Bool = false) {
        pending[hit].storeValueHoldsNothing = holdsNothing
        pending[hit].storeValueIsSummary = isSummary
    }

    /// Moves a hit to where its value begins.
    func moveHit(_ hit: Int, to position: SourcePosition) {
        pending[hit].position = position
    }

    /// Records a violation of the data contract.
    func recordContractViolation(ruleId: String, message: String, location: HitLocation, position: SourcePosition) {
        pending.append(PendingHit(detail: .contract(ruleId: ruleId, message: message), location: location, position: position))
    }

    /// Records a quiet name hit (the value no secret) at the current value of a JSON text, by the
    /// parts of its location (`JSONPathTracker.appendQuietHit`).
    func recordQuietNameHit<Notes>(_ match: NameMatch, valueDescription: String, at offset: Int, path: JSONPathTracker<Notes>) {
        path.appendQuietHit(to: &quietNameHitsBox.value, ruleIndex: match.ruleIndex, describesMetadata: match.describesMetadata,
                            valueDescription: valueDescription, position: position(of: offset))
    }

    /// Records that a name rule matched the name of a value (given when it is a string, so that
    /// a PKCE verifier can be paired with its challenge).
    func recordNameHit(_ match: NameMatch, credible: Bool, valueDescription: String, at offset: Int, location: HitLocation,
                       value: UnsafeRawBufferPointer? = nil) {
        guard credible else {
            return quietNameHitsBox.value.append(ruleIndex: match.ruleIndex, describesMetadata: match.describesMetadata,
                                        valueDescription: valueDescription, location: location, position: position(of: offset))
        }
        var hit = PendingHit(
            detail: .name(ruleIndex: match.ruleIndex, credible: credible, describesMetadata: match.describesMetadata,
                          valueDescription: valueDescription),
            location: location, position: position(of: offset))
        if credible, let value {
            hit.secretHash = PendingHit.secretHash(of: value)
            hit.valueDigest = options.valueDigester?.digest(value)
            if rules.nameRules[match.ruleIndex].id == SpecialRule.pkceVerifier.rawValue { hit.pkceChallenge = PKCEPairing.challenge(of: value) }
        }
        pending.append(hit)
    }

    /// Records a finding. A transport finding is a warning at most: the app did nothing wrong,
    /// the capture holds a live credential (fail on it with `--fail-on warning`).
    func appendFinding(ruleId: String, ruleLevel: Level, family: Family, message: String, hit: PendingHit, path: String, context: ScanContext,
                        confidence: Confidence, preview: String, level: Level? = nil, inventoryClass: String? = nil) {
        let level = family == .transport ? min(level ?? ruleLevel, .warning) : level ?? ruleLevel
        // Made where it is kept: a local finding appended was copied, then destroyed.
        findingsBox.value.append(Finding(
            ruleId: ruleId, level: level, family: family, message: message, key: hit.location.key,
            context: context, inventoryClass: inventoryClass, artifact: artifact, position: hit.position,
            path: hit.location.path, pathText: path, confidence: confidence, preview: preview, fingerprint: "", valueDigest: hit.valueDigest))
        findingsBox.value[findingsBox.value.count - 1].secretHash = hit.secretHash
    }
}
