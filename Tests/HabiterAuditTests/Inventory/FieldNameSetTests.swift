@testable import AuditDetection
import Testing

/// `FieldNameSet` answers as `Set<String>` does, which it replaced in the operation checks.
@Suite struct FieldNameSetTests {
    /// Names that sort and compare in every way that matters: prefixes, case, long (heap) and
    /// short (inline) strings, non-ASCII, and two canonically equivalent spellings of `café`.
    static let vocabulary = ["", "a", "A", "ab", "abc", "b", "createdAt", "created", "notificationEnabled",
                             "notificationTime", "caf\u{e9}", "cafe\u{301}", "\u{1F600}", "zz", " ", "id"]

    @Test func agreesWithSetOnRandomLists() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let (set, plain) = ((FieldNameSet(a), FieldNameSet(b)), (Set(a), Set(b)))
            #expect(set.0.isSubset(of: set.1) == plain.0.isSubset(of: plain.1), "\(a) ⊆ \(b)")
            #expect((set.0 == set.1) == (plain.0 == plain.1), "\(a) == \(b)")
            #expect(set.0.isEmpty == plain.0.isEmpty)
            #expect(set.0.names.count == plain.0.count, "\(a): duplicates are one name")
        }
    }

    /// A list given in ascending order without duplicates, as the app writes its field lists, is
    /// taken as it is: the same answers, against lists in any order.
    @Test func agreesWithSetOnSortedLists() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = Array(Set((0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! })).sorted()
            let b = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let (set, plain) = ((FieldNameSet(a), FieldNameSet(b)), (Set(a), Set(b)))
            #expect(set.0.names == a)
            #expect(set.0.isSubset(of: set.1) == plain.0.isSubset(of: plain.1), "\(a) ⊆ \(b)")
            #expect(set.1.isSubset(of: set.0) == plain.1.isSubset(of: plain.0), "\(b) ⊆ \(a)")
            #expect((set.0 == set.1) == (plain.0 == plain.1), "\(a) == \(b)")
            #expect((set.0 == FieldNameSet(b.sorted())) == (plain.0 == plain.1), "\(a) == sorted \(b)")
        }
    }

    @Test func canonicallyEquivalentNamesAreOne() {
        #expect(FieldNameSet(["caf\u{e9}", "cafe\u{301}"]) == FieldNameSet(["cafe\u{301}"]))
        #expect(FieldNameSet(["caf\u{e9}"]).isSubset(of: FieldNameSet(["cafe\u{301}", "id"])))
    }
}
