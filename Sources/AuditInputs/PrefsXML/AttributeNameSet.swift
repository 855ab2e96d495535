#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attribute names of the tag being read, for the duplicate check: a hash set of offsets
/// into the tag, which the reader keeps visible, so that a tag of n attributes costs O(n) rather
/// than the O(n²) of comparing each name with every earlier one (a hostile tag holds a million).
/// A slot is 8 bytes (the name's offset in the tag and the top of its hash) at most half full,
/// so a name costs 16 to 32 bytes, whatever its length. A name's slot is taken from the top of
/// its hash, which the slot keeps: the table doubles by moving slots, without reading or hashing
/// a name again (that was a third of the time of a tag of a million attributes). Hashing is Swift's `Hasher`, seeded per
/// process, so that no input can be made of names that all collide. A tag's first few names are
/// compared with each other instead: hashing costs more than that for the one to three
/// attributes of a real entry (a tenth of the scan of an export of many small entries). Emptied
/// between tags in time proportional to the names it held; a large table is freed.
struct AttributeNameSet {
    /// The first names of the tag, as absolute offsets, until `smallCount`.
    private var small: [(start: Int, end: Int)] = []
    /// Open addressing with linear probing from the slot the hash's top bits name: 0 when free,
    /// else the top bits of the name's hash above `offsetBits`, and below them 1 + the name's
    /// offset from `base`. Its count is a power of two at least twice the number of names; used
    /// from `smallCount` names on.
    private var slots: [UInt64] = []
    /// 64 minus log2 of the number of slots: a hash shifted right by it is its first slot.
    private var shift = 64
    private var count = 0
    /// Absolute offset of the tag's first name.
    private var base = 0

    /// Up to this many names, each new one is compared with every earlier one.
    static let smallCount = 8
    private static let initialSlots = 32
    private static let keptSlots = 1 << 12
    /// Enough for a tag of a terabyte: the reader holds the whole tag in memory.
    private static let offsetBits: UInt64 = 40
    private static let offsetMask: UInt64 = 1 << offsetBits - 1
    /// The most names a tag may have: the table then has at most 2^(64 - offsetBits) slots, so
    /// a slot's index bits are among the hash bits the slot keeps (the reader's attribute limit
    /// is below it).
    static let maxNames = 1 << (63 - Int(offsetBits)) - 1

    /// Inserts the name `[start, end)` of `origin` (indexed by absolute offsets, as the reader's
    /// bytes are; every name inserted since `removeAll` stays visible); false when an equal name
    /// is already in the set. The table keeps no lengths: a name ends where `=` or whitespace
    /// follows it, as in a tag (the reader checks the `=` after inserting, and a tag without it
    /// inserts no further name).
    mutating func insert(_ start: Int, _ end: Int, in origin: UnsafePointer<UInt8>) -> Bool {
        if count < AttributeNameSet.smallCount {
            if count == 0 { base = start }
            for other in small where other.end - other.start == end - start
                && memcmp(origin + other.start, origin + start, end - start) == 0 {
                return false
            }
            small.append((start, end))
            count += 1
            if count == AttributeNameSet.smallCount { hashSmall(origin) }
            return true
        }
        precondition(count < AttributeNameSet.maxNames, "at most AttributeNameSet.maxNames names")
        if 2 * (count + 1) > slots.count { grow() }
        let hash = AttributeNameSet.hash(start, end, origin)
        let tag = hash & ~AttributeNameSet.offsetMask
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> UInt64(shift))
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry & ~AttributeNameSet.offsetMask == tag {
                let other = base + Int(entry & AttributeNameSet.offsetMask) - 1
                // Equal bytes up to the new name's length, and the other name ends there too.
                if memcmp(origin + other, origin + start, end - start) == 0 && !AttributeNameSet.continuesName(origin[other + end - start]) {
                    return false
                }
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = tag | UInt64(start - base + 1)
        count += 1
        return true
    }

    /// Empties the set in time proportional to what it held; a table larger than `keptSlots`
    /// is freed.
    mutating func removeAll() {
        small.removeAll(keepingCapacity: true)
        if count >= AttributeNameSet.smallCount {
            if slots.count > AttributeNameSet.keptSlots || slots.count > 4 * count {
                allocate(AttributeNameSet.initialSlots)
            } else {
                slots.withUnsafeMutableBufferPointer { _ = memset($0.baseAddress!, 0, $0.count * MemoryLayout<UInt64>.stride) }
            }
        }
        count = 0
    }

    /// Bytes allocated for the table (tests check that a name costs a bounded amount).
    var capacityForTests: Int { slots.capacity * MemoryLayout<UInt64>.stride }

    private static func continuesName(_ b: UInt8) -> Bool {
        b != UInt8(ascii: "=") && b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D
    }

    private static func hash(_ start: Int, _ end: Int, _ origin: UnsafePointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: origin + start, count: end - start))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Moves the small set's names (all distinct) into the table.
    private mutating func hashSmall(_ origin: UnsafePointer<UInt8>) {
        if slots.count < AttributeNameSet.initialSlots { allocate(AttributeNameSet.initialSlots) }
        for name in small {
            place(AttributeNameSet.hash(name.start, name.end, origin) & ~AttributeNameSet.offsetMask | UInt64(name.start - base + 1))
        }
    }

    /// An empty table of `count` slots (a power of two).
    private mutating func allocate(_ count: Int) {
        slots = [UInt64](repeating: 0, count: count)
        shift = 64 - count.trailingZeroBitCount
    }

    /// Doubles the table, moving each slot to where its kept hash bits say.
    private mutating func grow() {
        let old = slots
        allocate(old.count * 2)
        for entry in old where entry != 0 { place(entry) }
    }

    /// Places a slot's entry whose name is known to be absent.
    private mutating func place(_ entry: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry >> UInt64(shift))
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }
}
