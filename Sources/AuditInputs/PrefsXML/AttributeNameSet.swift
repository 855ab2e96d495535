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
/// into buckets of a few hundred, which a cache holds, and each bucket is sorted. Inserted one
/// by one into a hash table of millions of slots, every name missed the cache (`perf record`: 23 %
/// of a scan of tags of a million attributes in the insert). Hashing is Swift's `Hasher`,
/// seeded per process, so that no input can be made of names that all collide. A note takes 16
/// bytes, and the split copies them once.
struct AttributeNameSet {
    private struct Note {
        var hash: UInt64
        /// The name's absolute offset.
        var start: Int
    }

    /// The first names of the tag, as absolute offsets, until `smallCount`.
    private var small: [(start: Int, end: Int)] = []
    /// Every name of the tag once it has more than `smallCount`, in order.
    private var notes: [Note] = []
    /// `notes` split into buckets by `firstDuplicate`, and where each bucket starts.
    private var split: [Note] = []
    private var bucketStarts: [Int] = []
    /// The last name noted: it alone may be followed by a byte other than `=` or whitespace (the
    /// reader checks the `=` after inserting, and a tag without it inserts no further name).
    private var last = (start: 0, end: 0)
    private var count = 0

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
        if count < AttributeNameSet.smallCount {
            for other in small where other.end - other.start == end - start
                && memcmp(origin + other.start, origin + start, end - start) == 0 {
                return false
            }
            small.append((start, end))
            count += 1
            if count == AttributeNameSet.smallCount {
                for name in small { notes.append(Note(hash: AttributeNameSet.hash(name.start, name.end, origin), start: name.start)) }
            }
            return true
        }
        precondition(count < AttributeNameSet.maxNames, "at most AttributeNameSet.maxNames names")
        last = (start, end)
        notes.append(Note(hash: AttributeNameSet.hash(start, end, origin), start: start))
        count += 1
        return true
    }

    /// Whether names were noted past the first few, for `firstDuplicate` to check.
    var hasNotes: Bool { count > AttributeNameSet.smallCount }

    /// The offset of the first name (in document order) equal to an earlier one, among the names
    /// inserted since `removeAll`; nil when they are all distinct.
    mutating func firstDuplicate(in origin: UnsafePointer<UInt8>) -> Int? {
        guard hasNotes else { return nil }
        let bits = max(0, Int.bitWidth - (notes.count / AttributeNameSet.bucketSize).leadingZeroBitCount)
        let buckets = 1 << bits
        bucketStarts.removeAll(keepingCapacity: true)
        bucketStarts.append(contentsOf: repeatElement(0, count: buckets + 1))
        // At the size needed, not grown by doubling from an earlier tag's.
        if split.capacity < notes.count {
            split = []
            split.reserveCapacity(notes.count)
        }
        split.removeAll(keepingCapacity: true)
        split.append(contentsOf: repeatElement(Note(hash: 0, start: 0), count: notes.count))
        let last = self.last
        return notes.withUnsafeBufferPointer { notes in
            split.withUnsafeMutableBufferPointer { split in
                bucketStarts.withUnsafeMutableBufferPointer { starts in
                    @inline(__always) func bucket(_ note: Note) -> Int { bits == 0 ? 0 : Int(truncatingIfNeeded: note.hash >> UInt64(64 - bits)) }
                    for note in notes { starts[bucket(note) + 1] += 1 }
                    for b in 0..<buckets { starts[b + 1] += starts[b] }
                    // Each note at its bucket's next place (`starts[b]` moves to the next bucket's
                    // start; walked back below).
                    for note in notes {
                        let b = bucket(note)
                        split[starts[b]] = note
                        starts[b] += 1
                    }
                    func length(_ start: Int) -> Int {
                        if start == last.start { return last.end - last.start }
                        var i = start
                        while AttributeNameSet.continuesName(origin[i]) { i += 1 }
                        return i - start
                    }
                    var first: Int?
                    var lower = 0
                    for b in 0..<buckets {
                        let upper = starts[b]
                        defer { lower = upper }
                        guard upper - lower > 1 else { continue }
                        var names = UnsafeMutableBufferPointer(rebasing: split[lower..<upper])
                        names.sort { ($0.hash, $0.start) < ($1.hash, $1.start) }
                        // In each run of one hash, the first name (by offset) equal to an earlier one.
                        var run = 0
                        while run < names.count {
                            var end = run + 1
                            while end < names.count && names[end].hash == names[run].hash { end += 1 }
                            defer { run = end }
                            guard end - run > 1 else { continue }
                            search: for i in (run + 1)..<end {
                                if let first, names[i].start >= first { break }
                                let n = length(names[i].start)
                                for j in run..<i where length(names[j].start) == n
                                    && memcmp(origin + names[j].start, origin + names[i].start, n) == 0 {
                                    first = names[i].start
                                    break search
                                }
                            }
                        }
                    }
                    return first
                }
            }
        }
    }

    /// Empties the set in time proportional to what it held; notes beyond `keptNotes` are freed.
    mutating func removeAll() {
        small.removeAll(keepingCapacity: true)
        if notes.capacity > AttributeNameSet.keptNotes {
            (notes, split, bucketStarts) = ([], [], [])
        } else if !notes.isEmpty {
            notes.removeAll(keepingCapacity: true)
        }
        count = 0
    }

    /// Bytes allocated for the notes (tests check that a name costs a bounded amount).
    var capacityForTests: Int { (notes.capacity + split.capacity) * MemoryLayout<Note>.stride + bucketStarts.capacity * MemoryLayout<Int>.stride }

    private static func continuesName(_ b: UInt8) -> Bool {
        b != UInt8(ascii: "=") && b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D
    }

    private static func hash(_ start: Int, _ end: Int, _ origin: UnsafePointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: origin + start, count: end - start))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
