@testable import AuditBytes
@testable import AuditInputs
import Testing

/// The prefs reader's duplicate-attribute check (its compared small sets, and the notes it
/// checks when the tag ends), against the pairwise comparison it replaced.
@Suite struct AttributeNameSetTests {
    /// The index of the first name equal to an earlier one, comparing every pair.
    private static func pairwiseFirstDuplicate(_ names: [[UInt8]]) -> Int? {
        for (i, name) in names.enumerated() where names[..<i].contains(name) { return i }
        return nil
    }

    /// Inserts `names` (laid out one after another in one buffer as a tag's are, ` name=""`)
    /// into `set` as the reader does: up to the first that `insert` refuses (among the first
    /// few), else all, then asks `firstDuplicate`. The index of the first duplicate, or nil.
    private static func firstDuplicate(_ names: [[UInt8]], in set: inout AttributeNameSet) -> Int? {
        let bytes = names.flatMap { [UInt8(ascii: " ")] + $0 + Array("=\"\"".utf8) }
        var starts: [Int] = [], next = 1
        for name in names {
            starts.append(next)
            next += name.count + 4
        }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            let origin = buffer.baseAddress ?? emptyByteBase
            for (i, name) in names.enumerated() where !set.insert(starts[i], starts[i] + name.count, in: origin) { return i }
            return set.firstDuplicate(in: origin).map { starts.firstIndex(of: $0)! }
        }
    }

    /// Random tags of 0 to 6,000 names from a small alphabet (so that equal names, names that
    /// differ in one byte and hash collisions in small tables all happen), read one after the
    /// other with one set, as the reader does: across growth, reuse and freeing of large tables.
    @Test func agreesWithThePairwiseComparisonOnRandomTags() {
        var rng = SeededGenerator(seed: 18)
        var set = AttributeNameSet()
        for round in 0..<300 {
            let count = round % 50 == 0 ? Int(rng.next() % 6_000) : Int(rng.next() % 40)
            let length = 1 + Int(rng.next() % 4)
            var names: [[UInt8]] = []
            for _ in 0..<count {
                let size = 1 + Int(rng.next() % UInt64(length))
                names.append((0..<size).map { _ in UInt8(ascii: "a") + UInt8(rng.next() % 3) })
            }
            if round % 3 == 0 { names = Array(Set(names)).sorted { $0.lexicographicallyPrecedes($1) } }  // some tags without a duplicate
            set.removeAll()
            #expect(Self.firstDuplicate(names, in: &set) == Self.pairwiseFirstDuplicate(names), "round \(round), \(names.count) names")
        }
    }

    /// Around the switch from comparing names to hashing them: a duplicate of any earlier name,
    /// the tag before it just under, at or over `smallCount`.
    @Test func aDuplicateOfAnyEarlierNameAroundTheSwitchToHashing() {
        var set = AttributeNameSet()
        for count in 1...(2 * AttributeNameSet.smallCount + 2) {
            let names = (0..<count).map { Array("attr\($0)".utf8) }
            for earlier in 0..<count {
                set.removeAll()
                #expect(Self.firstDuplicate(names + [names[earlier]], in: &set) == count, "\(count) names, then name \(earlier) again")
            }
        }
    }

    @Test func distinctNamesFillTablesOfEverySize() {
        var set = AttributeNameSet()
        for count in [0, 1, 2, 7, 8, 9, 16, 17, 4_096, 10_000] {
            let names = (0..<count).map { Array("n\($0)".utf8) }
            set.removeAll()
            #expect(Self.firstDuplicate(names, in: &set) == nil, "\(count) names")
            set.removeAll()
            #expect(Self.firstDuplicate(names + [Array("n0".utf8)], in: &set) == (count == 0 ? nil : count), "\(count) names and n0 again")
        }
    }

    /// The table takes a name's slot from the hash bits a slot keeps, which holds up to
    /// `maxNames`; the reader's limit never goes beyond it, whatever it is asked for.
    @Test func theReaderNeverAllowsMoreAttributesThanTheSetHolds() {
        #expect(PrefsXMLReader.defaultMaxAttributes <= AttributeNameSet.maxNames)
        let bytes: [UInt8] = Array("<map/>".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(PrefsXMLReader(buffer, maxAttributes: .max).maxAttributes == AttributeNameSet.maxNames)
            #expect(PrefsXMLReader(buffer, maxAttributes: 5).maxAttributes == 5)
        }
    }
}
