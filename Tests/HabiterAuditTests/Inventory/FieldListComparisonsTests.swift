@testable import AuditDetection
import Testing

/// `FieldListComparisons` answers as `FieldNameSet.compare` does, whatever it kept before: its
/// inputs are told apart by every name and by where the list ends and the available names begin.
@Suite struct FieldListComparisonsTests {
    static func answer(_ comparisons: FieldListComparisons, _ list: [String], _ available: [String]) -> (Bool, Bool) {
        let answer = FieldNameSetTests.set(list).withView { list in
            comparisons.compare(list) { body in
                for var name in available { name.withUTF8(body) }
            }
        }
        return (answer.setIsAvailable, answer.availableAreInSet)
    }

    /// Pairs of inputs alike but for one thing, asked one after the other so that the second
    /// meets the first kept: names split elsewhere, a name moved across the list's end, a
    /// duplicate, another order, one byte or one length apart.
    @Test func inputsAlikeButForOneThingAreToldApart() {
        let pairs: [(([String], [String]), ([String], [String]))] = [
            ((["ab", "c"], ["ab", "c"]), (["a", "bc"], ["ab", "c"])),
            // Four zero bytes inside a name, where a length of zero would stand between two.
            ((["a\u{0}\u{0}\u{0}\u{0}b"], ["a", "b"]), (["a", "b"], ["a", "b"])),
            ((["a"], ["b", "a"]), (["a", "b"], ["a"])),
            ((["a", "b"], ["a"]), (["a"], ["b", "a"])),
            ((["id", "name"], ["id", "name"]), (["id", "name", "name"], ["id", "name", "notes"])),
            ((["id", "name"], ["name", "id"]), (["id", "name"], ["name", "id", "x"])),
            ((["count"], ["count"]), (["count"], ["Count"])),
            ((["count"], ["count", ""]), (["count"], ["count"])),
            ((["\u{0}"], ["\u{0}"]), ([""], ["\u{0}"])),
        ]
        for (first, second) in pairs {
            let comparisons = FieldListComparisons()
            for (list, available) in [first, second, first, second] {
                #expect(Self.answer(comparisons, list, available) == FieldNameSetTests.expected(list, available), "\(list) against \(available)")
            }
        }
    }

    /// Inputs past the room kept are compared afresh: a long list, and two long lists alike in
    /// their first names, asked in turn.
    @Test func inputsPastTheRoomAreComparedAfresh() {
        let comparisons = FieldListComparisons()
        let long = (0..<600).map { "field\($0)" }
        for (list, available) in [(long, long), (long + ["x"], long), (long, long + ["x"]), (long, long), (["id"], ["id"])] {
            #expect(Self.answer(comparisons, list, available) == FieldNameSetTests.expected(list, available), "\(list.count) names against \(available.count)")
        }
    }

    /// Random inputs from a small vocabulary, many of them repeats (kept, given up and kept
    /// again), answered as a comparison made afresh answers them.
    @Test func answersAsAFreshComparisonOnRepeatingInputs() {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        let comparisons = FieldListComparisons()
        let vocabulary = ["", "a", "ab", "b", "id", "name", "count", "completed", "createdAt", "caf\u{e9}", "cafe\u{301}"]
        func input() -> [String] {
            (0..<Int.random(in: 0...5, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
        }
        let inputs = (0..<12).map { _ in (input(), input()) }
        for _ in 0..<3000 {
            let (list, available) = Bool.random(using: &generator) ? inputs.randomElement(using: &generator)! : (input(), input())
            #expect(Self.answer(comparisons, list, available) == FieldNameSetTests.expected(list, available), "\(list) against \(available)")
        }
    }
}
