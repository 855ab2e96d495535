import AuditBytes
import AuditCore
import AuditDetection

/// Which hits of a document become findings: the precedence rules, in the order they apply.
///
/// 1. **One secret, one finding.** Hits of the same secret at the same position (two rules, or
///    two layers of one value) are one finding: the best rule's, at the innermost location
///    (`duplicateSecretHits`). In a request (a HAR entry, an HTTP exchange) the same secret at
///    several places (a header and `cookies[]`, a query and `queryString[]`, a body and its
///    `params`) is one finding too, the others its related locations (`mergeRepeatedSecrets`).
/// 2. **A name on no secret counts in sync data only.** A name hit on a value that is no
///    credential (empty, a placeholder, metadata) is a fail-closed policy finding in sync data
///    and nothing elsewhere (`namedNoSecretCounts`).
/// 3. **The innermost layer wins.** A pattern hit that a layer of the same value repeats (a JWT
///    in a URL and in its query parameter) is reported in the layer (`reportPattern`).
/// 4. **A store in secure storage belongs there**; a sensitive store outside sync holding only a
///    placeholder is a note; a store is reported by the inventory rule unless a pattern on the
///    same value says more, and as policy when it holds nothing a secret could be
///    (`storeVerdict`, `reportStore`).
/// 5. **The contract governs sync data only** (`reportContract`).
/// 6. **A salt is verifier material beside its iterations only** (`isKDFSalt`).
/// 7. **A value hit beats a name hit.** A pattern on the value, a sensitive store outside secure
///    storage on it, or any hit inside it (a member, a decoded layer) says more than the name
///    (`nameGivesWay`).
///
/// `HitPrecedenceTests` has a table for each.
extension ArtifactScan {
    /// Decides the context of every pending hit and turns the hits into findings. A request
    /// (`isRequest`: a HAR entry, an HTTP exchange) reports each secret once.
    func finishDocument(defaultContext: ScanContext, isRequest: Bool = false) {
        defer {
            pending.removeAll(keepingCapacity: true)
            clearQuietNameHits()
            facts.removeAll(keepingCapacity: true)
            // The document's drafts are closed, or were dropped where it broke off.
            releaseDeferred(from: 0)
        }
        guard hitCount > 0 else { return }
        let firstFinding = findings.count
        defer { if isRequest { mergeRepeatedSecrets(from: firstFinding) } }
        var hits = DocumentHits(scan: self, duplicates: duplicateSecretHits())
        // The context of each place of the quiet hits, worked out once.
        var placeContexts = [ScanContext?](filling: nil, count: quietNameHits.places.count)
        for index in 0..<hits.count where !hits.isDuplicate(index) {
            guard let (hit, context) = resolved(index, hits: hits, placeContexts: &placeContexts, defaultContext: defaultContext) else { continue }
            switch hit.detail {
            case .pattern(let ruleIndex, let confidence, let preview):
                reportPattern(hit, ruleIndex: ruleIndex, confidence: confidence, preview: preview, index: index, context: context, hits: &hits)
            case .inventory(let storeIndex):
                reportStore(hit, storeIndex: storeIndex, index: index, context: context, hits: &hits)
            case .contract(let ruleId, let message):
                reportContract(hit, ruleId: ruleId, message: message, index: index, context: context, hits: &hits)
            case .name(let ruleIndex, let credible, let describesMetadata, let valueDescription):
                reportName(hit, ruleIndex: ruleIndex, isSecret: credible && !describesMetadata, valueDescription: valueDescription,
                           index: index, context: context, hits: &hits)
            }
        }
    }

    /// Hit `index` with its ancestors' facts applied, and its context; nil when rule 2 drops it
    /// (decided before the hit is copied).
    private func resolved(_ index: Int, hits: DocumentHits, placeContexts: inout [ScanContext?],
                          defaultContext: ScanContext) -> (PendingHit, ScanContext)? {
        if index < hits.quietStart {
            let location = pending[index].location
            let context = options.context ?? location.readerContext ?? self.context(of: location.ancestry) ?? defaultContext
            if case .name(_, let credible, let describesMetadata, _) = pending[index].detail,
               !namedNoSecretCounts(isSecret: credible && !describesMetadata, in: context) {
                return nil
            }
            return (applyingFacts(to: pending[index]), context)
        }
        let placeIndex = quietNameHits.placeIndex(of: index - hits.quietStart)
        if placeContexts[placeIndex] == nil {
            let place = quietNameHits.places[placeIndex]
            placeContexts[placeIndex] = options.context ?? place.readerContext ?? self.context(of: place.ancestry) ?? defaultContext
        }
        let context = placeContexts[placeIndex]!
        // A quiet hit is a name hit on a value that is no secret.
        guard namedNoSecretCounts(isSecret: false, in: context) else { return nil }
        return (applyingFacts(to: quietNameHits[index - hits.quietStart]), context)
    }

    /// Rule 2: a name hit stands outside sync data only when its value is a secret.
    func namedNoSecretCounts(isSecret: Bool, in context: ScanContext) -> Bool {
        isSecret || context == .sync
    }

    /// A pattern rule's hit; rule 3 drops it when a layer inside the value repeats it.
    private func reportPattern(_ hit: PendingHit, ruleIndex: Int, confidence: Confidence, preview: String, index: Int,
                               context: ScanContext, hits: inout DocumentHits) {
        let path = hits.path(index)
        if hits.isRepeatedInALayer(rule: ruleIndex, offset: hit.position.byteOffset, path: path) { return }
        // The rule's fields read where it lies: a copy of the rule retained and released all of it.
        let patternRules = rules.patterns.rules
        appendFinding(ruleId: patternRules[ruleIndex].id, ruleLevel: patternRules[ruleIndex].level,
                      family: hit.location.carrier ?? patternRules[ruleIndex].family,
                      message: Self.patternMessage(title: patternRules[ruleIndex].title, key: hit.location.key, preview: preview),
                      hit: hit, path: path, context: context, confidence: confidence, preview: preview,
                      inventoryClass: hits.storeClasses(at: path))
    }

    /// A pattern hit's message, `title under 'key' (preview).`, written into a string of its
    /// size: interpolated, it took six appends and a string for the key's part, some 3,000
    /// instructions a finding.
    static func patternMessage(title: String, key: String?, preview: String) -> String {
        let hasKey = key != nil
        var (title, key, preview) = (title, key ?? "", preview)
        return title.withUTF8 { title in
            key.withUTF8 { key in
                preview.withUTF8 { preview in
                    let under: StaticString = " under '", close: StaticString = "' (", plain: StaticString = " (", end: StaticString = ")."
                    let count = title.count + (hasKey ? under.utf8CodeUnitCount + key.count + close.utf8CodeUnitCount : plain.utf8CodeUnitCount)
                        + preview.count + end.utf8CodeUnitCount
                    return String(unsafeUninitializedCapacity: count) { out in
                        var at = 0
                        func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                            guard let start = bytes.baseAddress else { return }
                            (out.baseAddress! + at).initialize(from: start, count: bytes.count)
                            at += bytes.count
                        }
                        func put(_ text: StaticString) { put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
                        put(title)
                        if hasKey {
                            put(under)
                            put(key)
                            put(close)
                        } else {
                            put(plain)
                        }
                        put(preview)
                        put(end)
                        return at
                    }
                }
            }
        }
    }

    /// Rule 4: an inventory store's verdict where it was seen, and why when the context's own
    /// verdict does not apply.
    private func storeVerdict(_ store: Store, hit: PendingHit, path: String, context: ScanContext,
                              hits: inout DocumentHits) -> (verdict: Verdict, note: String?) {
        let verdict = rules.inventory.verdict(for: store, in: context)
        if hit.location.isSecureStorage {
            return (.allowed, "in secure storage, where it belongs")
        }
        if store.isSensitive && context != .sync && context != .prefs && hit.storeValueIsSummary {
            return (min(verdict, .note), "a count, flag or date about the store, not the store itself")
        }
        if store.isSensitive && context != .sync && hits.isPlaceholder(path) && !hits.patternMatched(path) && !hits.hasHit(inside: path) {
            return (min(verdict, .note), "the value is empty or a placeholder")
        }
        if !store.isSensitive && hit.location.key.map({ rules.names.match($0) != nil }) == true {
            return (verdict, "its name looks sensitive; the inventory classifies it")
        }
        if context == .prefs && store.livesInPlainPrefs && verdict < rules.inventory.verdict(for: store.classes, in: context) {
            return (verdict, "kept in plain prefs by design")
        }
        return (verdict, nil)
    }

    /// An inventory store: a sighting always; a finding when its verdict is a warning or worse
    /// and no pattern on the same value reports it more precisely (rule 4).
    private func reportStore(_ hit: PendingHit, storeIndex: Int, index: Int, context: ScanContext, hits: inout DocumentHits) {
        let store = rules.inventory.stores[storeIndex]
        let path = hits.path(index)
        let (verdict, note) = storeVerdict(store, hit: hit, path: path, context: context, hits: &hits)
        recordSighting(InventorySighting(storeId: store.id, name: store.name, classes: store.classes, context: context,
                                         verdict: verdict, artifact: artifact, note: note))
        guard verdict >= .warning, !hits.patternMatched(path) else { return }
        let check: BuiltinCheck = store.isSensitive ? .sensitiveStore
            : store.classes.contains(.unsupported) && context == .sync ? .unsupportedInSync : .localDataInSync
        guard let rule = rules.rule(id: check.rawValue) else { return }
        let classes = store.classes.map(\.rawValue).joined(separator: " / ")
        let message = "\(store.name) (\(classes)) in \(context.rawValue) data: \(store.reason)"
        // A store that holds nothing a secret could be (a placeholder, a redacted copy) is a
        // contract violation, not a leaked secret.
        let holdsSecret = !hit.storeValueHoldsNothing || hits.patternMatched(path) || hits.hasHit(inside: path)
        appendFinding(ruleId: rule.id, ruleLevel: rule.level, family: holdsSecret ? rule.family : .policy, message: message, hit: hit, path: path, context: context,
                      confidence: .high, preview: "", level: verdict == .warning ? .warning : nil, inventoryClass: classes)
    }

    /// Rule 5: a contract check's violation, in sync data; a rule the pack lacks cannot be reported.
    private func reportContract(_ hit: PendingHit, ruleId: String, message: String, index: Int, context: ScanContext,
                                hits: inout DocumentHits) {
        guard context == .sync, let rule = rules.rule(id: ruleId) else { return }
        appendFinding(ruleId: rule.id, ruleLevel: rule.level, family: rule.family, message: message, hit: hit, path: hits.path(index), context: context,
                      confidence: .high, preview: "")
    }

    /// Rule 7: whether a name hit gives way to what else was found on or in its value.
    private func nameGivesWay(at path: String, hits: inout DocumentHits) -> Bool {
        hits.isReportedBetter(path) || hits.hasHit(inside: path)
    }

    /// A name rule's hit: a secret when its value is credible, else a fail-closed policy finding
    /// in sync data, outside protocol fields (rules 6 and 7 first).
    private func reportName(_ hit: PendingHit, ruleIndex: Int, isSecret: Bool, valueDescription: String, index: Int,
                            context: ScanContext, hits: inout DocumentHits) {
        if ruleIndex == passwordVerifierRule, !isKDFSalt(hit.location) { return }
        guard isSecret || (context == .sync && !hit.location.isProtocolField) else { return }
        let path = hits.path(index)
        if nameGivesWay(at: path, hits: &hits) { return }
        let rule = rules.nameRules[ruleIndex]
        let key = hit.location.key ?? "?"
        if isSecret {
            let paired = hit.pkceChallenge.map(pkce.isPaired) ?? false
            if !paired, share != nil, let challenge = hit.pkceChallenge { unpairedChallenges.append(challenge) }
            let pairing = paired ? " It pairs with a code_challenge (S256) in this input: the capture holds a complete PKCE exchange." : ""
            appendFinding(ruleId: rule.id, ruleLevel: rule.level, family: hit.location.carrier ?? rule.family, message: "\(rule.title): \(valueDescription) under '\(key)'.\(pairing)",
                          hit: hit, path: path, context: context, confidence: paired ? .high : .medium, preview: valueDescription)
        } else {
            appendFinding(ruleId: rule.id, ruleLevel: rule.level, family: .policy,
                          message: "Sensitive-looking name '\(key)' in sync data (here \(valueDescription)): \"names resembling token, secret, password, apiKey, or credential fail closed at the entity and setting boundaries\".",
                          hit: hit, path: path, context: context, confidence: .high, preview: valueDescription)
        }
    }

    /// Hits that repeat a secret another hit of the same value reports better: the same secret
    /// (by hash) at the same position, found by two rules or in two layers of one value (an
    /// environment assignment and its `!form` pair, `Bearer glsa_…` under the bearer and the
    /// Grafana rule). The kept hit has the best rule (a pattern over a name, a vendor rule over a
    /// context rule over a generic one, the surer of two generic ones, then the earlier rule) and takes the innermost location of the group, whose
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
            func ruleRank(_ index: Int) -> (Int, Int, Int, Int) {
                switch pending[index].detail {
                case .pattern(let index, _, _):
                    // A context rule names the provider a generic shape belongs to: between the two.
                    // Among generic rules, the one surer of its shape (a key id beside its secret
                    // over any secret-named assignment).
                    let rule = rules.patterns.rules[index]
                    let sureness = Confidence.allCases.firstIndex(of: rule.confidence ?? .high)!
                    return (1, !rule.isGeneric ? 2 : rule.keywordWindow != nil ? 1 : 0, sureness, -index)
                default: return (0, 0, 0, 0)
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
            if duplicates.isEmpty { duplicates = [Bool](filling: false, count: pending.count) }
            for index in group where index != best { duplicates[index] = true }
        }
        return duplicates
    }

    /// Rule 1 in a request: the findings from `start` on that hold the same secret are one,
    /// the most severe (then a pattern's over a name's, then the first), with the other places
    /// as its related locations. Never lowers a level: a secret found as an error somewhere
    /// stays an error.
    private static func inOrder(_ a: RelatedLocation, _ b: RelatedLocation) -> Bool {
        if a.position.byteOffset != b.position.byteOffset { return a.position.byteOffset < b.position.byteOffset }
        return a.pathText < b.pathText
    }

    func mergeRepeatedSecrets(from start: Int) {
        // In place: the findings before `start` are other requests', never copied.
        let end = findingsBox.value.count
        guard end > start else { return }
        for index in start..<end { findingsBox.value[index].isInRequest = true }
        guard end - start > 1 else { return }
        /// Most severe first, then a pattern's (or a store's) over a name's.
        func outranks(_ a: Finding, _ b: Finding) -> Bool {
            if a.level != b.level { return a.level > b.level }
            return !a.ruleId.hasPrefix("name.") && b.ruleId.hasPrefix("name.")
        }
        var dropped: [Int] = []
        // A request holds a handful of findings: pairs are compared directly.
        for index in (start + 1)..<end {
            guard let hash = findingsBox.value[index].secretHash,
                  let kept = (start..<index).first(where: { !dropped.contains($0) && findingsBox.value[$0].secretHash == hash })
            else { continue }
            let repeated = findingsBox.value[index], first = findingsBox.value[kept]
            let (winner, loser) = outranks(repeated, first) ? (repeated, first) : (first, repeated)
            var merged = winner
            var related = first.relatedLocations + repeated.relatedLocations
            related.append(RelatedLocation(position: loser.position, pathText: loser.pathText))
            merged.relatedLocations = related.sorted(by: Self.inOrder)
            findingsBox.value[kept] = merged
            dropped.append(index)
        }
        for index in dropped.reversed() { findingsBox.value.remove(at: index) }
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
        // Read once, not at each ancestor: `facts` is read through a coroutine that allocates.
        let known = facts
        for id in ancestry {
            guard let facts = known[id] else { continue }
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
        let known = facts  // read once, as in `context(of:)`
        for id in hit.location.ancestry {
            guard let facts = known[id] else { continue }
            if let carrier = facts.carrier, hit.location.carrier == nil { hit.location.carrier = carrier }
            if facts.isProtocolField { hit.location.isProtocolField = true }
        }
        if let last = hit.location.ancestry.last, let name = known[last]?.valueName, let key = hit.location.key, NameValueRole.isValueKey(key) {
            hit.location.key = name
        }
        return hit
    }
}
