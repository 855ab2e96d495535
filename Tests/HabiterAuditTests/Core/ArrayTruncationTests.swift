import AuditBytes
import Testing

/// `truncate(to:)` keeps exactly the first elements, and `copied(from:)` copies exactly the
/// last, whatever the count asked for.
@Suite struct ArrayTruncationTests {
    @Test func keepsThePrefix() {
        let whole = ["a", "b", "c", "d"]
        for count in 0...6 {
            var array = whole
            array.truncate(to: count)
            #expect(array == Array(whole.prefix(count)), "to \(count)")
        }
        var empty: [(name: String, offset: Int)] = []
        empty.truncate(to: 0)
        #expect(empty.isEmpty)
    }

    @Test func copiesTheSuffix() {
        let whole = ["a", "b", "c", "d"]
        for start in 0...6 {
            #expect(whole.copied(from: start) == Array(whole.dropFirst(start)), "from \(start)")
        }
        #expect([(name: String, offset: Int)]().copied(from: 0).isEmpty)
    }
}
