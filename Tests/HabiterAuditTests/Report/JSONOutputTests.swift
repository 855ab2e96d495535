@testable import AuditReport
import Foundation
import Testing

/// The writer behind every JSON report and SARIF log: exact layout, pretty and on one line.
@Suite struct JSONOutputTests {
    static let value = JSONOutput.object([
        ("name", .string("quote \" backslash \\ newline \n tab \t bell \u{07} delete \u{7F} é 😀")),
        ("numbers", .array([.int(0), .int(7), .int(10), .int(12345), .int(-3), .int(Int.max), .number("1.50e3")])),
        ("flags", .array([.bool(true), .bool(false), .null])),
        ("empty", .object([])),
        ("none", .array([])),
        ("nested", .object([("list", .array([.object([("from", .string("22:00"))])]))])),
    ])

    @Test func prettyLayout() {
        #expect(Self.value.rendered() == #"""
        {
          "name": "quote \" backslash \\ newline \n tab \t bell \u0007 delete \u007f é 😀",
          "numbers": [
            0,
            7,
            10,
            12345,
            -3,
            9223372036854775807,
            1.50e3
          ],
          "flags": [
            true,
            false,
            null
          ],
          "empty": {},
          "none": [],
          "nested": {
            "list": [
              {
                "from": "22:00"
              }
            ]
          }
        }

        """#)
    }

    @Test func oneLineLayout() {
        #expect(Self.value.renderedOnOneLine() == #"""
        {"name": "quote \" backslash \\ newline \n tab \t bell \u0007 delete \u007f é 😀", "numbers": [0, 7, 10, 12345, -3, 9223372036854775807, 1.50e3], "flags": [true, false, null], "empty": {}, "none": [], "nested": {"list": [{"from": "22:00"}]}}
        """#)
    }

    @Test func outputIsValidJSONThatReadsBackToTheSameValues() throws {
        for text in [Self.value.rendered(), Self.value.renderedOnOneLine()] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["name"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07} delete \u{7F} é 😀")
            #expect((object["numbers"] as? [NSNumber])?.prefix(6).map(\.intValue) == [0, 7, 10, 12345, -3, Int.max])
        }
    }

    /// Strings with escapes at every offset, against a byte-by-byte escaper: the writer skips
    /// eight clean bytes at a time.
    @Test func escapingAgreesWithTheBytewiseEscaper() {
        var generator = SeededGenerator(seed: 0x75)
        let pieces = ["a", "Z", "0", " ", "é", "😀", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "/"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? "abcdefgh" : pieces.randomElement(using: &generator)!
            }.joined()
            var expected = Array("\"".utf8)
            for b in text.utf8 {
                switch b {
                case UInt8(ascii: "\""): expected += "\\\"".utf8
                case UInt8(ascii: "\\"): expected += "\\\\".utf8
                case 0x0A: expected += "\\n".utf8
                case 0x0D: expected += "\\r".utf8
                case 0x09: expected += "\\t".utf8
                case ..<0x20, 0x7F: expected += String(format: "\\u%04x", b).utf8
                default: expected.append(b)
                }
            }
            expected += "\"".utf8
            var out: [UInt8] = []
            JSONOutput.writeString(text, to: &out)
            #expect(out == expected, "\(text.debugDescription)")
        }
    }
}
