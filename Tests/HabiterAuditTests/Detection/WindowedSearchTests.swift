@testable import AuditDetection
@testable import AuditRules
import Testing

/// Long values are searched only near the keywords of rules with a `KeywordReach`: the hits
/// must be exactly those of searching them whole.
@Suite struct WindowedSearchTests {
    static let pack = TestSupport.builtinPack.patterns
    /// The built-in engine searching every value in windows, and one searching every value whole.
    static let windowed = PatternEngine(rules: pack.rules, regexes: pack.regexes, windowedSearchLength: 0)
    static let whole = PatternEngine(rules: pack.rules, regexes: pack.regexes, windowedSearchLength: .max)

    static func hits(_ engine: PatternEngine, _ text: [UInt8], context: ContextMask = 0) throws -> [PatternHit] {
        try TestSupport.patternHits(engine, text, context: context)
    }

    /// Texts from the built-in examples, keywords and noise, in random order and number: secrets
    /// far from and near their keywords, keywords without secrets, long blank runs, line breaks.
    @Test func windowsFindWhatAWholeSearchFinds() throws {
        let rules = Self.pack.rules
        let examples = rules.flatMap(\.examples)
        let keywords = Array(Set(rules.flatMap(\.keywords)))
        let separators = [" ", "\n", "=", ": ", "\"", "'", ";", "&", "@", "/", "\t", "\r\n", ", ", "token = ", "\"api_key\": \""]
        var generator = SeededGenerator(seed: 2323)
        func noise() -> String {
            let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/")
            return String((0..<Int.random(in: 1...300, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        var found = 0
        for round in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0...2: text += examples.randomElement(using: &generator)!
                case 3...4: text += keywords.randomElement(using: &generator)!
                case 5: text += String(repeating: Bool.random(using: &generator) ? " " : "\t", count: Int.random(in: 1...700, using: &generator))
                case 6...7: text += noise()
                default: text += separators.randomElement(using: &generator)!
                }
            }
            let bytes = Array(text.utf8)
            let context: ContextMask = round % 4 == 0 ? .random(in: 0 ... .max, using: &generator) : 0
            let expected = try Self.hits(Self.whole, bytes, context: context)
            #expect(try Self.hits(Self.windowed, bytes, context: context) == expected, "round \(round)")
            found += expected.count
        }
        #expect(found > 1000)
    }

    /// Each example alone, deep inside a long value, with its keywords beside it and far away.
    @Test func eachExampleFarFromItsKeywords() throws {
        let padding = String(repeating: "x7", count: 3000)
        for rule in Self.pack.rules {
            for example in rule.examples {
                for text in [padding + example + padding, padding + (rule.keywords.first ?? "") + padding + example,
                             example + "\n" + padding + (rule.keywords.last ?? "") + "\n" + example] {
                    let bytes = Array(text.utf8)
                    #expect(try Self.hits(Self.windowed, bytes) == Self.hits(Self.whole, bytes), "\(rule.id)")
                }
            }
        }
    }

    /// A value with more matches than a search reports stops at the same one.
    @Test func theMatchLimitIsTheSame() throws {
        var generator = SeededGenerator(seed: 64)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let tokens = (0..<80).map { _ in "ghp_" + String((0..<36).map { _ in alphabet.randomElement(using: &generator)! }) }
        let bytes = Array(tokens.joined(separator: " ").utf8)
        let expected = try Self.hits(Self.whole, bytes)
        #expect(expected.count == 64)
        #expect(try Self.hits(Self.windowed, bytes) == expected)
    }

    /// Keywords so dense that windows would cover the value: it is searched whole.
    @Test func denseKeywordsAreSearchedWhole() throws {
        let line = "token = 'Zq8rWm3vTt5xLp2kB7nC4dF9'\n"
        let bytes = Array(String(repeating: line, count: 600).utf8)
        let expected = try Self.hits(Self.whole, bytes)
        #expect(expected.count == 64)
        #expect(try Self.hits(Self.windowed, bytes) == expected)
    }

    /// A value with a character that folds to an ASCII letter under `(?i)` is searched whole:
    /// `to\u{212A}en` is `token` to PCRE2 but not to the prefilter.
    @Test func aKelvinSignIsSearchedWhole() throws {
        let secret = "Zq8rWm3vTt5xLp2kB7nC4dF9"
        let text = "api_key = 'x'\n" + String(repeating: " ", count: 5000) + "\nTO\u{212A}EN = '\(secret)'"
        let bytes = Array(text.utf8)
        let expected = try Self.hits(Self.whole, bytes)
        #expect(!expected.isEmpty)
        #expect(try Self.hits(Self.windowed, bytes) == expected)
    }

    /// `allMatches(_:in:near:reach:)` against `allMatches` on one pattern, and what it does not
    /// find: a match that starts farther before its keyword than the reach allows.
    @Test func matcherWindows() throws {
        let regex = try Regex("[a-z]{0,3}key[0-9]*", startLimited: true)
        let plain = try Regex("[a-z]{0,3}key[0-9]*")
        let matcher = RegexMatcher()
        let text = Array("abckey1 xx key22key3 ....... zkey".utf8)
        let anchors = [3, 11, 16, 30]
        let windowed = try text.withUnsafeBytes { try matcher.allMatches(regex, in: $0, near: anchors, reach: 3) }
        let whole = try text.withUnsafeBytes { try matcher.allMatches(plain, in: $0) }
        #expect(windowed == whole)
        #expect(windowed.map(\.range) == [0..<7, 11..<16, 16..<20, 29..<33])
        // An anchor too far from a match's start: the match is not found, as the reach promises.
        #expect(try text.withUnsafeBytes { try matcher.allMatches(regex, in: $0, near: [5], reach: 1) }.isEmpty)
        #expect(try text.withUnsafeBytes { try matcher.allMatches(regex, in: $0, near: [], reach: 3) }.isEmpty)
    }
}
