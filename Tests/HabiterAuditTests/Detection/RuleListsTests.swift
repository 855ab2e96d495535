@testable import AuditDetection
import Testing

/// The rule lists in raw memory read back as the arrays they were made of.
@Suite struct RuleListsTests {
    @Test func eachListReadsBackAsGiven() {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<200 {
            let lists = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0..<500, using: &generator) }
            }
            let raw = RuleLists(lists)
            defer { raw.deallocate() }
            for (index, list) in lists.enumerated() {
                #expect(raw[index].map(Int.init) == list)
            }
        }
    }
}
