@testable import AuditInputs
@testable import HabiterAudit
import Testing

/// Unescaping rewrites a copy of the content in place: every escape kind, at every place, in
/// every mix, must come back as the text it stands for, after what the output already held.
@Suite struct JSONStringTests {
    static let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}",
                                             "\u{01}", "\u{1F}", "\u{7F}", "é", "€", "\u{FFFF}", "😀", "\u{10FFFF}"]

    /// `scalar` as JSON string content, written plainly, as a short escape or as `\u` (a
    /// surrogate pair beyond the BMP), as `choice` picks where JSON allows.
    static func escape(_ scalar: Unicode.Scalar, choice: Int) -> String {
        let short: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\n": "\\n", "\r": "\\r",
                                               "\t": "\\t", "\u{08}": "\\b", "\u{0C}": "\\f"]
        let plain = scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
        if choice == 0 && plain { return String(scalar) }
        if choice == 1, let escape = short[scalar] { return escape }
        func u(_ unit: UInt32) -> String { "\\u" + String(unit, radix: 16).leftPadded(to: 4) }
        guard scalar.value > 0xFFFF else { return u(scalar.value) }
        let v = scalar.value - 0x10000
        return u(0xD800 + (v >> 10)) + u(0xDC00 + (v & 0x3FF))
    }

    @Test func unescapeRestoresEveryMix() {
        var generator = SeededGenerator(seed: 20261130)
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<40, using: &generator)
            var original = String.UnicodeScalarView()
            var escaped = ""
            for _ in 0..<length {
                let scalar = JSONStringTests.alphabet.randomElement(using: &generator)!
                original.append(scalar)
                escaped += JSONStringTests.escape(scalar, choice: Int.random(in: 0..<3, using: &generator))
            }
            var output = Array("kept".utf8)
            Array(escaped.utf8).withUnsafeBufferPointer { JSONString.unescape($0, into: &output) }
            #expect(output == Array("kept".utf8) + Array(String(original).utf8), "\(escaped)")
        }
    }

    /// Long plain runs between escapes (JSON held in a string), moved eight bytes at a time.
    @Test func unescapeRestoresLongRunsBetweenEscapes() {
        var generator = SeededGenerator(seed: 20261201)
        // Each piece as written in JSON, and what it stands for.
        let pieces: [(escaped: String, text: String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), ("😀", "😀"), (#"\u00e9"#, "é"), (#"\ud83d\ude00"#, "😀"),
        ]
        for _ in 0..<3000 {
            var escaped = "", expected = ""
            for _ in 0..<Int.random(in: 0..<12, using: &generator) {
                let run = String(repeating: "k", count: Int.random(in: 0..<40, using: &generator))
                let piece = pieces.randomElement(using: &generator)!
                escaped += run + piece.escaped
                expected += run + piece.text
            }
            var output = Array("kept".utf8)
            Array(escaped.utf8).withUnsafeBufferPointer { JSONString.unescape($0, into: &output) }
            #expect(output == Array("kept".utf8) + Array(expected.utf8), "\(escaped)")
        }
    }

    @Test func emptyAndEscapeOnlyContent() {
        var output: [UInt8] = []
        [UInt8]().withUnsafeBufferPointer { JSONString.unescape($0, into: &output) }
        #expect(output.isEmpty)
        Array(#"\"\\\/\u00e9\ud83d\ude00"#.utf8).withUnsafeBufferPointer { JSONString.unescape($0, into: &output) }
        #expect(output == Array("\"\\/é😀".utf8))
    }
}
