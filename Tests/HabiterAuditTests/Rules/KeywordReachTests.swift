import AuditBytes
@testable import AuditDetection
@testable import AuditRules
import Testing

/// `KeywordReach`: how far before a keyword a pattern's match can start, and when nothing can
/// be promised. A reach too small would make windowed searches miss matches, so every case that
/// must not get one is here too.
@Suite struct KeywordReachTests {
    static func reach(_ pattern: String, _ keywords: [String] = ["token"]) -> Int? {
        KeywordReach.of(pattern: pattern, keywords: keywords)
    }

    @Test func aKeywordAfterABoundedPrefix() {
        #expect(Self.reach("ghp_[A-Za-z0-9]{36}", ["ghp_"]) == 0)
        #expect(Self.reach("(?<![A-Za-z0-9])(?<secret>tok)en") == 0)
        #expect(Self.reach("x{3}token") == 3)
        #expect(Self.reach("(?i)[a-z_.-]{0,5}?token") == 5)
        #expect(Self.reach("\\btoken\\s*=") == 0)
        #expect(Self.reach("\\Qx.token\\E") == 2)
        #expect(Self.reach("(?:token){2,}") == 0)
        // Each character a class or `.` may match beyond ASCII counts four bytes.
        #expect(Self.reach(".{2}token") == 8)
        #expect(Self.reach("[^a]token") == 4)
        #expect(Self.reach("\\d\\D\\w\\Wtoken") == 10)
        #expect(Self.reach("(?i)\u{E9}?token") == 4)
        #expect(Self.reach("\u{E9}token") == 2)
        // Zero-width parts take nothing; a DEFINE group never matches where it stands.
        #expect(Self.reach("(?<=a)(?=tok)(?!x)token(?(DEFINE)(?<n>[a-z]+))") == 0)
        #expect(Self.reach("(?#comment)(?i)(?-i:T)oken") == 0)
    }

    @Test func everyBranchMustHoldOne() {
        let keywords = ["api_key", "api-key", "api.key", "apikey", "secret"]
        #expect(Self.reach("(?:api[_.-]?key|client_secret)=", keywords) == 7)
        // "api key" is no keyword: a match may hold none.
        #expect(Self.reach("(?:api[_. -]?key|secret)=", keywords) == nil)
        #expect(Self.reach("(?:token|x)") == nil)
        #expect(Self.reach("(?(<a>)token|)") == nil)
        #expect(Self.reach("(?|(?<s>token)|(?<s>tokens))") == 0)
        // The case of a keyword does not matter: the prefilter folds it.
        #expect(Self.reach("TOKEN") == 0)
    }

    @Test func nothingIsSureOfAnUnboundedOrOptionalPart() {
        #expect(Self.reach("[a-z]*token") == nil)
        #expect(Self.reach("[a-z]+token") == nil)
        #expect(Self.reach("(?:token)?x") == nil)
        #expect(Self.reach("(?:token){0,2}") == nil)
        #expect(Self.reach("(?=token)\\w+") == nil)
        #expect(Self.reach("(?<=token)\\w+") == nil)
        #expect(Self.reach("(a)\\1token") == nil)
        #expect(Self.reach("(?<n>a)(?&n)token") == nil)
        #expect(Self.reach("x\\Xtoken") == nil)
        #expect(Self.reach("t[o]ken") == 0)
        #expect(Self.reach("t.ken") == nil)
        #expect(Self.reach("token", []) == nil)
        #expect(Self.reach("tok", ["token"]) == nil)
        // Beyond ASCII a keyword's letters are as written, as the prefilter finds them.
        #expect(Self.reach("\u{C9}t\u{C9}", ["\u{C9}T\u{C9}"]) == 0)
        #expect(Self.reach("\u{C9}t\u{C9}", ["\u{E9}t\u{E9}"]) == nil)
        #expect(Self.reach("(?i)\u{C9}t\u{C9}", ["\u{C9}t\u{C9}"]) == nil)
    }

    @Test func syntaxItDoesNotReadGivesNothing() {
        for pattern in ["a\\Ktoken", "(?x)token", "(*UTF)token", "(?C1)token", "x{,2}token", "x{ 2}token", "x{3,2}token", "\\N{U+74}oken", "token\\L", "(?i"] {
            #expect(Self.reach(pattern) == nil, "\(pattern)")
        }
        #expect(throws: UnsupportedPatternSyntax.self) { try PatternSyntax.parse("(?x) token") }
        // `\N{U+74}` is the character `t`, not the text `{U+74}` holding the keyword `{u+`.
        #expect(Self.reach("\\N{U+74}oken", ["{u+"]) == nil)
    }

    /// A brace that is no quantifier is a literal, as PCRE2 reads it.
    @Test func aLiteralBrace() throws {
        #expect(Self.reach("\\{token}") == 1)
        #expect(Self.reach("{token}") == 1)
        #expect(Self.reach("x{2,}token") == nil)
        #expect(Self.reach("x{1,2}token") == 2)
    }

    @Test func everyBuiltinPatternIsRead() throws {
        let unread = TestSupport.builtinPack.patterns.rules.filter { rule in (try? PatternSyntax.parse(rule.pattern ?? "")) == nil }
        #expect(unread.map(\.id) == [])
    }

    /// Whether `match` holds one of `keywords` (lowercased) starting at most `reach` bytes after
    /// its start: the promise a reach makes.
    static func holdsKeyword(_ match: Range<Int>, in lower: [UInt8], keywords: [[UInt8]], reach: Int) -> Bool {
        keywords.contains { keyword in
            (match.lowerBound...min(match.lowerBound + reach, match.upperBound)).contains { start in
                start + keyword.count <= match.upperBound && lower[start...].starts(with: keyword)
            }
        }
    }

    /// Random patterns of literals, classes, groups, alternatives, quantifiers and lookarounds:
    /// wherever a reach is claimed, every match PCRE2 finds in random text keeps it.
    @Test func randomPatternsKeepTheirPromise() throws {
        var generator = SeededGenerator(seed: 777)
        let atoms = ["t", "o", "k", "e", "n", "a", "x", "_", "T", "[a-z]", "[ok]", "[^a]", "\\d", "\\w", ".", "[_-]", "\\b", "(?<!x)", "(?i)"]
        let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{0,3}", "{1,2}", "+?", "{2,}"]
        func sequence(_ depth: Int) -> String {
            (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                let atom: String
                switch Int.random(in: 0..<10, using: &generator) {
                case 0 where depth < 2: atom = "(?:" + alternatives(depth + 1) + ")"
                case 1 where depth < 2: atom = "(?=" + sequence(depth + 1) + ")"
                case 2, 3: atom = ["token", "ok", "ken", "tok"].randomElement(using: &generator)!
                default: atom = atoms.randomElement(using: &generator)!
                }
                let bare = atom == "\\b" || atom.hasPrefix("(?<!") || atom.hasPrefix("(?=") || atom == "(?i)"
                return atom + (bare ? "" : quantifiers.randomElement(using: &generator)!)
            }.joined()
        }
        func alternatives(_ depth: Int) -> String {
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in sequence(depth) }.joined(separator: "|")
        }
        let keywordSets = [["token"], ["ok", "ke"], ["tok", "en"], ["ken"]]
        let alphabet = Array("tokenTOKENax_-1 ")
        let matcher = RegexMatcher()
        var promised = 0
        for _ in 0..<6000 {
            let pattern = alternatives(0)
            let keywords = keywordSets.randomElement(using: &generator)!
            guard let reach = KeywordReach.of(pattern: pattern, keywords: keywords), let regex = try? Regex(pattern) else { continue }
            promised += 1
            let lowered = keywords.map { Array($0.utf8) }
            for _ in 0..<30 {
                let text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
                let bytes = Array(text.utf8)
                let lower = bytes.map(ASCIICase.lower)
                // A random pattern may backtrack past the match limit: that text says nothing.
                guard let matches = try? bytes.withUnsafeBytes({ try matcher.allMatches(regex, in: $0) }) else { continue }
                for m in matches {
                    #expect(Self.holdsKeyword(m.range, in: lower, keywords: lowered, reach: reach), "\(pattern) on \(text)")
                }
            }
        }
        #expect(promised > 300)
    }

    /// Every match of every built-in example holds one of its rule's keywords within the reach
    /// of its start: the promise, checked on real matches.
    @Test func builtinExamplesKeepTheirRulesPromise() throws {
        let engine = TestSupport.builtinPack.patterns
        let matcher = RegexMatcher()
        var checked = 0
        for (index, rule) in engine.rules.enumerated() {
            guard let reach = KeywordReach.of(pattern: rule.pattern!, keywords: rule.keywords) else { continue }
            let keywords = rule.keywords.map { Array($0.utf8).map(ASCIICase.lower) }
            for example in rule.examples {
                let bytes = Array(example.utf8)
                let lower = bytes.map(ASCIICase.lower)
                let matches = try bytes.withUnsafeBytes { try matcher.allMatches(engine.regexes[index], in: $0) }
                for m in matches {
                    #expect(Self.holdsKeyword(m.range, in: lower, keywords: keywords, reach: reach),
                            "\(rule.id): a match without a keyword within \(reach) bytes of its start")
                    checked += 1
                }
            }
        }
        #expect(checked > 300)
    }

    /// Under `(?i)` PCRE2 lets U+017F and U+212A, and no other character beyond ASCII, match an
    /// ASCII letter: windowed searches are safe on any value without those two.
    @Test func onlyTwoCharactersBeyondASCIIFoldToAnASCIILetter() throws {
        let letter = try Regex("(?i)[a-z]")
        let matcher = RegexMatcher()
        var folding: [UInt32] = []
        for code in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(code) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            if try bytes.withUnsafeBytes({ try matcher.firstMatch(letter, in: $0) }) != nil { folding.append(code) }
        }
        #expect(folding == [0x17F, 0x212A])
        #expect(PatternEngine.foldsLikeASCII(UnsafeRawBufferPointer(start: nil, count: 0)))
        for (text, expected) in [("to\u{212A}en", false), ("\u{17F}ecret", false), ("token \u{E9}\u{212B}", true)] {
            #expect(Array(text.utf8).withUnsafeBytes(PatternEngine.foldsLikeASCII) == expected, "\(text)")
        }
    }
}
