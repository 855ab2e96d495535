@testable import AuditBytes
@testable import AuditDetection
@testable import AuditRules
import Testing
import Foundation

@Suite struct KeyWordsTests {
    @Test(arguments: [
        ("refreshToken", ["refresh", "token"]),
        ("refresh_token", ["refresh", "token"]),
        ("REFRESH-TOKEN", ["refresh", "token"]),
        ("refresh.token", ["refresh", "token"]),
        ("Refresh Token", ["refresh", "token"]),
        ("APIKey", ["api", "key"]),
        ("x-api-key", ["x", "api", "key"]),
        ("oauth2Token", ["oauth2", "token"]),
        ("flutter.habiter_ai_config", ["flutter", "habiter", "ai", "config"]),
        ("", []),
    ])
    func splitsEverySpelling(_ key: String, _ words: [String]) {
        #expect(KeyWords.split(key) == words)
    }
}

@Suite struct NameMatcherTests {
    let names = TestSupport.builtinPack.names
    func rule(_ key: String) -> String? {
        names.match(key).map { TestSupport.builtinPack.nameRules[$0.ruleIndex].id }
    }

    @Test func longestNameWins() {
        #expect(rule("refresh_token") == "name.refresh-token")
        #expect(rule("auth_token") == "name.token")
        #expect(rule("clientSecret") == "name.client-secret")
        #expect(rule("secretKey") == "name.secret")
    }

    @Test func wholeWordsOnly() {
        #expect(rule("author") == nil)
        #expect(rule("tokenizer") == nil)
        #expect(rule("monkey") == nil)
        #expect(rule("bypass") == nil)
        #expect(rule("idempotencyKey") == nil)
    }

    @Test func pluralsMatch() {
        #expect(rule("tokens") == "name.token")
        #expect(rule("credentials") == "name.credential")
    }

    /// The literal search over a key's letters and digits only lets keys through: on keys made
    /// of the rules' names, their pieces, capitals, separators and other words, `match` answers
    /// as matching the key's words without it does.
    @Test func theLiteralSearchOnlyFiltersKeys() {
        let names = TestSupport.builtinPack.nameRules.flatMap(\.names)
        let pieces = ["_", "-", ".", " ", "x", "Habiter", "flutter.", "2", "S", "\u{e9}", "api", "key", "ToKeN", "pass"]
        var generator = SeededGenerator(seed: 0x4E_A3E5)
        for _ in 0..<5_000 {
            let key = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                Bool.random(using: &generator) ? names.randomElement(using: &generator)! : pieces.randomElement(using: &generator)!
            }.joined()
            var mixed = key
            if Bool.random(using: &generator) { mixed = key.uppercased() }
            #expect(self.names.match(mixed) == self.names.match(words: KeyWords.split(mixed)), "\(mixed.debugDescription)")
        }
    }

    @Test func metadataSuffixes() {
        #expect(names.match("tokenType")?.describesMetadata == true)
        #expect(names.match("passwordUpdatedAt")?.describesMetadata == true)
        #expect(names.match("refresh_token_expires_in")?.describesMetadata == true)
        #expect(names.match("accessToken")?.describesMetadata == false)
        #expect(names.match("type_token")?.describesMetadata == false)
    }
}

@Suite struct PlaceholderTests {
    @Test(arguments: [
        "<redacted>", "********", "YOUR_API_KEY", "your-token-here", "xxxxxxxxxxxx", "changeme", "${ACCESS_TOKEN}",
        "{{ token }}", "%s", "%(password)s", "$API_KEY", "[REDACTED:github-token]", "AKIAIOSFODNN7EXAMPLE",
        "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "Bearer <token>", "Bearer ${TOKEN}", "null", "  ", "aaaaaaaa", "•••••",
        "{token}", "placeholder", "Basic xxxxxxxx", "too_short", "password.mismatch", "min-length",
        "%d", "xxxx-xxxx", "TOKEN ********", "BEARER changeme", "Insert-Key-Here", "EXPIRED", "__--__",
        "gsk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "xoxp-572370529330-573807301142-572331691188-####################",
    ])
    func placeholders(_ value: String) {
        #expect(Placeholders.isPlaceholder(value))
    }

    @Test(arguments: [
        "Tr1cky-Wombat", "ghp_eN4QrCIu1isc4UxdJDJmATl4GjUQg1AoeaSY", "hunter22", "q8Zr-Wm3v-Tt5x", "Bearer c7zGVmbELfGmFFHF",
        "correct horse battery staple", "$ecret-1", "x1y2z3w4", "sk_live_KqWmRzTbVxYcNdLfGhJpSaUe",
        "sk_live_abcdefghijklmnopqrstuvwxyzab", "%sx", "Tokenizer9Qz7", "<unclosed",
        "AAAAAAAAAAC7hjsA+H3owFygUv4w5B67lcSx14zff9FCPADiNbSwYWgE", "Pa##word-42", "q8Zr***Wm3v-Tt5x",
    ])
    func notPlaceholders(_ value: String) {
        #expect(!Placeholders.isPlaceholder(value))
    }

    /// The markers are searched for in one pass, by first byte: the search agrees with a search
    /// for each marker, on the markers, their near misses inside other text, and seeded text.
    @Test func markerSearchAgreesWithASearchForEachMarker() {
        let markers = Placeholders.markers.map { String(decoding: UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount), as: UTF8.self) }
        var candidates: [String] = []
        for marker in markers {
            candidates += [marker, "x" + marker + "y", String(marker.dropLast()), "a" + String(marker.dropFirst()), marker + marker]
        }
        var generator = SeededGenerator(seed: 0x3A4)
        let alphabet = Array("exampldhrtcgnusy_-".utf8)
        for _ in 0..<5_000 {
            var text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            // A quarter hold a marker, or a marker cut short, somewhere.
            if Int.random(in: 0..<4, using: &generator) == 0 {
                let marker = Array(markers.randomElement(using: &generator)!.utf8)
                text.insert(contentsOf: marker.prefix(Int.random(in: marker.count - 1...marker.count, using: &generator)),
                            at: Int.random(in: 0...text.count, using: &generator))
            }
            candidates.append(String(decoding: text, as: UTF8.self))
        }
        var found = 0
        for text in candidates {
            let expected = markers.contains { text.contains($0) }
            if expected { found += 1 }
            var text = text
            #expect(text.withUTF8 { Placeholders.containsMarker($0) } == expected, "\(text)")
        }
        #expect(found > 50 && found < candidates.count - 1_000, "both answers are exercised")
    }

    /// The listed words are looked up as packed integers, in any letter case: the lookup agrees
    /// with the sets for every listed word, its near misses and seeded random words, lowercase,
    /// uppercase and capitalised, and packing keeps bytes apart.
    @Test func listedWordsAgreeWithTheSets() {
        let listed = Placeholders.words.union(Placeholders.statusWords)
        func isListed(_ word: String) -> Bool {
            var word = word
            return word.withUTF8 { Placeholders.isListedWord($0) }
        }
        var candidates = Array(listed)
        for word in listed {
            candidates += [String(word.dropLast()), word + "s", "x" + word, String(word.dropFirst())]
        }
        var generator = SeededGenerator(seed: 0x9A5)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz_-/".utf8)
        for _ in 0..<5_000 {
            candidates.append(String(decoding: (0..<Int.random(in: 0...15, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! },
                                     as: UTF8.self))
        }
        for word in candidates {
            #expect(isListed(word) == listed.contains(word), "\(word)")
            // In any letter case: the placeholder test asks before it lowercases the value.
            #expect(isListed(word.uppercased()) == listed.contains(word), "\(word.uppercased())")
            #expect(isListed(word.prefix(1).uppercased() + word.dropFirst()) == listed.contains(word), "\(word) capitalised")
        }
        var packed: [UInt128: String] = [:]
        for word in Set(candidates) where word.utf8.count < 16 {
            var bytes = word
            let key = bytes.withUTF8 { Placeholders.packedWord($0)! }
            #expect(packed.updateValue(word, forKey: key) == nil, "\(word) packs like another word")
        }
    }
}

@Suite struct ValueCredibilityTests {
    func credible(_ value: String, _ key: String, _ shape: ValueShape = .human) -> Bool {
        ValueCredibility.isCredible(value, keyWords: KeyWords.split(key), shape: shape)
    }

    @Test func credibleValues() {
        #expect(credible("hunter22", "password"))
        #expect(credible("correct horse battery staple", "password"))
        #expect(credible("https://user:pw@db.habiter.internal", "auth", .generated))
        #expect(credible("q8Zr-Wm3v-Tt5x", "token", .generated))
        #expect(credible("Bearer c7zGVmbELfGmFFHF", "authorization", .generated))
        #expect(credible("sunshine", "password"))
    }

    @Test func labelsPromptsAndEndpointsAreNot() {
        #expect(!credible("Enter your password", "password"))
        #expect(!credible("Password", "password"))
        #expect(!credible("Confirm", "confirmPassword"))
        #expect(!credible("Forgot it? Reset it here.", "password"))
        #expect(!credible("Use 12 or more characters with a number", "password"))
        #expect(!credible("https://auth.habiter.app/authorize", "auth", .generated))
        #expect(!credible("abc", "pwd"))
        #expect(!credible("<redacted>", "token", .generated))
        #expect(!credible("too_short", "password"))
        #expect(!credible("required", "password"))
        #expect(!credible("2026-03-02T10:00:00Z", "lastPasswordChange"))
        #expect(!credible("arn:aws:secretsmanager:eu-central-1:123456789012:secret:habiter", "secret", .generated))
    }

    @Test func generatedSecretsAreNotPlainWords() {
        #expect(!credible("morning", "tokens", .generated))
        #expect(!credible("stretching", "tokens", .generated))
        #expect(credible("stretching", "password", .human))
        #expect(credible("a3f9c2e1b7d45508", "token", .generated))
    }
}

@Suite struct SafeShapeTests {
    @Test(arguments: ["2026-11-30", "07:30", "07:30:15", "2026-11-30T07:30:00.000Z", "2026-11-30 07:30:00+01:00",
                      "Sun, 30 Nov 2026 07:30:00 GMT"])
    func datesAndTimes(_ text: String) { #expect(SafeShapes.isDateOrTime(text)) }

    @Test(arguments: ["2026-11-30X", "07:3", "hunter22", "2026-11-30T07:30:00abc"])
    func notDates(_ text: String) { #expect(!SafeShapes.isDateOrTime(text)) }
}

@Suite struct PrimitiveTests {
    @Test func entropy() {
        #expect(shannonEntropy("aaaaaaaa") == 0)
        #expect(abs(shannonEntropy("abcdabcd") - 2) < 1e-9)
    }

    /// Each count's term computed once (`EntropyTerms`) gives the plain sum to the bit: random
    /// texts of few and of many symbols, short and long, counts below and above the ones kept.
    @Test func entropyIsThePlainSumToTheBit() {
        func plain(_ bytes: [UInt8]) -> Double {
            var counts = [Int](repeating: 0, count: 256)
            for b in bytes { counts[Int(b)] += 1 }
            let n = Double(bytes.count)
            var entropy = 0.0
            for c in counts where c > 0 {
                let p = Double(c) / n
                entropy -= p * log2(p)
            }
            return entropy
        }
        var generator = SeededGenerator(seed: 0xE27)
        for round in 0..<3_000 {
            let symbols = [2, 4, 16, 62, 256][round % 5]
            let length = Int.random(in: 1...(round % 3 == 0 ? 600 : 64), using: &generator)
            let bytes = (0..<length).map { _ in UInt8(Int.random(in: 0..<symbols, using: &generator)) }
            let measured = bytes.withUnsafeBytes { shannonEntropy($0) }
            #expect(measured.bitPattern == plain(bytes).bitPattern, "\(length) bytes of \(symbols) symbols")
        }
    }

    @Test func prefilterFindsCaseInsensitiveLiterals() {
        let filter = LiteralPrefilter(literals: ["ghp_", "Bearer", "xy"])
        var found: [Int] = []
        var offsets: [Int] = []
        Array("token BEARER ghp_ and xY".utf8).withUnsafeBytes { filter.scan($0) { found.append($0); offsets.append($1) } }
        #expect(found == [1, 0, 2])
        #expect(offsets == [6, 13, 22])
        found = []
        Array("nothing here".utf8).withUnsafeBytes { filter.scan($0) { literal, _ in found.append(literal) } }
        #expect(found.isEmpty)
    }

    /// With a two-byte literal every byte pair is probed; without one, every other offset (with
    /// the three bytes there, for literals starting there or a byte before), three-byte literals
    /// among them or not; a candidate is compared eight bytes at a time where the value has them,
    /// case folded only where the literal has a letter (`[` is not `{`, `@` not `` ` ``): each
    /// against a naive search, which literals and where (windowed pattern searches start from
    /// where the keywords are).
    @Test(arguments: [["xy"], ["xyz", "x_y"]])
    func prefilterAgreesWithANaiveSearch(_ short: [String]) {
        let literals = ["ghp_", "Bearer", "AKIA", "-----begin", "sk_live_", "\u{E9}t\u{E9}", "{{x", "a`b`c"] + short
        let filter = LiteralPrefilter(literals: literals)
        let lowered = literals.map { Array($0.utf8).map(ASCIICase.lower) }
        var generator = SeededGenerator(seed: 131)
        let pieces = literals + ["GHP_", "bEaReR", "XY", "XyZ", "akia", "-----BEGIN", "SK_LIVE_", "x", "y", "z", "_", " ", "\u{C9}T\u{C9}", "\u{FF}", "\0",
                                 "[[X", "{{X", "A@B@C", "A`B`C", "sk_live"]
        for _ in 0..<4000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            var found: [[Int]] = []
            bytes.withUnsafeBytes { filter.scan($0) { found.append([$0, $1]) } }
            // Every occurrence, by start position, then literal order (the order of the scan).
            let lower = bytes.map(ASCIICase.lower)
            var expected: [[Int]] = []
            for start in lower.indices {
                for (index, literal) in lowered.enumerated() where lower[start...].starts(with: literal) { expected.append([index, start]) }
            }
            #expect(found == expected, "\(text)")
        }
    }

    @Test func base64() {
        #expect(Base64.decode(Array("aGVsbG8=".utf8), alphabet: .standard) == Array("hello".utf8))
        #expect(Base64.decode(Array("aGVsbG8".utf8), alphabet: .standard) == Array("hello".utf8))
        #expect(Base64.decode(Array("aGVsbG9=".utf8), alphabet: .standard) == nil)  // non-zero trailing bits
        #expect(Base64.decode(Array("a-_b".utf8), alphabet: .url) != nil)
        #expect(Base64.decode(Array("a-_b".utf8), alphabet: .standard) == nil)
        #expect(Base64.decode(Array("a".utf8), alphabet: .standard) == nil)
    }

    @Test func sha256() {
        #expect(SHA256.hexDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = String(repeating: "a", count: 1000)
        #expect(SHA256.hexDigest(long) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // 56 bytes: the padding takes a block of its own (FIPS 180-2, appendix B.2).
        #expect(SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // The one-shot hash pads once; `update` buffers: both agree at every length around a block.
        for length in 0...200 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var streamed = SHA256()
            streamed.update(bytes.prefix(length / 3))
            streamed.update(bytes.dropFirst(length / 3))
            #expect(SHA256.hash(bytes) == streamed.finalize(), "length \(length)")
        }
    }

    @Test func sha256FromACachedFirstBlock() {
        // Messages that share their first 64 bytes, and some that do not, in turn.
        var cache = SHA256.FirstBlockCache()
        let shared = Array(repeating: UInt8(ascii: "p"), count: 64)
        for (index, length) in [0, 63, 64, 65, 100, 64, 130, 20, 200].enumerated() {
            let prefix = index % 3 == 2 ? Array(repeating: UInt8(ascii: "q"), count: 64) : shared
            let bytes = Array((prefix + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }).prefix(length))
            #expect(SHA256.hexDigest(bytes: bytes, byteCount: 16, cache: &cache) == SHA256.hexDigest(bytes: bytes, byteCount: 16),
                    "length \(length)")
        }
    }

    @Test func sha256FromAFirstBlockState() {
        // The block's state, then the rest: the digest of the whole, at every length around a block.
        let block = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let state = SHA256.FirstBlockState(block: block)
        for length in 0...200 {
            let rest = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
            #expect(rest.withUnsafeBytes { SHA256.hash(after: state, $0) } == SHA256.hash(block + rest), "length \(length)")
        }
    }

    @Test func jwtValidator() {
        let good = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LVA1MEFxZyIsImlhdCI6MTc2NDU0NzIwMCwiZXhwIjoxNzY0NTUwODAwfQ.oBcMqHaWB8m25yX9H3bJP-Nih7TO7DKDQBgjrdBG1yw"
        let cursor = "eyJjdXJzb3IiOiI0MiJ9.eyJwYWdlIjoiMiJ9Cg.c2lnbmF0dXJl"
        #expect(Array(good.utf8).withUnsafeBytes { Validators.check("jwt", $0) } == .valid)
        #expect(Array(cursor.utf8).withUnsafeBytes { Validators.check("jwt", $0) } == .notThisFormat)
    }
}

@Suite struct RegexTests {
    @Test func secretGroupAndLimits() throws {
        let matcher = RegexMatcher()
        let regex = try Regex("key=(?<secret>[a-z]+)")
        let m = try Array("x key=abc y".utf8).withUnsafeBytes { try matcher.firstMatch(regex, in: $0) }
        #expect(m?.secret == 6..<9)
        let catastrophic = try Regex("^(a+)+$")
        let subject = Array(String(repeating: "a", count: 40) + "b").map { $0.asciiValue! }
        #expect(throws: RegexError.limitExceeded) {
            try subject.withUnsafeBytes { try matcher.firstMatch(catastrophic, in: $0) }
        }
        #expect(throws: RegexError.self) { try Regex("(unclosed") }
    }

    @Test func invalidUTF8SubjectsDoNotFail() throws {
        let matcher = RegexMatcher()
        let regex = try Regex("ghp_(?<secret>[A-Za-z0-9]{4})")
        let subject: [UInt8] = [0xFF, 0xC3] + Array("ghp_abcd".utf8) + [0x80]
        let m = try subject.withUnsafeBytes { try matcher.firstMatch(regex, in: $0) }
        #expect(m?.secret == 6..<10)
    }

    /// A pattern is JIT-compiled before its first match, once, even when threads meet it at
    /// once: every thread's matches are right and the code is JIT code afterwards.
    @Test func jitCompilationOnFirstMatchFromManyThreads() async throws {
        let regex = try Regex("(?i)token[=:](?<secret>[a-z0-9]{8,})")
        let subject = Array("a=1 TOKEN=abcd1234ef b=2 token:zz99yy88".utf8)
        let secrets = await withTaskGroup(of: [Range<Int>?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let matcher = RegexMatcher()
                    return (try? subject.withUnsafeBytes { try matcher.allMatches(regex, in: $0) }.map(\.secret)) ?? []
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(secrets == Array(repeating: [10..<20, 31..<39], count: 8))
        #expect(regex.isJITCompiled)
    }
}
