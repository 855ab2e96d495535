/// A store of the inventory (or an unknown storage key) seen in an input.
public struct InventorySighting: Sendable, Hashable {
    /// The store's id, or nil for a storage key the inventory does not know.
    public var storeId: String?
    /// The store's name, or the unknown key.
    public var name: String
    public var classes: [DataClass]
    public var context: ScanContext
    public var verdict: Verdict
    public var artifact: String
    /// Why it is listed, when the class alone does not say.
    public var note: String?
}

/// One line of a report's inventory section: a store, every context and input it was seen in,
/// and the strictest verdict.
public struct InventoryEntry: Sendable, Equatable {
    public var storeId: String?
    public var name: String
    public var classes: [DataClass]
    public var contexts: [ScanContext]
    public var verdict: Verdict
    public var artifacts: [String]
    public var notes: [String]

    /// Groups sightings by store (or unknown key), in a stable order.
    static func summarize(_ sightings: [InventorySighting]) -> [InventoryEntry] {
        var groups: [String: [InventorySighting]] = [:]
        for sighting in sightings { groups[sighting.storeId ?? "?" + sighting.name, default: []].append(sighting) }
        return groups.keys.sorted().map { key in
            let all = groups[key]!
            return InventoryEntry(
                storeId: all[0].storeId, name: all[0].name, classes: all[0].classes,
                contexts: Set(all.map(\.context)).sorted(), verdict: all.map(\.verdict).max()!,
                artifacts: Set(all.map(\.artifact)).sorted(), notes: Set(all.compactMap(\.note)).sorted())
        }
    }
}
