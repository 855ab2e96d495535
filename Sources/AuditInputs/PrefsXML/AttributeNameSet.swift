#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attribute names of the tag being read, for the duplicate check, in time linear in their
/// number (a hostile tag holds a million). A tag's first few names are compared with each other
/// as they come: hashing costs more than that for the one to three attributes of a real entry.
/// Past them, each name's hash and offset are noted in order, and the names are checked when the
/// tag ends or breaks off (`firstDuplicate`): the notes are split by their hashes' top bits
/// into buckets of a few hundred, which a cache holds, and each bucket's names are looked up in
/// a small table by hash. Inserted one by one into a hash table of millions of slots, every
/// name missed the cache (`perf record`: 23 % of a scan of tags of a million attributes in the
/// insert). Hashing is Swift's `Hasher`, seeded per process, so that no input can be made of
/// names that all collide. A note takes 16 bytes, and the split copies them once.
struct AttributeNameSet {
    private struct Note {
        var hash: UInt64
        /// The name's absolute offset.
        var start: Int
    }

    /// The first names of the tag, as absolute offsets, until `smallCount`.
    private var small: [(start: Int, end: Int)] = []
    /// Every name of the tag once it has `smallCount`, in order.
    private var notes: [Note] = []
    /// `notes` split into buckets by `firstDuplicate`, and where each bucket ends.
    private var split: [Note] = []
    private var bucketEnds: [Int] = []
    /// A bucket's names by hash (`firstRepeat`): the generation in the high half, the note's
    /// index in `split` in the low half.
    private var table: [UInt64] = []
    private var generation: UInt64 = 0
    /// The last name noted: it alone may be followed by a byte other than `=` or whitespace (the
    /// reader checks the `=` after inserting, and a tag without it inserts no further name).
    private var last = (start: 0, end: 0)

    /// Up to this many names, each new one is compared with every earlier one.
    static let smallCount = 8
    /// Notes kept for their room between tags; more are freed.
    private static let keptNotes = 1 << 12
    /// The most names a tag may have (eight times the reader's default limit): 256 MiB of notes.
    static let maxNames = 1 << 23 - 1
    /// Names per bucket, about.
    private static let bucketSize = 256

    /// Inserts the name `[start, end)` of `origin` (indexed by absolute offsets, as the reader's
    /// bytes are; every name inserted since `removeAll` stays visible). False when it equals an
    /// earlier one of the first `smallCount`; past them, `firstDuplicate` says.
    mutating func insert(_ start: Int, _ end: Int, in origin: UnsafePointer<UInt8>) -> Bool {
        if small.count < AttributeNameSet.smallCount {
            for other in small where other.end - other.start == end - start
                && memcmp(origin + other.start, origin + start, end - start) == 0 {
                return false
            }
            small.append((start, end))
            if small.count == AttributeNameSet.smallCount {
                for name in small { notes.append(Note(hash: AttributeNameSet.hash(name.start, name.end, origin), start: name.start)) }
            }
            return true
        }
        precondition(notes.count < AttributeNameSet.maxNames, "at most AttributeNameSet.maxNames names")
        last = (start, end)
        notes.append(Note(hash: AttributeNameSet.hash(start, end, origin), start: start))
        return true
    }

    /// Whether names were noted past the first few, for `firstDuplicate` to check.
    var hasNotes: Bool { notes.count > AttributeNameSet.smallCount }

    /// The offset of the first name (in document order) equal to an earlier one, among the names
    /// inserted since `removeAll`; nil when they are all distinct.
    mutating func firstDuplicate(in origin: UnsafePointer<UInt8>) -> Int? {
        guard hasNotes else { return nil }
        splitNotesByHash()
        var first: Int?
        var lower = 0
        for upper in bucketEnds {
            defer { lower = upper }
            guard upper - lower > 1 else { continue }
            if let found = firstRepeat(in: lower..<upper, before: first, origin) { first = found }
        }
        return first
    }

    /// `notes` into `split`, bucket after bucket of their hashes' top bits, a few hundred a
    /// bucket; `bucketEnds[b]` is where bucket `b` ends.
    private mutating func splitNotesByHash() {
        let bits = max(0, Int.bitWidth - (notes.count / AttributeNameSet.bucketSize).leadingZeroBitCount)
        @inline(__always) func bucket(_ note: Note) -> Int { bits == 0 ? 0 : Int(truncatingIfNeeded: note.hash >> UInt64(64 - bits)) }
        bucketEnds.removeAll(keepingCapacity: true)
        bucketEnds.append(contentsOf: repeatElement(0, count: 1 << bits))
        // At the size needed, not grown by doubling from an earlier tag's.
        if split.capacity < notes.count {
            split = []
            split.reserveCapacity(notes.count)
        }
        split.removeAll(keepingCapacity: true)
        split.append(contentsOf: repeatElement(Note(hash: 0, start: 0), count: notes.count))
        // Each bucket's start (counted), then each note at its bucket's next place: the starts
        // move on to the ends. In place, through pointers: through the arrays, every write
        // checked the array's uniqueness (+11 % on a tag of a million names).
        notes.withUnsafeBufferPointer { notes in
            split.withUnsafeMutableBufferPointer { split in
                bucketEnds.withUnsafeMutableBufferPointer { ends in
                    for note in notes { ends[bucket(note)] += 1 }
                    var start = 0
                    for b in ends.indices { (ends[b], start) = (start, start + ends[b]) }
                    for note in notes {
                        let b = bucket(note)
                        split[ends[b]] = note
                        ends[b] += 1
                    }
                }
            }
        }
    }

    /// In `split[range]`, a bucket in document order, the offset of the first name equal to an
    /// earlier one, if it comes before `bound`: each name looked up among the bucket's names
    /// before it, in a table by hash (open addressing; a slot of another bucket's generation is
    /// free). Sorting each bucket by hash took 19 % of a scan of tags of a million names.
    private mutating func firstRepeat(in range: Range<Int>, before bound: Int?, _ origin: UnsafePointer<UInt8>) -> Int? {
        let slots = max(16, 1 << (Int.bitWidth - (2 * range.count - 1).leadingZeroBitCount))
        if table.count < slots {
            table = [UInt64](repeating: 0, count: slots)
            generation = 0
        }
        generation &+= 1
        if generation == 1 << 32 {
            // Slots of a generation that comes round again would not be free.
            for i in table.indices { table[i] = 0 }
            generation = 1
        }
        let mask = slots - 1
        let last = self.last
        return split.withUnsafeBufferPointer { split in
            table.withUnsafeMutableBufferPointer { table in
                for i in range {
                    let note = split[i]
                    if let bound, note.start >= bound { return nil }
                    var slot = Int(truncatingIfNeeded: note.hash) & mask
                    while table[slot] >> 32 == generation {
                        let j = Int(truncatingIfNeeded: table[slot] & 0xFFFF_FFFF)
                        if split[j].hash == note.hash {
                            let n = Self.length(at: note.start, last: last, origin)
                            if Self.length(at: split[j].start, last: last, origin) == n
                                && memcmp(origin + split[j].start, origin + note.start, n) == 0 {
                                return note.start
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                    table[slot] = generation << 32 | UInt64(i)
                }
                return nil
            }
        }
    }

    /// The length of the noted name at `start`: it ends at `=` or whitespace, but the `last`.
    private static func length(at start: Int, last: (start: Int, end: Int), _ origin: UnsafePointer<UInt8>) -> Int {
        if start == last.start { return last.end - last.start }
        var i = start
        while AttributeNameSet.continuesName(origin[i]) { i += 1 }
        return i - start
    }

    /// Empties the set in time proportional to what it held; notes beyond `keptNotes` are freed.
    mutating func removeAll() {
        small.removeAll(keepingCapacity: true)
        if notes.capacity > AttributeNameSet.keptNotes {
            (notes, split, bucketEnds, table) = ([], [], [], [])
        } else if !notes.isEmpty {
            notes.removeAll(keepingCapacity: true)
        }
    }

    /// Bytes allocated for the notes (tests check that a name costs a bounded amount).
    var capacityForTests: Int {
        (notes.capacity + split.capacity) * MemoryLayout<Note>.stride + (bucketEnds.capacity + table.capacity) * MemoryLayout<Int>.stride
    }

    private static func continuesName(_ b: UInt8) -> Bool {
        b != UInt8(ascii: "=") && b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D
    }

    private static func hash(_ start: Int, _ end: Int, _ origin: UnsafePointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: origin + start, count: end - start))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
