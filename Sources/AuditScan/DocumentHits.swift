import AuditBytes

/// What the hits of one document say about each other, worked out once when the document ends:
/// the facts `HitPrecedence`'s rules read. A hit is named by its index: `pending` first, then
/// the quiet name hits from `quietStart` on (a `PendingHit` is large, and copying one retains
/// what it holds).
struct DocumentHits {
    private unowned let scan: ArtifactScan
    /// Hit `index` is `scan.quietNameHits[index - quietStart]` from here on.
    let quietStart: Int
    let count: Int
    /// Hits that repeat a secret another hit reports better (see `ArtifactScan.duplicateSecretHits`).
    private let duplicates: [Bool]
    /// Paths, rendered only for the hits that need them: a document can hold millions of name
    /// hits that nothing reports (placeholders under sensitive names outside sync).
    private var paths: [String?] = []
    /// Values a sensitive store outside secure storage holds: the store says more than a name
    /// rule would.
    private var sensitiveStoreValues = Set<String>()
    /// Values a pattern rule matched.
    private var patternValues = Set<String>()
    /// Values a name rule judged empty or a placeholder (where the document has stores).
    private var placeholderValues = Set<String>()
    /// The inventory store seen at a path.
    private var storesByPath: [String: Int] = [:]
    /// A pattern hit that a layer of the same value repeats, as seen from each outer layer.
    private var repeatedInLayers = Set<LayerRepeat>()
    /// Every hit's path, sorted, for `hasHit(inside:)`; made when first asked.
    private var sortedPaths: [String] = []

    private struct LayerRepeat: Hashable {
        var rule: Int
        var offset: Int
        var outerPath: String
    }

    init(scan: ArtifactScan, duplicates: [Bool]) {
        self.scan = scan
        self.duplicates = duplicates
        quietStart = scan.pending.count
        count = scan.hitCount
        let hasStores = scan.pending.contains { if case .inventory = $0.detail { true } else { false } }
        for index in 0..<quietStart {
            switch scan.pending[index].detail {
            case .inventory(let store):
                storesByPath[path(index)] = store
                if scan.rules.inventory.stores[store].isSensitive && !scan.pending[index].location.isSecureStorage {
                    sensitiveStoreValues.insert(path(index))
                }
            case .name(_, let credible, _, _) where !credible && hasStores:
                placeholderValues.insert(path(index))
            default:
                break
            }
        }
        if hasStores {
            for index in quietStart..<count { placeholderValues.insert(path(index)) }
        }
        // Only name and inventory hits ask where the pattern hits are.
        let asksForPatternValues = count > quietStart || scan.pending.contains { !$0.isPattern }
        for index in 0..<quietStart {
            guard case .pattern(let rule, _, _) = scan.pending[index].detail else { continue }
            if asksForPatternValues { patternValues.insert(path(index)) }
            guard scan.pending[index].location.containerPath.layers.count > 1 else { continue }
            var outer = scan.pending[index].location.path
            while outer.layers.count > 1 {
                outer.layers.removeLast()
                repeatedInLayers.insert(LayerRepeat(rule: rule, offset: scan.pending[index].position.byteOffset, outerPath: outer.description))
            }
        }
    }

    /// Whether hit `index` repeats a secret that another hit reports.
    func isDuplicate(_ index: Int) -> Bool {
        index < duplicates.count && duplicates[index]
    }

    /// The rendered path of hit `index`.
    mutating func path(_ index: Int) -> String {
        if paths.isEmpty { paths = [String?](filling: nil, count: count) }
        if let rendered = paths[index] { return rendered }
        // Read in place: a copy of the hit would retain all it holds.
        let rendered = index < quietStart ? scan.pending.withUnsafeBufferPointer { $0[index].location.pathDescription }
            : scan.quietNameHits.pathDescription(of: index - quietStart)
        paths[index] = rendered
        return rendered
    }

    /// Whether a pattern hit of `rule` at `offset` in the value at `path` is repeated by a layer
    /// inside that value.
    func isRepeatedInALayer(rule: Int, offset: Int, path: String) -> Bool {
        !repeatedInLayers.isEmpty && repeatedInLayers.contains(LayerRepeat(rule: rule, offset: offset, outerPath: path))
    }

    func patternMatched(_ path: String) -> Bool { patternValues.contains(path) }

    /// Whether a pattern or a sensitive store reports the value at `path` better than a name.
    func isReportedBetter(_ path: String) -> Bool { patternValues.contains(path) || sensitiveStoreValues.contains(path) }

    func isPlaceholder(_ path: String) -> Bool { placeholderValues.contains(path) }

    /// The classes of the store at `path`, if one was seen there.
    func storeClasses(at path: String) -> String? {
        storesByPath.isEmpty ? nil
            : storesByPath[path].map { scan.rules.inventory.stores[$0].classes.map(\.rawValue).joined(separator: " / ") }
    }

    /// Whether a hit lies inside `prefix`: in a member of the container there, or in a layer of
    /// the value there.
    mutating func hasHit(inside prefix: String) -> Bool {
        if sortedPaths.isEmpty { sortedPaths = (0..<count).map { path($0) }.sorted() }
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
}
