@testable import AuditDetection
import Testing

/// The rule lists in raw memory read back as the arrays they were made of, each with the bits of
/// the context rules among its rules.
@Suite struct RuleListsTests {
    @Test func eachListReadsBackAsGiven() {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<200 {
            let lists = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0..<500, using: &generator) }
            }
            // About one rule in eight a context rule, with a bit of its own.
            let ruleBits = (0..<500).map { _ in Int.random(in: 0..<8, using: &generator) == 0 ? ContextMask(1) << Int.random(in: 0..<64, using: &generator) : 0 }
            let raw = RuleLists(lists, ruleContextBits: ruleBits)
            defer { raw.deallocate() }
            for (index, list) in lists.enumerated() {
                #expect(raw[index].map(Int.init) == list)
                #expect(raw.contextMask(ofList: index) == list.reduce(0) { $0 | ruleBits[$1] })
            }
        }
    }
}
