@testable import AuditBytes
@testable import AuditInputs
import Foundation
import Testing

@Suite struct Base64LayerDecoderTests {
    let decoder = Base64LayerDecoder()

    /// The first pass's 16-byte masks against each byte's values in the two alphabets: every
    /// byte value at every place of a block of symbols, and random blocks.
    @Test func symbolMasksAgreeWithTheAlphabets() {
        func expectMasks(_ block: [UInt8]) {
            var symbols: UInt64 = 0, standardOnly: UInt64 = 0, urlOnly: UInt64 = 0
            for (i, b) in block.enumerated() {
                let (standard, url) = (Base64.value(b, .standard) != nil, Base64.value(b, .url) != nil)
                if standard || url { symbols |= 1 << UInt64(i) }
                if standard && !url { standardOnly |= 1 << UInt64(i) }
                if url && !standard { urlOnly |= 1 << UInt64(i) }
            }
            let masks = block.withUnsafeBytes { Base64.symbolMasks16($0.baseAddress!) }
            #expect(masks.symbols == symbols && masks.standardOnly == standardOnly && masks.urlOnly == urlOnly, "\(block)")
        }
        for b in 0...255 {
            for place in 0..<16 {
                var block = Array("AZaz09+/-_Qq5kK=".utf8)
                block[place] = UInt8(b)
                expectMasks(block)
            }
        }
        var generator = SeededGenerator(seed: 0xBA5E_6416)
        for _ in 0..<2_000 { expectMasks((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
    }

    /// Text of one alphabet opens at any length; a symbol of the other alphabet or a byte of
    /// neither at any place of its first 64 bytes (the first pass's blocks) turns it away.
    @Test func eachPlaceOfTheFirstBlocksDecides() {
        let text = String(repeating: "???", count: 24)  // "Pz8/" in standard base64, "Pz8_" in URL-safe
        for url in [false, true] {
            let encoded = Array(LayerTesting.base64(Array(text.utf8), url: url).utf8)
            #expect(LayerTesting.string(LayerTesting.decode(decoder, encoded)) == text)
            for place in 0..<64 {
                for foreign in [url ? UInt8(ascii: "+") : UInt8(ascii: "-"), UInt8(ascii: ".")] {
                    var changed = encoded
                    changed[place] = foreign
                    #expect(LayerTesting.decode(decoder, changed) == nil, "\(foreign) at \(place), url \(url)")
                }
            }
        }
    }

    /// JSON comes back as text; the scan offers it to the JSON decoder next (`!base64!json`).
    @Test func jsonOpensAsText() {
        let json = #"{"apiKey":"fake-key-0123456789"}"#
        let value = LayerTesting.base64(json)
        #expect(value == "eyJhcGlLZXkiOiJmYWtlLWtleS0wMTIzNDU2Nzg5In0=")
        let layer = LayerTesting.decode(decoder, value)
        #expect(LayerTesting.isText(layer))
        #expect(layer?.bytes == Array(json.utf8))
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "base64")
        let findings = TestSupport.scan("{\"blob\": \"\(value)\"}").findings
        #expect(findings.map(\.path.description) == ["/blob!base64!json/apiKey"])
    }

    @Test func urlSafeUnpaddedJSON() throws {
        let json = #"["???>>>", {"a":"~~~"}]"#
        let value = LayerTesting.base64(json, url: true, padded: false)
        try #require(value.contains("-") || value.contains("_"))
        try #require(!value.hasSuffix("="))
        let layer = LayerTesting.decode(decoder, value)
        #expect(LayerTesting.isText(layer))
        #expect(layer?.bytes == Array(json.utf8))
    }

    @Test(arguments: [
        "refresh_token=fake-token-abc123",
        "{name} is a friendly placeholder, not JSON",   // starts like JSON, read as text
        "Пароль: фальшивый-пароль-123",                 // UTF-8 beyond ASCII
        "line one\r\nline two\ttabbed\n",
    ])
    func textOpensAsText(_ text: String) {
        let layer = LayerTesting.decode(decoder, LayerTesting.base64(text))
        #expect(LayerTesting.isText(layer))
        #expect(LayerTesting.string(layer) == text)
    }

    @Test func mimeAndAndroidLineBreaks() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog; fake-token-0123. ", count: 5)
        let plain = LayerTesting.base64(text)
        var mime = ""
        var android = ""
        var rest = Substring(plain)
        while !rest.isEmpty {
            mime += rest.prefix(76) + "\r\n"
            android += rest.prefix(76) + "\n"
            rest = rest.dropFirst(76)
        }
        #expect(LayerTesting.string(LayerTesting.decode(decoder, mime)) == text)
        #expect(LayerTesting.string(LayerTesting.decode(decoder, android)) == text)
    }

    @Test func gzipOpensAsBytesForTheGzipDecoder() {
        let json = #"{"refresh_token":"fake-refresh-0123456789"}"#
        let gzip = LayerTesting.gzip(Array(json.utf8))
        let layer = LayerTesting.decode(decoder, LayerTesting.base64(gzip))
        #expect(LayerTesting.isText(layer))
        #expect(layer?.bytes == gzip)
        // The scanner offers the text layer to the decoders again: the gzip decoder opens it.
        let inner = LayerTesting.decode(GzipLayerDecoder(), layer!.bytes)
        #expect(LayerTesting.string(inner) == json)
        #expect(LayerTesting.decode(JSONLayerDecoder(), inner!.bytes) != nil)
    }

    /// Only a plausible gzip header opens as gzip: a token that merely starts with `H4sI` (the
    /// magic in base64) does not.
    @Test func gzipNeedsAPlausibleHeader() {
        #expect(LayerTesting.decode(decoder, "H4sIZcG1YVKSFNu2sASpaQVRHpCkjYpLmDxMjCbNbtYJF5PY0doM7RxZjbnq2rmy") == nil)  // FLG 0x65
        var header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03] + Array(repeating: 0x41, count: 10)
        #expect(LayerTesting.isText(LayerTesting.decode(decoder, LayerTesting.base64(header))))
        header[9] = 0x40  // no such OS
        #expect(LayerTesting.decode(decoder, LayerTesting.base64(header)) == nil)
    }

    /// Each layer opens one step: base64 of base64 of base64 of JSON needs three decodes.
    @Test func nestedBase64OpensOneLayerAtATime() {
        let json = #"{"token":"fake-nested-token"}"#
        let once = LayerTesting.base64(json)
        let twice = LayerTesting.base64(once)
        let thrice = LayerTesting.base64(twice)
        let first = LayerTesting.decode(decoder, thrice)
        #expect(LayerTesting.isText(first))
        #expect(LayerTesting.string(first) == twice)
        let second = LayerTesting.decode(decoder, first!.bytes)
        #expect(LayerTesting.isText(second))
        #expect(LayerTesting.string(second) == once)
        let third = LayerTesting.decode(decoder, second!.bytes)
        #expect(LayerTesting.isText(third))
        #expect(LayerTesting.string(third) == json)
    }

    @Test(arguments: [
        "dGVzdA==",                                    // 8 characters: too short
        "dGVzdGluZzEyMzQ",                             // 15
        "dGVzdGluZyB0ZXN0aW5n+_",                      // both alphabets
        "dGVzdGlu+yB0\nZXN0aW5n_w",                   // both, on either side of a line break
        "dGVzdGluZ=yB0ZXN0aW5n",                       // data after padding
        "dGVzdGluZyB0ZXN0aW5n===",                     // too much padding
        "dGVzdGluZyB0ZXN0aW5nIQ=",                     // padding not completing a group
        "dGVzdGluZyB0ZXN0aW5nIR",                      // non-zero trailing bits
        "dGVzdGluZyB0ZXN0aW5nI",                       // one character after the last group
        "dGVzdGluZyB0 ZXN0aW5n",                       // blank
        "dGVzdGluZyB0ZXN0aW5n.",
        "AAAAAAAAAAAAAAAAAAAAAAAA",                     // NUL bytes
        "////////////////////////",                     // binary
        "0123456789abcdef0123456789abcdef",             // a hex token
        "ThisIsJustALongIdentifierName",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    @Test func mostlyBinaryIsRejectedAndAlmostTextIsAccepted() {
        // 50 bytes: 5 control characters (10 %) pass, 6 do not.
        let letters = Array("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx".utf8)
        let five = Array(letters[0..<45]) + [1, 2, 3, 0x1B, 0x7F]
        let six = Array(letters[0..<44]) + [1, 2, 3, 0x1B, 0x7F, 0x0C]
        #expect(LayerTesting.isText(LayerTesting.decode(decoder, LayerTesting.base64(five))))
        #expect(LayerTesting.decode(decoder, LayerTesting.base64(six)) == nil)
        // Under 48 bytes (a decoded secret-sized token), one control character is too many.
        #expect(LayerTesting.isText(LayerTesting.decode(decoder, LayerTesting.base64(Array(letters[0..<47])))))
        #expect(LayerTesting.decode(decoder, LayerTesting.base64(Array(letters[0..<46]) + [0x1B])) == nil)
        #expect(LayerTesting.isText(LayerTesting.decode(decoder, LayerTesting.base64(Array(letters[0..<47]) + [0x1B]))))
        // A CR is a line break only before LF.
        #expect(LayerTesting.isText(LayerTesting.decode(decoder, LayerTesting.base64("first line\r\nsecond line\r\n"))))
        #expect(LayerTesting.decode(decoder, LayerTesting.base64("first line\rsecond line")) == nil)
        #expect(LayerTesting.decode(decoder, LayerTesting.base64("first line, second line\r")) == nil)
        // C1 controls count as unprintable too.
        #expect(LayerTesting.decode(decoder, LayerTesting.base64(Array(letters[0..<20]) + [0xC2, 0x85])) == nil)
        // Invalid UTF-8 (a lone continuation byte, an overlong, a surrogate) is binary.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80]] {
            let bytes = Array("plain ascii text here".utf8) + bad
            #expect(LayerTesting.decode(decoder, LayerTesting.base64(bytes)) == nil)
        }
    }

    @Test func decodedSizeIsCapped() {
        let limit = Base64LayerDecoder.maxDecodedBytes
        let fits = String(repeating: "QUFB", count: limit / 3)           // "AAA" × limit/3
        let over = String(repeating: "QUFB", count: limit / 3 + 1)
        #expect(LayerTesting.decode(decoder, fits)?.bytes.count == limit / 3 * 3)
        #expect(LayerTesting.decode(decoder, over) == nil)
    }

    /// Random tokens of secret lengths must not come back as text. The rate is measured over
    /// 100 000 tokens of five kinds: random strings over the standard, URL-safe and alphanumeric
    /// alphabets and lowercase hex (20–64 characters), and base64 of random bytes (15–48 bytes,
    /// always well-formed, so only the text test can reject them).
    @Test func randomTokensAreNotText() {
        var generator = SeededGenerator(seed: 0x5EC2E7)
        let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8), lower = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let digits = Array("0123456789".utf8)
        let alphabets: [(String, [UInt8])] = [
            ("standard", upper + lower + digits + Array("+/".utf8)),
            ("url-safe", upper + lower + digits + Array("-_".utf8)),
            ("alphanumeric", upper + lower + digits),
            ("hex", digits + Array("abcdef".utf8)),
        ]
        let perKind = 20_000
        var accepted: [String: Int] = [:]
        for (kind, alphabet) in alphabets {
            for _ in 0..<perKind {
                let count = Int.random(in: 20...64, using: &generator)
                let token = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
                if let layer = LayerTesting.decode(decoder, token) {
                    accepted[kind, default: 0] += 1
                    print("accepted \(String(decoding: token, as: UTF8.self)) -> \(layer.bytes)")
                }
            }
        }
        for i in 0..<perKind {
            let bytes = (0..<Int.random(in: 15...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let token = LayerTesting.base64(bytes, url: i % 2 == 1, padded: i % 4 < 2)
            if let layer = LayerTesting.decode(decoder, token) {
                accepted["base64 of random bytes", default: 0] += 1
                print("accepted \(token) -> \(layer.bytes)")
            }
        }
        let total = accepted.values.reduce(0, +)
        print("base64 layer: random tokens accepted: \(total) of \(perKind * 5) \(accepted)")
        #expect(total == 0)
    }

    // MARK: UUIDs and hex

    /// The check byte by byte, as the word-at-a-time one must decide.
    static func referenceIsUUIDOrHex(_ bytes: [UInt8]) -> Bool {
        let dashes = [8, 13, 18, 23]
        let isUUID = bytes.count == 36 && dashes.allSatisfy { bytes[$0] == UInt8(ascii: "-") }
        return bytes.indices.allSatisfy { i in
            let b = bytes[i]
            return b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 6 || (isUUID && dashes.contains(i))
        }
    }

    @Test func uuidAndHexCheckAgreesWithTheBytewiseCheck() {
        var generator = SeededGenerator(seed: 36)
        // Hex digits, their neighbours in ASCII, dashes, and bytes with the high bit set.
        let alphabet = Array("0123456789abcdefABCDEF/:@`gG-_ ".utf8) + [0x80, 0xAD, 0xB0, 0xE1, 0xFF]
        let hex = Array("0123456789abcdefABCDEF".utf8)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8]
            if Bool.random(using: &generator) {
                // A UUID with zero to two bytes replaced anywhere.
                bytes = (0..<36).map { [8, 13, 18, 23].contains($0) ? UInt8(ascii: "-") : hex.randomElement(using: &generator)! }
                for _ in 0..<Int.random(in: 0...2, using: &generator) {
                    bytes[Int.random(in: 0..<36, using: &generator)] = alphabet.randomElement(using: &generator)!
                }
            } else {
                // Hex of any length, mostly clean.
                bytes = (0..<Int.random(in: 0...70, using: &generator)).map { _ in hex.randomElement(using: &generator)! }
                if !bytes.isEmpty && Bool.random(using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                }
            }
            let expected = Self.referenceIsUUIDOrHex(bytes)
            if expected { accepted += 1 }
            #expect(bytes.withUnsafeBytes { Base64LayerDecoder.isUUIDOrHex($0) } == expected, "\(bytes)")
        }
        #expect(accepted > 5_000 && accepted < 15_000, "both answers are exercised")
    }

    /// Byte by byte, as `Base64.decode` is specified: the check for its four-at-a-time path.
    static func referenceDecode(_ text: [UInt8], alphabet: Base64.Alphabet) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0, bits: UInt32 = 0, symbols = 0, padding = 0
        for c in text {
            if let v = Base64.value(c, alphabet) {
                if padding > 0 { return nil }
                accumulator = accumulator << 6 | UInt32(v)
                bits += 6
                symbols += 1
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: accumulator >> bits))
                    accumulator &= (1 << bits) - 1
                }
            } else if c == UInt8(ascii: "=") {
                padding += 1
            } else if c != 0x0A && c != 0x0D {
                return nil
            }
        }
        guard symbols % 4 != 1, padding <= 2, padding == 0 || (symbols + padding) % 4 == 0, accumulator == 0 else { return nil }
        return out
    }

    /// Base64 of random bytes (as many as `bytes` allows) in either alphabet, padded or not, then
    /// `strays` bytes of `noise` put in place of a byte or between two, anywhere.
    static func strayedBase64(bytes: ClosedRange<Int>, strays: Int, noise: [UInt8], using generator: inout SeededGenerator)
        -> (alphabet: Base64.Alphabet, data: [UInt8], text: [UInt8]) {
        let alphabet: Base64.Alphabet = Bool.random(using: &generator) ? .standard : .url
        let data = (0..<Int.random(in: bytes, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var text = Array(LayerTesting.base64(data, url: alphabet == .url, padded: Bool.random(using: &generator)).utf8)
        for _ in 0..<strays {
            let at = Int.random(in: 0...text.count, using: &generator)
            let byte = noise.randomElement(using: &generator)!
            if at < text.count && Bool.random(using: &generator) { text[at] = byte } else { text.insert(byte, at: at) }
        }
        return (alphabet, data, text)
    }

    @Test func decodingAgreesWithTheBytewiseDecoder() {
        var generator = SeededGenerator(seed: 64)
        let noise = Array("+/-_=\n\r .{".utf8) + [0x00, 0x80, 0xFF]
        var decoded = 0
        for _ in 0..<20_000 {
            let (alphabet, _, text) = Self.strayedBase64(bytes: 0...40, strays: Int.random(in: 0...2, using: &generator),
                                                          noise: noise, using: &generator)
            let expected = Self.referenceDecode(text, alphabet: alphabet)
            if expected != nil { decoded += 1 }
            #expect(text.withUnsafeBytes { Base64.decode($0, alphabet: alphabet, ignoringLineBreaks: true) } == expected, "\(text)")
        }
        #expect(decoded > 5_000 && decoded < 15_000, "both answers are exercised")
    }

    /// Long texts go through the 16-symbol blocks (`Base64.decodeBlock16`): every block and the
    /// group and byte loops after one must give the bytewise decoder's answer, a stray byte in
    /// any block or between them included, in either alphabet.
    @Test func longTextsDecodedSixteenSymbolsAtATimeAgreeWithTheBytewiseDecoder() {
        var generator = SeededGenerator(seed: 66)
        let noise = Array("+/-_=\n\r .{".utf8) + [0x00, 0x40, 0x5B, 0x60, 0x7B, 0x2F, 0x3A, 0x80, 0xFF]
        var decoded = 0
        for round in 0..<20_000 {
            let (alphabet, data, text) = Self.strayedBase64(bytes: 12...300, strays: round % 2 == 0 ? 0 : Int.random(in: 1...2, using: &generator),
                                                            noise: noise, using: &generator)
            let expected = Self.referenceDecode(text, alphabet: alphabet)
            if expected != nil { decoded += 1 }
            #expect(text.withUnsafeBytes { Base64.decode($0, alphabet: alphabet, ignoringLineBreaks: true) } == expected, "\(text)")
            let room = Int.random(in: 0...data.count + 4, using: &generator)
            let prefix = [UInt8](unsafeUninitializedCapacity: room) { out, count in
                count = text.withUnsafeBytes { Base64.decodePrefix($0, alphabet: alphabet, into: out) }
            }
            if let expected { #expect(prefix == Array(expected.prefix(room)), "\(text) into \(room)") }
        }
        #expect(decoded > 10_000 && decoded < 19_000, "both answers are exercised")
    }

    /// The layer decoder checks the first bytes of a value decoded onto the stack: any prefix
    /// must be the start of what the whole value decodes to, with padding and line breaks
    /// anywhere between the groups.
    @Test func decodingAPrefixGivesTheStartOfTheWholeDecoding() {
        var generator = SeededGenerator(seed: 65)
        for _ in 0..<5_000 {
            let alphabet: Base64.Alphabet = Bool.random(using: &generator) ? .standard : .url
            let data = (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var text = Array(LayerTesting.base64(data, url: alphabet == .url, padded: Bool.random(using: &generator)).utf8)
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                text.insert(Bool.random(using: &generator) ? 0x0A : 0x0D, at: Int.random(in: 0...text.count, using: &generator))
            }
            let room = Int.random(in: 0...data.count + 4, using: &generator)
            let prefix = [UInt8](unsafeUninitializedCapacity: room) { out, count in
                count = text.withUnsafeBytes { Base64.decodePrefix($0, alphabet: alphabet, into: out) }
            }
            #expect(prefix == Array(data.prefix(room)), "\(text) into \(room)")
        }
    }

    // MARK: decodeForced

    /// Base64 as encoders write it is decoded four symbols at a time: to what the lenient loop
    /// gives, on random bytes of every length in either alphabet, with line breaks, unpadded,
    /// with a flipped symbol, and past the size limit.
    @Test func decodeForcedDecodesAsTheLenientLoopDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Array(Data(bytes).base64EncodedString().utf8)
            let url = standard.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            let wrapped = Array(Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]).utf8)
            var flipped = standard
            if !flipped.isEmpty { flipped[length % flipped.count] = UInt8(ascii: "*") }
            for text in [standard, url, wrapped, standard.filter { $0 != UInt8(ascii: "=") }, flipped] {
                for limit in [1 << 20, max(0, length - 1)] {
                    let same = Base64LayerDecoder.decodeForced(text, maxBytes: limit) == Base64LayerDecoder.decodeLeniently(text, maxBytes: limit)
                    #expect(same, "length \(length), limit \(limit)")
                }
            }
            #expect(Base64LayerDecoder.decodeForced(standard) == .success(bytes))
        }
    }

    @Test func forcedDecodingIsLenient() {
        let expected = Array("fake body {\"a\":1}".utf8)
        let padded = LayerTesting.base64(expected)
        #expect(Base64LayerDecoder.decodeForced(Array(padded.utf8)) == .success(expected))
        #expect(Base64LayerDecoder.decodeForced(Array(padded.replacingOccurrences(of: "=", with: "").utf8)) == .success(expected))
        #expect(Base64LayerDecoder.decodeForced(Array("ZmFr ZSBi\r\nb2R5\tIHsi\nYSI6MX0=\n".utf8)) == .success(expected))
        // Mixed alphabets and non-zero trailing bits, which strict decoding refuses.
        #expect(Base64LayerDecoder.decodeForced(Array("-_+/".utf8)) == .success([0xFB, 0xFF, 0xBF]))
        #expect(Base64LayerDecoder.decodeForced(Array("QR".utf8)) == .success([0x41]))
        #expect(Base64LayerDecoder.decodeForced([UInt8]()) == .success([]))
        // Binary is fine: the caller knows it is base64.
        #expect(Base64LayerDecoder.decodeForced(Array("AAECAw==".utf8)) == .success([0, 1, 2, 3]))
    }

    @Test func forcedDecodingErrors() {
        #expect(Base64LayerDecoder.decodeForced(Array("ZmFr*ZQ==".utf8)) == .failure(.invalidCharacter(offset: 4)))
        #expect(Base64LayerDecoder.decodeForced(Array("ZmE=ZQ==".utf8)) == .failure(.dataAfterPadding(offset: 4)))
        #expect(Base64LayerDecoder.decodeForced(Array("ZmFrZ".utf8)) == .failure(.truncated))
        #expect(Base64LayerDecoder.decodeForced(Array("ZmFrZmFr".utf8), maxBytes: 5) == .failure(.tooLarge(limit: 5)))
        #expect(Base64LayerDecoder.decodeForced(Array("ZmFrZmFr".utf8), maxBytes: 6) == .success(Array("fakfak".utf8)))
        // The check without decoding agrees, and counts the symbols.
        #expect(Base64LayerDecoder.checkForced(Array("ZmFr*ZQ==".utf8)) == .failure(.invalidCharacter(offset: 4)))
        #expect(Base64LayerDecoder.checkForced(Array("ZmE=ZQ==".utf8)) == .failure(.dataAfterPadding(offset: 4)))
        #expect(Base64LayerDecoder.checkForced(Array("ZmFrZ".utf8)) == .failure(.truncated))
        #expect(Base64LayerDecoder.checkForced(Array("ZmFrZmFr".utf8), maxBytes: 5) == .failure(.tooLarge(limit: 5)))
        #expect(Base64LayerDecoder.checkForced(Array("ZmFr\r\nZQ==".utf8)) == .success(6))
        #expect(Base64Error.invalidCharacter(offset: 4).message == "invalid base64: the character at offset 4 is not in the base64 alphabet")
        #expect(Base64Error.dataAfterPadding(offset: 4).message == "invalid base64: data after the padding, at offset 4")
        #expect(Base64Error.truncated.message == "invalid base64: truncated (one character after the last full group)")
        #expect(Base64Error.tooLarge(limit: 5).description == "base64 data decodes beyond the limit of 5 bytes")
    }
}
