/// The state of scanning one input: positions, pending hits, container shapes, findings and
/// errors. Readers and layer visitors feed it; `finishDocument` turns hits into findings.
final class ArtifactScan {
    let artifact: String
    let rules: RulePack
    let matcher: RegexMatcher
    let options: ScanOptions
    let window: ByteWindow
    let layerDecoders = LayerDecoderSet(LayerDecoders.standard)
    /// The JSON visitors' cache of the innermost container's path (see `ContainerPlace`).
    let containerPlace = ContainerPlace()
    /// The path of the input's own layer: empty, or `!gzip` for a compressed input.
    var rootPath = LayeredPath()

    var patternScratch = PatternScratch()
    /// Code challenges seen anywhere in the input, for the verifiers found in it.
    var pkce = PKCEPairing()
    var keyScratch: [UInt8] = []
    let keyCache = KeyFactsCache()
    /// Hits waiting for the end of their document, but for the quiet name hits.
    var pending: [PendingHit] = []
    /// Name hits on values that are no secret, kept compact (see `QuietNameHits`).
    private(set) var quietNameHits = QuietNameHits()
    /// Facts about closed containers that hits inside them need, until the document ends.
    var facts: [Int: ContainerFacts] = [:]
    var nextContainerId = 0
    /// Keys that are themselves secrets: shown as `[REDACTED]` in paths and messages.
    var maskedKeys: Set<[UInt8]> = []
    private(set) var findings: [Finding] = []

    /// The findings, handed over: the scan keeps none.
    func takeFindings() -> [Finding] {
        defer { findings = [] }
        return findings
    }
    /// Stores of the inventory seen, for the report's inventory section, each distinct one once.
    private var sightings: Set<InventorySighting> = []
    /// Keys without a store (unknown keys, settings-snapshot keys) seen beyond the first
    /// `listedKeysLimit`: counted, not listed, so a hostile input cannot grow the report.
    private var unlistedKeys = 0
    private var unlistedContext = ScanContext.payload
    static let listedKeysLimit = 256
    private(set) var errors: [InputError] = []

    /// Name rules the scan applies by more than a key's name (nil when the pack lacks them): a
    /// `salt` is password-verifier material only beside its `iterations`; the `code` and `state`
    /// of an authorization response are judged by `name.authorization-response`.
    let passwordVerifierRule: Int?
    let authorizationResponseRule: Int?

    init(artifact: String, window: ByteWindow, rules: RulePack, matcher: RegexMatcher, options: ScanOptions) {
        self.artifact = artifact
        self.window = window
        self.rules = rules
        self.matcher = matcher
        self.options = options
        passwordVerifierRule = rules.nameRules.firstIndex { $0.id == SpecialRule.passwordVerifier.rawValue }
        authorizationResponseRule = rules.nameRules.firstIndex { $0.id == SpecialRule.authorizationResponse.rawValue }
    }

    /// Records a sighting for the inventory section.
    func recordSighting(_ sighting: InventorySighting) {
        if sighting.storeId == nil && sightings.count >= ArtifactScan.listedKeysLimit && !sightings.contains(sighting) {
            unlistedKeys += 1
            unlistedContext = sighting.context
        } else {
            sightings.insert(sighting)
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
        keyCache.facts(key) {
            // A prefs key carried in JSON (a SharedPreferences dump) names its store too.
            let isFlutterKey = key.hasBytePrefix(ArtifactScan.flutterPrefix)
            let field = isFlutterKey ? UnsafeBufferPointer(rebasing: key[ArtifactScan.flutterPrefix.count...]) : key
            let store = rules.inventory.store(jsonField: field)
            // A known store whose name merely looks sensitive is classified by the inventory,
            // not judged by the name rules.
            let judgedByName = store.map { rules.inventory.stores[$0].isSensitive } ?? true
            let facts = KeyFacts(
                storeIndex: store.map { Int32($0) } ?? -1, shape: ShapeKeys.flag(of: key), isAppSensitive: AppSensitiveName.matches(key),
                isPrefsKey: isFlutterKey || key.hasBytePrefix(ArtifactScan.secureStoragePrefix),
                matchesPattern: keyMatchesPattern(key))
            return (facts, judgedByName ? rules.names.match(key, scratch: &keyScratch) : nil)
        }
    }

    private static let flutterPrefix = Array("flutter.".utf8)
    private static let secureStoragePrefix = Array(FlutterPrefsEncoding.secureStoragePrefix.utf8)

    /// Whether a pattern rule matches `key` (a limit reached counts as a match: the scan where
    /// the key occurs then reports it).
    private func keyMatchesPattern(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count >= rules.patterns.minimumValueLength else { return false }
        var found = false
        do {
            try rules.patterns.scan(UnsafeRawBufferPointer(key), matcher: matcher, scratch: &patternScratch) { _ in found = true }
        } catch {
            return true
        }
        return found
    }

    /// The name rule a key matches, if any.
    func nameMatch(_ key: UnsafeBufferPointer<UInt8>) -> NameMatch? {
        nameMatch(of: keyFacts(key))
    }

    /// The name rule `name` matches, if any (its UTF-8 read in place when the string is native).
    func nameMatch(_ name: String) -> NameMatch? {
        name.utf8.withContiguousStorageIfAvailable { nameMatch($0) } ?? Array(name.utf8).withUnsafeBufferPointer { nameMatch($0) }
    }

    /// The name rule of facts `keyFacts` returned.
    func nameMatch(of facts: KeyFacts) -> NameMatch? {
        keyCache.name(of: facts)
    }

    /// The position of a byte offset of the input.
    func position(of offset: Int) -> SourcePosition {
        window.position(of: offset)
    }

    func fail(_ kind: InputError.Kind, at offset: Int?, _ reason: String) {
        errors.append(InputError(kind: kind, artifact: artifact, position: offset.map { position(of: $0) }, reason: reason))
    }

    var errorCount: Int { errors.count }

    /// Stops an input-level reader when the hits waiting for the end of the document exceed
    /// `options.maxDocumentHits`.
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
        pending.removeSubrange(mark.pending...)
        quietNameHits.truncate(to: mark.quiet)
    }

    /// Drops errors recorded after `count` (a layer that turned out not to be one).
    func rollBackErrors(to count: Int) {
        errors.removeSubrange(count...)
    }

    /// Runs the pattern rules over `value` and records a hit for each match. `locate` is asked
    /// only when there is a hit, so that clean values cost no path or key strings.
    func scanPatterns(_ value: UnsafeRawBufferPointer, offset: Int, locate: () -> HitLocation) -> Int {
        // Most values of a document are too short for any rule: decided before the engine is
        // called (and retained for the call).
        if value.count < rules.patterns.minimumValueLength { return 0 }
        var hits: [PatternHit] = []
        do {
            try rules.patterns.scan(value, matcher: matcher, scratch: &patternScratch) { hits.append($0) }
        } catch {
            let rule = rules.patterns.rules[error.ruleIndex]
            fail(.limit, at: offset, "rule '\(rule.id)': \(error.error.message)")
        }
        guard !hits.isEmpty else { return 0 }
        let location = locate()
        let position = position(of: offset)
        for hit in hits {
            let rule = rules.patterns.rules[hit.ruleIndex]
            let secret = UnsafeRawBufferPointer(rebasing: value[hit.secret])
            pending.append(PendingHit(
                detail: .pattern(ruleIndex: hit.ruleIndex, confidence: hit.confidence,
                                 preview: Redaction.preview(secret, publicPrefix: rule.previewPrefixLength)),
                location: location, position: position, secretHash: KeyFactsCache.hash(secret),
                valueDigest: options.valueDigester?.digest(secret)))
        }
        return hits.count
    }

    /// A string value found under a name (an object key, a header, a query parameter, a prefs
    /// key): the layer decoders open it, else the pattern rules scan it; then the name rule it
    /// matches, if any, judges the value. `locate` is asked only when something is found.
    func scanNamedString(_ value: UnsafeRawBufferPointer, name: NameMatch?, at offset: Int, depth: Int, excluding excluded: UInt16 = 0,
                         locate: () -> HitLocation) {
        pkce.observe(value)
        var known: HitLocation?
        let hitsBefore = hitCount
        let replaced = openLayers(value, at: offset, depth: depth, excluding: excluded) {
            if known == nil { known = locate() }
            return known!
        }
        if !replaced { _ = scanPatterns(value, offset: offset) { known ?? locate() } }
        // A hit in the value (a pattern on it, anything in a layer of it) says more than the
        // name, whose hit `finishDocument` would drop: it is not made.
        guard let name, hitCount == hitsBefore else { return }
        // JSON text under the name is judged like an object: by what it holds.
        let shape = rules.nameRules[name.ruleIndex].valueShape
        // Fewer bytes than the shortest credible value: decided without a look at them.
        let credible = !replaced && value.count >= ValueCredibility.minimumLength
            && ValueCredibility.isCredible(value.assumingMemoryBound(to: UInt8.self), keyWords: name.keyWords, shape: shape)
        let description = replaced ? "JSON text" : value.isEmpty ? "an empty string" : Redaction.describeValue(length: Redaction.characterCount(value))
        recordNameHit(name, credible: credible, valueDescription: description, at: offset, location: known ?? locate(), value: value)
    }

    /// Records that a name rule matched the name of a value (given when it is a string, so that
    /// a PKCE verifier can be paired with its challenge).
    func recordNameHit(_ match: NameMatch, credible: Bool, valueDescription: String, at offset: Int, location: HitLocation,
                       value: UnsafeRawBufferPointer? = nil) {
        guard credible else {
            return quietNameHits.append(ruleIndex: match.ruleIndex, describesMetadata: match.describesMetadata,
                                        valueDescription: valueDescription, location: location, position: position(of: offset))
        }
        var hit = PendingHit(
            detail: .name(ruleIndex: match.ruleIndex, credible: credible, describesMetadata: match.describesMetadata,
                          valueDescription: valueDescription),
            location: location, position: position(of: offset))
        if credible, let value {
            hit.secretHash = KeyFactsCache.hash(value)
            hit.valueDigest = options.valueDigester?.digest(value)
            if rules.nameRules[match.ruleIndex].id == SpecialRule.pkceVerifier.rawValue { hit.pkceChallenge = PKCEPairing.challenge(of: value) }
        }
        pending.append(hit)
    }

    /// Decides the context of every pending hit and turns the hits into findings.
    func finishDocument(defaultContext: ScanContext) {
        defer {
            pending.removeAll(keepingCapacity: true)
            quietNameHits.removeAll()
            facts.removeAll(keepingCapacity: true)
        }
        guard hitCount > 0 else { return }
        let duplicates = duplicateSecretHits()
        // The quiet name hits follow the others: hit `index` is `quietNameHits[index - quietStart]`
        // from `quietStart` on.
        let quietStart = pending.count
        // Paths are rendered only for the hits that need them: a document can hold millions of
        // name hits that nothing reports (placeholders under sensitive names outside sync).
        var paths: [String?] = []
        func path(_ index: Int) -> String {
            if paths.isEmpty { paths = [String?](repeating: nil, count: hitCount) }
            if let rendered = paths[index] { return rendered }
            // Read in place: a copy of the hit would retain all it holds.
            let rendered = index < quietStart ? pending.withUnsafeBufferPointer { $0[index].location.pathDescription }
                : quietNameHits.pathDescription(of: index - quietStart)
            paths[index] = rendered
            return rendered
        }
        // A sensitive store outside secure storage is reported by the inventory rule, which says
        // more than the name rule on the same value; in secure storage the name rule judges the
        // plaintext value. Outside sync, a store whose value a name rule judged empty or a
        // placeholder holds nothing to report.
        var pathsWithPatternHits = Set<String>()
        var placeholderPaths = Set<String>()
        var storesByPath: [String: Int] = [:]
        let hasStores = pending.contains { if case .inventory = $0.detail { true } else { false } }
        // By index: a `PendingHit` is large, and copying one retains what it holds.
        for index in pending.indices {
            switch pending[index].detail {
            case .inventory(let store):
                storesByPath[path(index)] = store
                if rules.inventory.stores[store].isSensitive && !pending[index].location.isSecureStorage { pathsWithPatternHits.insert(path(index)) }
            case .name(_, let credible, _, _) where !credible && hasStores:
                placeholderPaths.insert(path(index))
            default:
                break
            }
        }
        if hasStores {
            for index in quietStart..<hitCount { placeholderPaths.insert(path(index)) }
        }
        // A pattern hit in a value that a layer of the same value repeats (a JWT in a URL, and
        // again in its query parameter): keep the inner, more precise one.
        var innerPatternHits = Set<String>()
        var exactPatternPaths = Set<String>()
        // Only name and inventory hits ask where the pattern hits are.
        let asksForPatternPaths = hitCount > pending.count || pending.contains { !$0.isPattern }
        for index in pending.indices {
            guard case .pattern(let rule, _, _) = pending[index].detail else { continue }
            if asksForPatternPaths {
                pathsWithPatternHits.insert(path(index))
                exactPatternPaths.insert(path(index))
            }
            guard pending[index].location.containerPath.layers.count > 1 else { continue }
            var outer = pending[index].location.path
            while outer.layers.count > 1 {
                outer.layers.removeLast()
                innerPatternHits.insert("\(rule)\u{0}\(pending[index].position.byteOffset)\u{0}\(outer)")
            }
        }
        var sortedPaths: [String] = []
        /// A hit inside `prefix`: a member of the container there, or a layer of the value there.
        func hasHit(inside prefix: String) -> Bool {
            if sortedPaths.isEmpty { sortedPaths = (0..<hitCount).map(path).sorted() }
            var low = 0, high = sortedPaths.count
            while low < high {
                let mid = (low + high) / 2
                if sortedPaths[mid] <= prefix { low = mid + 1 } else { high = mid }
            }
            for path in sortedPaths[low...] {
                guard path.hasPrefix(prefix) else { return false }
                let next = path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: prefix.utf8.count)]
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "!") { return true }
            }
            return false
        }
        // The context of each place of the quiet hits, worked out once.
        var placeContexts = [ScanContext?](repeating: nil, count: quietNameHits.places.count)
        for index in 0..<hitCount where index >= duplicates.count || !duplicates[index] {
            let context: ScanContext
            let hit: PendingHit
            if index < quietStart {
                context = options.context ?? pending[index].location.readerContext ?? self.context(of: pending[index].location.ancestry)
                    ?? defaultContext
                // A name hit on a value that is no secret counts in sync data only: outside it,
                // the hit is dropped before it is copied.
                if context != .sync, case .name(_, let credible, let describesMetadata, _) = pending[index].detail,
                   !credible || describesMetadata {
                    continue
                }
                hit = applyingFacts(to: pending[index])
            } else {
                let placeIndex = quietNameHits.placeIndex(of: index - quietStart)
                if placeContexts[placeIndex] == nil {
                    let place = quietNameHits.places[placeIndex]
                    placeContexts[placeIndex] = options.context ?? place.readerContext ?? self.context(of: place.ancestry) ?? defaultContext
                }
                context = placeContexts[placeIndex]!
                // A quiet hit is a name hit on a value that is no secret: in sync data only.
                if context != .sync { continue }
                hit = applyingFacts(to: quietNameHits[index - quietStart])
            }
            switch hit.detail {
            case .pattern(let ruleIndex, let confidence, let preview):
                if !innerPatternHits.isEmpty && innerPatternHits.contains("\(ruleIndex)\u{0}\(hit.position.byteOffset)\u{0}\(path(index))") {
                    continue
                }
                let rule = rules.patterns.rules[ruleIndex]
                let under = hit.location.key.map { " under '\($0)'" } ?? ""
                let classes = storesByPath.isEmpty ? nil
                    : storesByPath[path(index)].map { rules.inventory.stores[$0].classes.map(\.rawValue).joined(separator: " / ") }
                append(rule: rule, family: hit.location.carrier ?? rule.family, message: "\(rule.title)\(under) (\(preview)).",
                       hit: hit, path: path(index), context: context, confidence: confidence, preview: preview, inventoryClass: classes)
            case .inventory(let storeIndex):
                let store = rules.inventory.stores[storeIndex]
                var verdict = rules.inventory.verdict(for: store, in: context)
                var note: String?
                if hit.location.isSecureStorage {
                    verdict = .allowed
                    note = "in secure storage, where it belongs"
                } else if store.isSensitive && context != .sync && placeholderPaths.contains(path(index))
                            && !exactPatternPaths.contains(path(index)) && !hasHit(inside: path(index)) {
                    verdict = min(verdict, .note)
                    note = "the value is empty or a placeholder"
                } else if !store.isSensitive && hit.location.key.map({ rules.names.match($0) != nil }) == true {
                    note = "its name looks sensitive; the inventory classifies it"
                } else if context == .prefs && store.livesInPlainPrefs && verdict < rules.inventory.verdict(for: store.classes, in: context) {
                    note = "kept in plain prefs by design"
                }
                recordSighting(InventorySighting(storeId: store.id, name: store.name, classes: store.classes, context: context,
                                                   verdict: verdict, artifact: artifact, note: note))
                // A secret rule on the same value reports it more precisely (with the store's class).
                guard verdict >= .warning, !exactPatternPaths.contains(path(index)) else { continue }
                let check: BuiltinCheck = store.isSensitive ? .sensitiveStore
                    : store.classes.contains(.unsupported) && context == .sync ? .unsupportedInSync : .localDataInSync
                guard let rule = rules.rule(id: check.rawValue) else { continue }
                let classes = store.classes.map(\.rawValue).joined(separator: " / ")
                let message = "\(store.name) (\(classes)) in \(context.rawValue) data: \(store.reason)"
                // A store that holds nothing a secret could be (a placeholder, a redacted copy)
                // is a contract violation, not a leaked secret.
                let holdsSecret = !hit.storeValueHoldsNothing || exactPatternPaths.contains(path(index)) || hasHit(inside: path(index))
                append(rule: rule, family: holdsSecret ? rule.family : .policy, message: message, hit: hit, path: path(index), context: context, confidence: .high,
                       preview: "", level: verdict == .warning ? .warning : nil, inventoryClass: classes)
            case .contract(let ruleId, let message):
                // The contract governs sync data; a rule the pack lacks cannot be reported.
                guard context == .sync, let rule = rules.rule(id: ruleId) else { continue }
                append(rule: rule, family: rule.family, message: message, hit: hit, path: path(index), context: context, confidence: .high, preview: "")
            case .name(let ruleIndex, let credible, let describesMetadata, let valueDescription):
                // A salt is password-verifier material with its iterations only (a login
                // challenge, a stored verifier), not a baseline's salt or a cache key's.
                if ruleIndex == passwordVerifierRule, !isKDFSalt(hit.location) { continue }
                // A credible value is a secret; any other is reported only in sync data, as a
                // fail-closed name.
                let isSecret = credible && !describesMetadata
                guard isSecret || (context == .sync && !hit.location.isProtocolField) else { continue }
                // A pattern rule on the same value says more than the name does; so does a hit
                // inside the value (a member of an object or array, or a decoded layer, such as
                // the password of `Authorization: Basic …`).
                if pathsWithPatternHits.contains(path(index)) || hasHit(inside: path(index)) { continue }
                let rule = rules.nameRules[ruleIndex]
                let key = hit.location.key ?? "?"
                if isSecret {
                    let paired = hit.pkceChallenge.map(pkce.isPaired) ?? false
                    let pairing = paired ? " It pairs with a code_challenge (S256) in this input: the capture holds a complete PKCE exchange." : ""
                    append(rule: rule, family: hit.location.carrier ?? rule.family,
                           message: "\(rule.title): \(valueDescription) under '\(key)'.\(pairing)",
                           hit: hit, path: path(index), context: context, confidence: paired ? .high : .medium, preview: valueDescription)
                } else {
                    append(rule: rule, family: .policy,
                           message: "Sensitive-looking name '\(key)' in sync data (here \(valueDescription)): \"names resembling token, secret, password, apiKey, or credential fail closed at the entity and setting boundaries\".",
                           hit: hit, path: path(index), context: context, confidence: .high, preview: valueDescription)
                }
            }
        }
    }

    /// Hits that repeat a secret another hit of the same value reports better: the same secret
    /// (by hash) at the same position, found by two rules or in two layers of one value (an
    /// environment assignment and its `!form` pair, `Bearer glsa_…` under the bearer and the
    /// Grafana rule). The kept hit has the best rule (a pattern over a name, a vendor rule over a
    /// generic one, then the earlier rule) and takes the innermost location of the group, whose
    /// path and key say most. Marked by index of `pending`; empty when there are none.
    private func duplicateSecretHits() -> [Bool] {
        // The hits with a secret, ordered by position and hash, then by index: a group is a run.
        var hashed: [(offset: Int, hash: UInt64, index: Int)] = []
        for index in pending.indices {
            if let hash = pending[index].secretHash { hashed.append((pending[index].position.byteOffset, hash, index)) }
        }
        guard hashed.count > 1 else { return [] }
        hashed.sort { a, b in a.offset != b.offset ? a.offset < b.offset : a.hash != b.hash ? a.hash < b.hash : a.index < b.index }
        var duplicates: [Bool] = []
        var start = 0
        while start < hashed.count {
            var end = start + 1
            while end < hashed.count && hashed[end].offset == hashed[start].offset && hashed[end].hash == hashed[start].hash { end += 1 }
            defer { start = end }
            guard end - start > 1 else { continue }
            let group = hashed[start..<end].lazy.map(\.index)
            func ruleRank(_ index: Int) -> (Int, Int, Int) {
                switch pending[index].detail {
                case .pattern(let rule, _, _): return (1, rules.patterns.rules[rule].isGeneric ? 0 : 1, -rule)
                default: return (0, 0, 0)
                }
            }
            func depth(_ index: Int) -> Int {
                pending.withUnsafeBufferPointer { hits in
                    let layers = hits[index].location.path.layers
                    return layers.count * 1000 + (layers.last?.tokens.count ?? 0)
                }
            }
            let best = group.max { ruleRank($0) < ruleRank($1) }!
            let innermost = group.max { depth($0) < depth($1) }!
            if depth(innermost) > depth(best) {
                pending[best].location.path = pending[innermost].location.path
                pending[best].location.key = pending[innermost].location.key
            }
            if duplicates.isEmpty { duplicates = [Bool](repeating: false, count: pending.count) }
            for index in group where index != best { duplicates[index] = true }
        }
        return duplicates
    }

    /// Whether a `name.password-verifier` hit stands: any name but a salt, and a salt in an
    /// object that holds its `iterations` too.
    private func isKDFSalt(_ location: HitLocation) -> Bool {
        guard let key = location.key, rules.names.match(key)?.matchedName == "salt" else { return true }
        return location.ancestry.last.flatMap { facts[$0]?.shape } == .kdfParameters
    }

    /// The context implied by what is known of a hit's ancestors, if any.
    private func context(of ancestry: [Int]) -> ScanContext? {
        var found: ScanContext?
        for id in ancestry {
            guard let facts = facts[id] else { continue }
            switch facts.shape {
            case .entityDocument?, .entityState?, .syncMessage?, .syncOperation?: return .sync
            case .backup?: found = found ?? .backup
            case .kdfParameters?, nil: break
            }
            if let context = facts.context { found = context }
        }
        return found
    }

    /// A hit with what its ancestors' facts add: a carrier, the protocol-field mark, and the name
    /// of a HAR header for a hit in its value.
    private func applyingFacts(to hit: PendingHit) -> PendingHit {
        var hit = hit
        for id in hit.location.ancestry {
            guard let facts = facts[id] else { continue }
            if let carrier = facts.carrier, hit.location.carrier == nil { hit.location.carrier = carrier }
            if facts.isProtocolField { hit.location.isProtocolField = true }
        }
        if let last = hit.location.ancestry.last, let name = facts[last]?.valueName, hit.location.key == "value" {
            hit.location.key = name
        }
        return hit
    }

    /// Records a finding. A transport finding is a warning at most: the app did nothing wrong,
    /// the capture holds a live credential (fail on it with `--fail-on warning`).
    private func append(rule: Rule, family: Family, message: String, hit: PendingHit, path: String, context: ScanContext,
                        confidence: Confidence, preview: String, level: Level? = nil, inventoryClass: String? = nil) {
        let level = family == .transport ? min(level ?? rule.level, .warning) : level ?? rule.level
        findings.append(Finding(
            ruleId: rule.id, level: level, family: family, message: message, key: hit.location.key,
            context: context, inventoryClass: inventoryClass, artifact: artifact, position: hit.position,
            path: hit.location.path, pathText: path, confidence: confidence, preview: preview, fingerprint: "", valueDigest: hit.valueDigest))
    }
}
