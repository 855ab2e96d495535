/// What the scan needs to know about a key name: the name rule it matches and the inventory
/// store it names.
struct KeyFacts: Equatable {
    var name: NameMatch?
    /// Index of a store in `Inventory.stores`.
    var store: Int?

    static let none = KeyFacts()
    var isEmpty: Bool { name == nil && store == nil }
}

/// Remembers `KeyFacts` by exact key bytes. Real inputs use a small vocabulary of keys
/// (`entityId`, `payload`, `title`, …) millions of times, so each distinct key is judged once.
/// Per thread; bounded (it stops learning when full, it never evicts or grows past its limits).
struct KeyFactsCache {
    private static let slotCount = 4096
    private static let maxKeyLength = 64
    private static let arenaLimit = 256 * 1024

    private struct Slot {
        var hash: UInt64 = 0
        var start: Int32 = 0
        var length: Int32 = -1
        /// Index into `results`, or -1 for facts that are empty.
        var result: Int32 = -1
    }

    private var slots = [Slot](repeating: Slot(), count: KeyFactsCache.slotCount)
    private var arena: [UInt8] = []
    private var results: [KeyFacts] = []

    /// The cached facts for `key`, computing them with `compute` on a miss.
    mutating func facts(_ key: UnsafeBufferPointer<UInt8>, compute: () -> KeyFacts) -> KeyFacts {
        guard key.count <= KeyFactsCache.maxKeyLength else { return compute() }
        let hash = KeyFactsCache.hash(key)
        var index = Int(truncatingIfNeeded: hash) & (KeyFactsCache.slotCount - 1)
        for _ in 0..<8 {
            let slot = slots[index]
            if slot.length < 0 {
                let result = compute()
                if arena.count + key.count <= KeyFactsCache.arenaLimit {
                    var resultIndex: Int32 = -1
                    if !result.isEmpty {
                        resultIndex = Int32(results.count)
                        results.append(result)
                    }
                    slots[index] = Slot(hash: hash, start: Int32(arena.count), length: Int32(key.count), result: resultIndex)
                    arena.append(contentsOf: key)
                }
                return result
            }
            if slot.hash == hash && Int(slot.length) == key.count && equalsArena(Int(slot.start), key) {
                return slot.result < 0 ? .none : results[Int(slot.result)]
            }
            index = (index + 1) & (KeyFactsCache.slotCount - 1)
        }
        return compute()
    }

    private func equalsArena(_ start: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        arena.withUnsafeBufferPointer { stored in
            for i in 0..<key.count where stored[start + i] != key[i] { return false }
            return true
        }
    }

    /// FNV-1a, 64-bit.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
