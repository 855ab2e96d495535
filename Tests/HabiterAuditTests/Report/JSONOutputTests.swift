import Foundation
import Testing
@testable import HabiterAudit

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
}
