import AuditBytes
import Testing

/// `sortByIndex` sorts as `sort(by:)` does, ties in their order (stably), for elements that
/// hold references: random keys with many ties, each element carrying its original place.
@Suite struct IndexSortTests {
    @Test func sortsAsTheStandardLibrarySorts() {
        var state: UInt64 = 0x50_47
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for count in [0, 1, 2, 3, 10, 100, 1000] {
            for keys in [1, 3, 1000] {
                let elements = (0..<count).map { (key: next(keys), place: "element \($0) " + String(repeating: "x", count: next(20))) }
                var sorted = elements
                sorted.sortByIndex { $0.key < $1.key }
                // Stable: of equal keys, the earlier first.
                let expected = elements.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
                let same = sorted.map(\.key) == expected.map(\.key) && sorted.map(\.place) == expected.map(\.place)
                #expect(same, "\(count) elements, \(keys) keys")
            }
        }
    }
}
