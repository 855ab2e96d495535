@testable import AuditDetection
@testable import AuditRules
import Testing

/// A judged key is scanned and searched for the context rules' keywords in one pass of the
/// prefilter (`PatternEngine.scanKey`): the hits must be the scan's and the mask
/// `contextMask(of:)`'s, for keys too short for every rule, keys of any length, and keys long
/// enough to be searched in windows.
@Suite struct ScanKeyTests {
    static let engine = TestSupport.builtinPack.patterns

    @Test func scanKeyAnswersAsTheScanAndTheContextMask() throws {
        let rules = Self.engine.rules
        let contextKeywords = Self.engine.contextRules.flatMap { rules[$0].keywords }
        let keywords = Array(Set(rules.flatMap(\.keywords)))
        let examples = rules.flatMap(\.examples)
        let pieces = ["_", "-", ".", "x", "Key", "id", "flutter.", String(repeating: "a", count: 3000)]
        #expect(!contextKeywords.isEmpty)
        var generator = SeededGenerator(seed: 4242)
        var masks = 0, hits = 0, short = 0
        // One scratch for all, as a scan keeps it.
        var scratch = PatternScratch()
        for _ in 0..<1500 {
            var key = ""
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0...2: key += contextKeywords.randomElement(using: &generator)!
                case 3: key += keywords.randomElement(using: &generator)!
                case 4: key += examples.randomElement(using: &generator)!
                default: key += pieces.randomElement(using: &generator)!
                }
            }
            let bytes = Array(key.utf8)
            var found: [PatternHit] = []
            let (mask, expectedMask) = try bytes.withUnsafeBytes { value in
                (try Self.engine.scanKey(value, matcher: RegexMatcher(), scratch: &scratch) { found.append($0) }, Self.engine.contextMask(of: value))
            }
            #expect(mask == expectedMask)
            #expect(found == (try TestSupport.patternHits(Self.engine, bytes)))
            if mask != 0 { masks += 1 }
            if !found.isEmpty { hits += 1 }
            if bytes.count < Self.engine.minimumValueLength { short += 1 }
        }
        // The keys reach every case.
        #expect(masks > 100 && hits > 100 && short > 10)
    }
}
