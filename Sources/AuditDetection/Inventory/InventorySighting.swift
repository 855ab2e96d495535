import AuditCore

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

    public init(storeId: String?, name: String, classes: [DataClass], context: ScanContext, verdict: Verdict,
                artifact: String, note: String? = nil) {
        self.storeId = storeId
        self.name = name
        self.classes = classes
        self.context = context
        self.verdict = verdict
        self.artifact = artifact
        self.note = note
    }
}

extension InventorySighting {
    /// Hashes the fields that tell sightings apart in practice (equal sightings still hash
    /// equally): a prefs export checks a sighting per unknown key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeId)
        hasher.combine(name)
        hasher.combine(context)
    }
}

extension InventorySighting {
    /// A key of a backup's settings snapshot. The contract: "backup export settings remain an
    /// inspection snapshot and are not applied on import"; each key is listed with the registry
    /// key its legacy value maps to, the store it names, or as unsupported.
    public static func settingsSnapshot(key: String, inventory: Inventory, artifact: String) -> InventorySighting {
        let snapshot = "inspection snapshot of a backup, not applied on import"
        if let setting = inventory.settings.first(where: { $0.isLegacySource(key) }) {
            return InventorySighting(storeId: nil, name: "settings snapshot: \(key)", classes: [.synchronized], context: .backup,
                                     verdict: .allowed, artifact: artifact, note: "\(snapshot); maps to the registry key \(setting.key)")
        }
        if let index = inventory.store(jsonField: key) {
            let store = inventory.stores[index]
            return InventorySighting(storeId: nil, name: "settings snapshot: \(key)", classes: store.classes, context: .backup,
                                     verdict: inventory.verdict(for: store, in: .backup), artifact: artifact,
                                     note: "\(snapshot); store \(store.id)")
        }
        return InventorySighting(storeId: nil, name: "settings snapshot: \(key)", classes: [.unsupported], context: .backup,
                                 verdict: inventory.verdict(for: [.unsupported], in: .backup), artifact: artifact,
                                 note: "\(snapshot); not a registry key or known store: unsupported")
    }
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
    public static func summarize(_ sightings: [InventorySighting]) -> [InventoryEntry] {
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
