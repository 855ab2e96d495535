#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exact-match table from a fixed vocabulary of byte strings to integers, with a perfect
/// hash ("hash and displace"): keys are put in buckets by one hash, and each bucket gets a seed
/// under which its keys land in slots no other key has. A lookup is two short hashes, one slot
/// and one comparison, without making a `String` or hashing it with `Hasher` (the inventory's
/// stores by prefs key and by field name, asked for every preference of an export). Immutable
/// once built; raw memory, freed with the table.
public final class PerfectByteTable: @unchecked Sendable {
    private struct Slot {
        var start: Int32 = 0
        /// -1 for an empty slot.
        var length: Int32 = -1
        var value: Int = 0
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let slotMask: Int
    /// The seed of each bucket.
    private let seeds: UnsafeMutablePointer<UInt64>
    private let bucketMask: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    public let count: Int
    /// The slots: twice the keys rounded up to a power of two, unless their hashes crowd.
    var slotCount: Int { slotMask + 1 }

    /// A table of `entries`; the first entry of a key that occurs twice wins.
    public init(_ entries: [(key: [UInt8], value: Int)]) {
        var unique: [(key: [UInt8], value: Int)] = []
        var seen = Set<[UInt8]>()
        for entry in entries where seen.insert(entry.key).inserted { unique.append(entry) }
        count = unique.count
        // At most half the slots used, and about two keys a bucket.
        var slotCount = 8
        while slotCount < 2 * unique.count { slotCount *= 2 }
        var bucketCount = 4
        while bucketCount * 2 < unique.count { bucketCount *= 2 }
        let bucketOf = unique.map { PerfectByteTable.hash($0.key, seed: 0) & (bucketCount - 1) }
        var buckets = [[Int]](repeating: [], count: bucketCount)
        for (i, bucket) in bucketOf.enumerated() { buckets[bucket].append(i) }
        let keys = unique.map(\.key)
        // A bucket whose keys find no free slots under 4,096 seeds: twice the slots, and again.
        var chosen = PerfectByteTable.seeds(of: buckets, keys: keys, slotCount: slotCount)
        while chosen == nil {
            slotCount *= 2
            chosen = PerfectByteTable.seeds(of: buckets, keys: keys, slotCount: slotCount)
        }
        slotMask = slotCount - 1
        bucketMask = bucketCount - 1
        seeds = .allocate(capacity: bucketCount)
        seeds.initialize(from: chosen!, count: bucketCount)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
        bytes = .allocate(capacity: max(1, keys.reduce(0) { $0 + $1.count }))
        var offset = 0
        for (i, entry) in unique.enumerated() {
            let index = PerfectByteTable.hash(entry.key, seed: seeds[bucketOf[i]]) & slotMask
            slots[index] = Slot(start: Int32(offset), length: Int32(entry.key.count), value: entry.value)
            (bytes + offset).initialize(from: entry.key, count: entry.key.count)
            offset += entry.key.count
        }
    }

    /// A seed for each bucket under which its keys take slots no other key takes, the fullest
    /// buckets first, while most slots are free; nil when a bucket finds none in 4,096 seeds.
    private static func seeds(of buckets: [[Int]], keys: [[UInt8]], slotCount: Int) -> [UInt64]? {
        let order = buckets.indices.sorted { (buckets[$0].count, $1) > (buckets[$1].count, $0) }
        var taken = [Bool](repeating: false, count: slotCount)
        var chosen = [UInt64](repeating: 1, count: buckets.count)
        for bucket in order where !buckets[bucket].isEmpty {
            var placed: (seed: UInt64, places: [Int])?
            for seed in UInt64(1)...4096 {
                let places = buckets[bucket].map { hash(keys[$0], seed: seed) & (slotCount - 1) }
                if Set(places).count == places.count && !places.contains(where: { taken[$0] }) {
                    placed = (seed, places)
                    break
                }
            }
            guard let placed else { return nil }
            for place in placed.places { taken[place] = true }
            chosen[bucket] = placed.seed
        }
        return chosen
    }

    deinit {
        slots.deallocate()
        seeds.deallocate()
        bytes.deallocate()
    }

    /// The value of `key`, nil when it is not in the table.
    @inline(__always)
    public func value(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let seed = seeds[PerfectByteTable.hash(key, seed: 0) & bucketMask]
        let slot = slots[PerfectByteTable.hash(key, seed: seed) & slotMask]
        guard Int(slot.length) == key.count else { return nil }
        guard let base = key.baseAddress else { return slot.value }
        return memcmp(bytes + Int(slot.start), base, key.count) == 0 ? slot.value : nil
    }

    /// The value of the UTF-8 of `key`.
    public func value(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { value($0) }
    }

    /// `WordHash` of `key` under `seed`.
    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64) -> Int {
        Int(truncatingIfNeeded: WordHash.hash(key, seed: seed))
    }

    private static func hash(_ key: [UInt8], seed: UInt64) -> Int {
        key.withUnsafeBufferPointer { hash($0, seed: seed) }
    }
}
