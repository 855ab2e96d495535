@testable import AuditDetection
@testable import AuditInputs
import Testing

/// `FieldNameSet` answers as the app's `_validatedChangedFields` does with Dart `Set<String>`s,
/// whose names are equal when their code units are: modelled here by sets of UTF-8 byte arrays.
@Suite struct FieldNameSetTests {
    /// Names that sort and compare in every way that matters: prefixes, case, long and short,
    /// non-ASCII, and two canonically equivalent spellings of `café` (two names to the app).
    static let vocabulary = ["", "a", "A", "ab", "abc", "b", "createdAt", "created", "notificationEnabled",
                             "notificationTime", "caf\u{e9}", "cafe\u{301}", "\u{1F600}", "zz", " ", "id"]

    /// The answers of `compare(with:)` for a list and the available names, as the app's sets give them.
    static func expected(_ list: [String], _ available: [String]) -> (Bool, Bool) {
        let (listed, offered) = (Set(list.map { Array($0.utf8) }), Set(available.map { Array($0.utf8) }))
        return (listed.isSubset(of: offered), offered.isSubset(of: listed))
    }

    static func compare(_ list: CapturedJSON, _ available: [String]) -> (Bool, Bool) {
        let answer = list.withView { list in
            FieldNameSet.compare(list) { body in
                for var name in available { name.withUTF8(body) }
            }
        }
        return (answer.setIsAvailable, answer.availableAreInSet)
    }

    /// The set of `list`: the list captured as the scan captures an operation's `changedFields`.
    static func set(_ list: [String]) -> CapturedJSON {
        CapturedJSON(JSONValue.Node(value: .array(list.map { JSONValue.Node(value: .string($0), offset: 0) }), offset: 0))
    }

    /// The set's distinct names in byte order, as `FieldNameSet.forEachName` gives them.
    static func names(_ list: CapturedJSON) -> [String] {
        var names = Set<[UInt8]>()
        list.withView { list in FieldNameSet.forEachName(list) { names.insert(Array($0)) } }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func agreesWithTheAppsSetsOnRandomLists() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let list = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let available = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let set = Self.set(list)
            #expect(Self.compare(set, available) == Self.expected(list, available), "\(list) against \(available)")
            #expect(set.withView(FieldNameSet.isEmpty) == list.isEmpty)
            #expect(Self.names(set).count == Set(list.map { Array($0.utf8) }).count, "\(list): duplicates are one name")
        }
    }

    /// A list given in byte order without duplicates, as the app writes its field lists, is
    /// taken as it is: the same answers.
    @Test func agreesWithTheAppsSetsOnSortedLists() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let list = Array(Set((0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }))
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let available = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            #expect(Self.names(Self.set(list)) == list)
            #expect(Self.compare(Self.set(list), available) == Self.expected(list, available), "\(list) against \(available)")
        }
    }

    /// Long lists of names alike but for a byte or two (one first word, one last word), so that
    /// the table's slots collide and its probing is what finds a name.
    @Test func agreesWithTheAppsSetsOnLongListsOfLikeNames() {
        let vocabulary = (0..<48).map { "notification\($0)" } + (0..<16).map { "n\($0)" } + (0..<16).map { "\($0)tificationEnabled" }
        var generator = SeededGenerator(seed: 0xF1E1D)
        for _ in 0..<500 {
            let list = (0..<Int.random(in: 0...40, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            let available = (0..<Int.random(in: 0...40, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            #expect(Self.compare(Self.set(list), available) == Self.expected(list, available), "\(list) against \(available)")
            #expect(Self.compare(Self.set(list), list.shuffled(using: &generator)) == (true, true))
        }
    }

    /// An empty list (an operation's `changedMetadataFields`, almost always) is answered without
    /// a table: listed in anything, and holding only what nothing offers.
    @Test func anEmptyListHoldsOnlyWhatNothingOffers() {
        #expect(Self.compare(Self.set([]), []) == (true, true))
        #expect(Self.compare(Self.set([]), ["id"]) == (true, false))
        #expect(Self.compare(Self.set([]), [""]) == (true, false))
    }

    /// Dart compares strings by code units: `café` precomposed and decomposed are two names.
    @Test func canonicallyEquivalentSpellingsAreTwoNames() {
        #expect(Self.names(Self.set(["caf\u{e9}", "cafe\u{301}"])).count == 2)
        #expect(Self.compare(Self.set(["caf\u{e9}"]), ["cafe\u{301}", "id"]) == (false, false))
        #expect(Self.compare(Self.set(["caf\u{e9}", "id"]), ["id", "caf\u{e9}", "id"]) == (true, true))
    }
}
