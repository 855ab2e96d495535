#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attribute names of the tag being read, for the duplicate check: a hash set of byte ranges
/// of the input, compared by content, so that a tag of n attributes costs O(n) rather than the
/// O(n²) of comparing each name with every earlier one (a hostile tag holds a million). Hashing is
/// Swift's `Hasher`, seeded per process, so that no input can be made of names that all collide.
/// A tag's first few names are compared with each other instead: hashing costs more than that
/// for the one to three attributes of a real entry (a tenth of the scan of an export of many
/// small entries). Emptied between tags; its storage is kept unless a huge tag made it large.
struct AttributeNameSet {
    /// The names inserted since `removeAll`, as absolute offsets, with their hash and slot (both
    /// 0 while the set is small).
    private var names: [(start: Int, end: Int, hash: Int, slot: Int)] = []
    /// Open addressing with linear probing: 1 + an index into `names`, or 0 when free. Its count
    /// is a power of two and at least twice the number of names; used from `smallCount` names on.
    private var slots = [Int](repeating: 0, count: AttributeNameSet.initialSlots)

    /// Up to this many names, each new one is compared with every earlier one.
    static let smallCount = 8
    private static let initialSlots = 32
    /// Larger tables are freed by `removeAll` rather than kept for the next tag.
    private static let keptSlots = 1 << 12

    /// Inserts the name `[start, end)` of `origin` (indexed by absolute offsets, as the reader's
    /// bytes are); false when an equal name is already in the set.
    mutating func insert(_ start: Int, _ end: Int, in origin: UnsafePointer<UInt8>) -> Bool {
        if names.count < AttributeNameSet.smallCount {
            for other in names where other.end - other.start == end - start
                && memcmp(origin + other.start, origin + start, end - start) == 0 {
                return false
            }
            names.append((start, end, 0, 0))
            if names.count == AttributeNameSet.smallCount { hashAll(origin) }
            return true
        }
        if 2 * (names.count + 1) > slots.count { grow() }
        let hash = AttributeNameSet.hash(start, end, origin)
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let other = names[slots[slot] - 1]
            if other.hash == hash && other.end - other.start == end - start
                && memcmp(origin + other.start, origin + start, end - start) == 0 {
                return false
            }
            slot = (slot + 1) & mask
        }
        names.append((start, end, hash, slot))
        slots[slot] = names.count
        return true
    }

    /// Empties the set in time proportional to what it holds.
    mutating func removeAll() {
        if slots.count > AttributeNameSet.keptSlots {
            slots = [Int](repeating: 0, count: AttributeNameSet.initialSlots)
            names = []
            return
        }
        if names.count >= AttributeNameSet.smallCount {
            for name in names { slots[name.slot] = 0 }
        }
        names.removeAll(keepingCapacity: true)
    }

    private static func hash(_ start: Int, _ end: Int, _ origin: UnsafePointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: origin + start, count: end - start))
        return hasher.finalize()
    }

    /// Moves the small set's names (all distinct) into the table.
    private mutating func hashAll(_ origin: UnsafePointer<UInt8>) {
        for index in names.indices { names[index].hash = AttributeNameSet.hash(names[index].start, names[index].end, origin) }
        place()
    }

    /// Doubles the table.
    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        place()
    }

    /// Places every name in the (empty) table by its hash.
    private mutating func place() {
        let mask = slots.count - 1
        for index in names.indices {
            var slot = names[index].hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
            names[index].slot = slot
        }
    }
}
