@testable import AuditInputs
import Foundation
import Testing

/// `JSONReader.skipValue` ends where `readValue` ends, on every valid value, however the window
/// cuts the input: a worker that skips another's share must land on the next value exactly.
@Suite struct JSONSkipValueTests {
    /// Notes the offset of every event; `skipFrom` answers `skipsValue` for a value at an offset
    /// and a depth (the top-level array's elements are at depth 1).
    private struct Recorder: JSONVisitor {
        var skipFrom: (_ offset: Int, _ depth: Int) -> Int?
        var depth = 0
        var events: [Int] = []
        mutating func objectStart(at offset: Int) { depth += 1; events.append(offset) }
        mutating func objectEnd(at offset: Int) { depth -= 1; events.append(offset) }
        mutating func arrayStart(at offset: Int) { depth += 1; events.append(offset) }
        mutating func arrayEnd(at offset: Int) { depth -= 1; events.append(offset) }
        mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) { events.append(offset) }
        mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) { events.append(offset) }
        mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) { events.append(offset) }
        mutating func literal(_ value: JSONLiteral, at offset: Int) { events.append(offset) }
        mutating func skipsValue(at offset: Int, firstByte: UInt8) -> Int? { skipFrom(offset, depth) }

        /// Skips the first element of the top-level array.
        static func skippingFirst() -> Recorder {
            var skipped = false
            return Recorder { offset, depth in
                guard depth == 1, !skipped else { return nil }
                skipped = true
                return offset
            }
        }
    }

    /// `[VALUE,"after",{"k":[1]}]`, read with VALUE skipped: the events after it.
    private static func eventsAfterSkipping(_ value: [UInt8], chunkSize: Int?) throws -> [Int] {
        let text = Array("[".utf8) + value + Array(" ,\"after\",{\"k\":[1]}]".utf8)
        let window = chunkSize.map { ByteWindow(source: ArraySource(text), chunkSize: $0) } ?? text.withUnsafeBytes { ByteWindow(whole: $0) }
        var visitor = Recorder.skippingFirst()
        var reader = JSONReader(window: window, start: 0)
        try reader.readText(&visitor)
        return visitor.events
    }

    private static func expected(_ value: [UInt8]) -> [Int] {
        let base = 1 + value.count + 2
        // `[` at 0, then `"after"`, `{`, the key, `[`, `1`, `]`, `}`, `]`.
        return [0, base, base + 8, base + 9, base + 13, base + 14, base + 15, base + 16, base + 17]
    }

    static let values: [String] = [
        "0", "-12.5e+3", "true", "null", #""""#, #""a\"b\\""#, #""\\\\\\""#, #""]}{[,:""#, "[]", "{}",
        #"{"a":[1,{"b":"}]"},"\\"],"c":null}"#, "[[[[[]]]]]", #"["\u005d", "\"]\""]"#, #""é😀\n""#,
    ]

    @Test(arguments: [nil, 1, 2, 3, 5, 8, 13, 64])
    func landsWhereReadingLands(_ chunkSize: Int?) throws {
        for value in Self.values {
            let bytes = Array(value.utf8)
            #expect(try Self.eventsAfterSkipping(bytes, chunkSize: chunkSize) == Self.expected(bytes), "\(value)")
        }
    }

    /// Every valid text of JSONTestSuite as the skipped value.
    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent))
    func landsWhereReadingLandsOnJSONTestSuite() throws {
        for name in JSONTestSuiteTests.files where name.hasPrefix("y_") {
            var bytes = Array(try Data(contentsOf: JSONTestSuiteTests.directory!.appendingPathComponent(name)))
            // The value alone: whitespace around it and a byte-order mark are the text's, not the value's.
            while let last = bytes.last, [0x20, 0x0A, 0x0D, 0x09].contains(last) { bytes.removeLast() }
            while let first = bytes.first, [0x20, 0x0A, 0x0D, 0x09].contains(first) { bytes.removeFirst() }
            for chunkSize in [nil, 1, 7] {
                #expect(try Self.eventsAfterSkipping(bytes, chunkSize: chunkSize) == Self.expected(bytes), "\(name)")
            }
        }
    }

    /// A visitor that passes elements unread: at the first element of the top-level array it
    /// names the start of the third, and the reader goes on from there (the two before unread,
    /// however the window is cut, garbage included: another reader reads them).
    @Test(arguments: [nil, 1, 3, 8, 64])
    func movesToALaterElementUnread(_ chunkSize: Int?) throws {
        let third = #"{"k":[1]}"#
        let text = Array(#"[{"a":1}, ]] "not json" , "#.utf8) + Array(third.utf8) + Array(#" ,"after"]"#.utf8)
        let thirdStart = text.count - third.utf8.count - 10
        let window = chunkSize.map { ByteWindow(source: ArraySource(text), chunkSize: $0) } ?? text.withUnsafeBytes { ByteWindow(whole: $0) }
        var visitor = Recorder { offset, depth in depth == 1 && offset < thirdStart ? thirdStart : nil }
        var reader = JSONReader(window: window, start: 0)
        try reader.readText(&visitor)
        // `[`, then (the third element skipped from its start) `"after"` and `]`.
        #expect(visitor.events == [0, text.count - 8, text.count - 1])
    }

    @Test func refusesWhatIsNoValue() {
        for text in ["[]]", "[ }]"] {
            var visitor = Recorder.skippingFirst()
            var reader = JSONReader(Array(text.utf8).withUnsafeBytes { UnsafeRawBufferPointer($0) })
            #expect(throws: JSONSyntaxError.self) { try reader.readText(&visitor) }
        }
        for text in ["[\"open", "[{\"a\":1"] {
            var visitor = Recorder.skippingFirst()
            let bytes = Array(text.utf8)
            #expect(throws: JSONSyntaxError.self, "\(text)") {
                try bytes.withUnsafeBytes { buffer in
                    var reader = JSONReader(buffer)
                    try reader.readText(&visitor)
                }
            }
        }
    }
}
