import AuditCore
@testable import AuditInputs
import Testing

/// Records reader events as "kind@line:column" with decoded text.
private struct EventRecorder: JSONVisitor {
    var window: ByteWindow
    var events: [String] = []

    mutating func note(_ kind: String, _ offset: Int, _ text: String = "") {
        let p = window.position(of: offset)
        events.append("\(kind)@\(p.line):\(p.column)/\(offset)" + (text.isEmpty ? "" : " \(text)"))
    }
    mutating func objectStart(at offset: Int) { note("{", offset) }
    mutating func objectEnd(at offset: Int) { note("}", offset) }
    mutating func arrayStart(at offset: Int) { note("[", offset) }
    mutating func arrayEnd(at offset: Int) { note("]", offset) }
    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        note("key", offset, JSONString.decode(raw, escaped: escaped))
    }
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        note("str", offset, JSONString.decode(raw, escaped: escaped))
    }
    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {
        note("num", offset, String(decoding: raw, as: UTF8.self))
    }
    mutating func literal(_ value: JSONLiteral, at offset: Int) { note("lit", offset, "\(value)") }
}

private func events(_ text: String) throws -> [String] {
    var bytes = Array(text.utf8)
    return try bytes.withUnsafeMutableBytes { raw in
        let buffer = UnsafeRawBufferPointer(raw)
        let window = ByteWindow(whole: buffer)
        var recorder = EventRecorder(window: window)
        var reader = JSONReader(window: window)
        try reader.readText(&recorder)
        return recorder.events
    }
}

private func error(_ bytes: [UInt8], maxDepth: Int = 512) -> (reason: JSONSyntaxReason, line: Int, column: Int)? {
    bytes.withUnsafeBytes { buffer in
        let window = ByteWindow(whole: buffer)
        var reader = JSONReader(window: window, maxDepth: maxDepth)
        var recorder = EventRecorder(window: window)
        do {
            try reader.readText(&recorder)
            return nil
        } catch let e as JSONSyntaxError {
            let p = ByteWindow.position(of: e.offset, in: buffer)
            return (e.reason, p.line, p.column)
        } catch {
            return nil
        }
    }
}

/// The events of `bytes` read whole (`chunkSize` nil) or through windows of `chunkSize` bytes,
/// as "kind@offset text" (`EventRecorder`'s, their line and column left out).
private func offsetEvents(_ bytes: [UInt8], chunkSize: Int?) throws -> [String] {
    let window = chunkSize.map { ByteWindow(source: ArraySource(bytes), chunkSize: $0) } ?? ByteWindow(copying: bytes)
    var reader = JSONReader(window: window)
    var recorder = EventRecorder(window: window)
    try reader.readText(&recorder)
    return recorder.events.map { event in
        let at = event.firstIndex(of: "@")!, slash = event[at...].firstIndex(of: "/")!
        return String(event[...at] + event[event.index(after: slash)...])
    }
}

/// Whitespace between tokens: runs of every length and kind, and a foreign byte inside one.
@Suite struct JSONWhitespaceTests {
    /// Runs of 0 to 40 bytes of all four kinds before and after every token: each token is
    /// reported where it stands, read whole and through windows that cut the runs anywhere.
    @Test(arguments: [nil, 16, 61] as [Int?])
    func runsOfEveryLengthBetweenTokens(chunkSize: Int?) throws {
        var generator = SeededGenerator(seed: 0x0B1A_4C00 &+ UInt64(chunkSize ?? 0))
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        for _ in 0..<300 {
            var bytes: [UInt8] = [], expected: [String] = []
            func run() { bytes += (0..<Int.random(in: 0...40, using: &generator)).map { _ in whitespace.randomElement(using: &generator)! } }
            run()
            expected.append("{@\(bytes.count)")
            bytes.append(UInt8(ascii: "{"))
            for k in 0..<Int.random(in: 0...6, using: &generator) {
                if k > 0 {
                    run()
                    bytes.append(UInt8(ascii: ","))
                }
                run()
                expected.append("key@\(bytes.count) k\(k)")
                bytes += Array("\"k\(k)\"".utf8)
                run()
                bytes.append(UInt8(ascii: ":"))
                run()
                expected.append("num@\(bytes.count) \(k)")
                bytes += Array("\(k)".utf8)
            }
            run()
            expected.append("}@\(bytes.count)")
            bytes.append(UInt8(ascii: "}"))
            run()
            #expect(try offsetEvents(bytes, chunkSize: chunkSize) == expected, "\(bytes)")
        }
    }

    /// A byte that is not JSON whitespace, at every place of a long run (a vertical tab, a
    /// no-break space, a form feed), stops the run there: the reader fails at it.
    @Test func aForeignByteAnywhereInARunIsAnError() {
        for foreign: UInt8 in [0x0B, 0xA0, 0x0C, 0x00] {
            for place in 0..<40 {
                var run = [UInt8](repeating: 0x20, count: 40)
                run[place] = foreign
                let bytes = Array("[".utf8) + run + Array("1]".utf8)
                do {
                    _ = try offsetEvents(bytes, chunkSize: nil)
                    Issue.record("no error with byte \(foreign) at \(place)")
                } catch let error as JSONSyntaxError {
                    #expect(error.offset == 1 + place, "byte \(foreign) at \(place)")
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
        }
    }
}

@Suite struct JSONReaderTests {
    /// A window over its own copy gives every position the counting from the start gives, in
    /// order and out of it, across CRLF, tabs and characters of two UTF-16 units.
    @Test func aCopyingWindowGivesTheSamePositions() {
        let bytes = Array("a\r\nb\tc\n\u{1F600}d\n\ne\u{E9}f".utf8)
        let window = ByteWindow(copying: bytes)
        let offsets = Array(0...bytes.count) + [3, 0, bytes.count, 7, 7, 2]
        let expected = bytes.withUnsafeBytes { buffer in offsets.map { ByteWindow.position(of: $0, in: buffer) } }
        #expect(offsets.map(window.position(of:)) == expected)
        #expect(ByteWindow(copying: []).position(of: 0) == SourcePosition(line: 1, column: 1, byteOffset: 0))
    }

    @Test func positionsOfEveryKeyAndValue() throws {
        let text = "{\n  \"a\": [1, -2.5e3, true],\n\t\"b\\u00e9\": {\"c\": null, \"d\": \"x\\ny\"}\r\n}"
        #expect(try events(text) == [
            "{@1:1/0",
            "key@2:3/4 a", "[@2:8/9", "num@2:9/10 1", "num@2:12/13 -2.5e3", "lit@2:20/21 true", "]@2:24/25",
            "key@3:2/29 b\u{e9}", "{@3:13/40", "key@3:14/41 c", "lit@3:19/46 null",
            "key@3:25/52 d", "str@3:30/57 x\ny", "}@3:36/63",
            "}@4:1/66",
        ])
    }

    @Test func columnsCountUTF16CodeUnits() throws {
        // "é" is one UTF-16 unit, "😀" two: the next string starts at column 9, byte 11.
        let e = try events("[\"é😀\", \"x\"]")
        #expect(e[2] == "str@1:9/11 x")
    }

    @Test func lineBreaksAreLFCRLFAndLoneCR() throws {
        #expect(try events("[\r\n1,\r2,\n3]").map { $0.split(separator: "/")[0] } == ["[@1:1", "num@2:1", "num@3:1", "num@4:1", "]@4:2"])
    }

    @Test func byteOrderMarks() throws {
        #expect(try events("\u{FEFF}{}") == ["{@1:1/3", "}@1:2/4"])
        #expect(error([0xFE, 0xFF, 0x00, 0x7B])?.reason == .unsupportedEncoding("UTF-16"))
        #expect(error([0xFF, 0xFE, 0x7B, 0x00])?.reason == .unsupportedEncoding("UTF-16"))
        #expect(error([0x00, 0x00, 0xFE, 0xFF])?.reason == .unsupportedEncoding("UTF-32"))
    }

    @Test func escapesDecode() throws {
        let e = try events(#"["\"\\\/\b\f\n\r\t\u0041\ud83d\ude00"]"#)
        #expect(e[1] == "str@1:2/1 \"\\/\u{8}\u{c}\n\r\tA😀")
    }

    @Test(arguments: [
        (#"{"a" 1}"#, JSONSyntaxReason.expectedColon, 1, 6),
        ("[1,]", .expectedValue, 1, 4),
        ("{\"a\":1,}", .expectedKey, 1, 8),
        ("[1 2]", .expectedCommaOrEnd(container: "array"), 1, 4),
        ("{} {}", .trailingContent, 1, 4),
        ("[\"a\n\"]", .controlCharacterInString, 1, 4),
        (#"["\x"]"#, .invalidEscape, 1, 3),
        (#"["\u12G4"]"#, .invalidUnicodeEscape, 1, 3),
        (#"["\ud800"]"#, .loneSurrogate, 1, 3),
        (#"["\udc00\ud800"]"#, .loneSurrogate, 1, 3),
        ("[01]", .expectedCommaOrEnd(container: "array"), 1, 3),
        ("[1.]", .invalidNumber, 1, 2),
        ("[-]", .invalidNumber, 1, 2),
        ("[tru]", .invalidLiteral, 1, 2),
        ("{\"a\":\n  [1,\n", .unexpectedEnd, 3, 1),
        ("", .emptyInput, 1, 1),
        ("  \n ", .emptyInput, 2, 2),
    ] as [(String, JSONSyntaxReason, Int, Int)])
    func errorsNameTheirPosition(_ text: String, _ reason: JSONSyntaxReason, _ line: Int, _ column: Int) {
        let found = error(Array(text.utf8))
        #expect(found?.reason == reason)
        #expect(found?.line == line)
        #expect(found?.column == column)
    }

    @Test func invalidUTF8InKeysAndValues() {
        #expect(error([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])?.reason == .invalidUTF8)  // {"\xC3(":1}
        #expect(error([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D])?.reason == .invalidUTF8)        // encoded surrogate
        #expect(error([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D])?.reason == .invalidUTF8)              // overlong
        #expect(error([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D])?.reason == .invalidUTF8)  // above U+10FFFF
        #expect(error([0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D])?.reason == .invalidUTF8)              // truncated
        #expect(error([0x5B, 0x00, 0x5D])?.reason == .unexpectedCharacter("NUL byte"))
    }

    @Test func nestingLimitIsAnErrorNotACrash() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect(error(deep)?.reason == .nestingTooDeep(limit: 512))
        #expect(error(Array("[[[1]]]".utf8), maxDepth: 3) == nil)
        #expect(error(Array("[[[[1]]]]".utf8), maxDepth: 3)?.reason == .nestingTooDeep(limit: 3))
    }
}

/// The line cursor's word-at-a-time counting agrees with a byte-by-byte count on random text.
@Suite struct LineCursorTests {
    static func naive(_ bytes: [UInt8], _ target: Int) -> (Int, Int) {
        var line = 1, column = 1, i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < target {
            let b = bytes[i]
            if b == 0x0A {
                if i == 0 || bytes[i - 1] != 0x0D { line += 1 }
                column = 1
            } else if b == 0x0D {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += b >= 0xF0 ? 2 : 1
            }
            i += 1
        }
        return (line, column)
    }

    /// Asks one window over `bytes` for the positions of `targets` (ascending), each held to the
    /// byte-by-byte count.
    static func expectPositions(of targets: [Int], in bytes: [UInt8], _ what: @autoclosure () -> String) {
        bytes.withUnsafeBytes { buffer in
            let window = ByteWindow(whole: buffer)
            for target in targets {
                let p = window.position(of: target)
                let expected = naive(bytes, target)
                #expect(p.line == expected.0 && p.column == expected.1, "offset \(target) of \(what())")
            }
        }
    }

    static let pieces: [[UInt8]] = [Array("abc".utf8), [0x0A], [0x0D], [0x0D, 0x0A], Array("é".utf8), Array("😀".utf8),
                                    Array("0123456789abcdef".utf8), [0x0A, 0x0A], Array("  ".utf8),
                                    // Long plain runs and indented lines, for the 64-byte blocks.
                                    Array(String(repeating: "{\"k\":\"v\"}", count: 7).utf8), Array(String(repeating: "x", count: 65).utf8),
                                    Array("\n    \"name\": \"Read\",\n    \"deleted\": false,".utf8)]

    /// Long runs of plain ASCII (indented lines, lines of kilobytes, no LF at all), asked at a
    /// few far targets: the blocks are counted many at a time, their LFs summed lane by lane over
    /// more than 63 blocks (`LineBreakClassifier.countPlainBlocks`), and a CR or a byte beyond
    /// ASCII after them ends the run where it stands.
    @Test func longPlainRunsAgreeWithByteByByteCounting() {
        var generator = SeededGenerator(seed: 0x11FE)
        let lines: [[UInt8]] = [Array("\n    \"name\": \"Read\",".utf8), Array("\n".utf8), Array(String(repeating: "y", count: 3000).utf8),
                                Array(String(repeating: "\n", count: 70).utf8), Array("{\"k\":\"v\"}".utf8)]
        for round in 0..<60 {
            // Every fourth round is LFs alone for more than 64 blocks, four to a lane a block.
            var bytes: [UInt8] = round % 4 == 0 ? Array(repeating: 0x0A, count: 5000) : []
            while bytes.count < 9000 + round * 200 { bytes += lines.randomElement(using: &generator)! }
            // Now and then a CR, a CRLF or a character beyond ASCII, somewhere in a block.
            if round % 3 > 0 {
                let place = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.insert(contentsOf: [[0x0D], [0x0D, 0x0A], Array("é".utf8)][round % 3], at: place)
            }
            let targets = (0..<3).map { _ in Int.random(in: 0...bytes.count, using: &generator) }.sorted()
            Self.expectPositions(of: targets, in: bytes, "\(bytes.count) bytes, round \(round)")
        }
    }

    /// Every kind of piece, and then ASCII without CRs alone, where the blocks are counted whole
    /// and a target less than a block ahead is counted in one block, its bytes past the target
    /// masked off.
    @Test(arguments: [false, true])
    func agreesWithByteByByteCounting(plainASCII: Bool) {
        let pieces = plainASCII ? Self.pieces.filter { $0.allSatisfy { $0 < 0x80 && $0 != 0x0D } } : Self.pieces
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<60) { bytes += pieces.randomElement()! }
            // Many, so that most lie within a block of the one before.
            let targets = (0..<24).map { _ in Int.random(in: 0...bytes.count) }.sorted()
            Self.expectPositions(of: targets, in: bytes, "\(bytes)")
        }
    }
}
