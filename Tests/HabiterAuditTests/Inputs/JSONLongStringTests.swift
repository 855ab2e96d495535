@testable import AuditInputs
import Foundation
import Testing

/// A long escaped string value unescaped as it is read (`JSONReader.longStringBytes`), against
/// the plain reading of the whole text, and what that buys: the window keeps a few chunks.
@Suite struct JSONLongStringTests {
    /// What a reader hands: each string (decoded) with its offset and whether it came escaped
    /// (`JSONStringBlockTests` reads with it too).
    struct Strings: JSONVisitor {
        var strings: [(text: [UInt8], offset: Int, escaped: Bool)] = []
        mutating func objectStart(at offset: Int) {}
        mutating func objectEnd(at offset: Int) {}
        mutating func arrayStart(at offset: Int) {}
        mutating func arrayEnd(at offset: Int) {}
        mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
        mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
            strings.append((escaped ? JSONString.unescaped(raw) : Array(raw), offset, escaped))
        }
        mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {}
        mutating func literal(_ value: JSONLiteral, at offset: Int) {}
    }

    /// String content of about `count` bytes mixing plain runs, every escape, surrogate pairs and
    /// raw multi-byte UTF-8, so that windows end inside all of them.
    private static func content(_ count: Int, seed: UInt64) -> String {
        var rng = SeededGenerator(seed: seed)
        let pieces = ["plain text ", "\\n", "\\\"", "\\\\", "\\/", "\\t", "\\u00e9", "\\uD83D\\uDE00", "é", "😀", "ghp_", "\\u0041"]
        var text = ""
        while text.utf8.count < count { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return text
    }

    private static func read(_ bytes: [UInt8], chunkSize: Int?, longStringBytes: Int?, pin: Bool = false)
        -> (strings: [(text: [UInt8], offset: Int, escaped: Bool)], error: String?, capacity: Int) {
        let window: ByteWindow
        if let chunkSize {
            window = ByteWindow(source: ArraySource(bytes), chunkSize: chunkSize)
        } else {
            window = bytes.withUnsafeBytes { ByteWindow(whole: $0, owner: nil) }
        }
        var visitor = Strings()
        var reader = JSONReader(window: window, start: 0, longStringBytes: longStringBytes)
        if pin { _ = window.ensure(0, keeping: 0); window.pin(at: 0) }
        var failure: String?
        do { try reader.readText(&visitor) } catch { failure = "\(error)" }
        return (visitor.strings, failure, window.capacityForTests)
    }

    @Test(arguments: [4_096, 5_000, 65_536])
    func handsWhatThePlainReadingHandsAtTheSameOffset(_ chunkSize: Int) {
        let text = "{\"a\": \"short\\n\",\n  \"long\": \"\(Self.content(600_000, seed: UInt64(chunkSize)))\", \"b\": [\"\(Self.content(50_000, seed: 2))\"]}"
        let bytes = Array(text.utf8)
        let plain = bytes.withUnsafeBytes { buffer in
            var visitor = Strings()
            var reader = JSONReader(buffer)
            try? reader.readText(&visitor)
            return visitor.strings
        }
        let streamed = Self.read(bytes, chunkSize: chunkSize, longStringBytes: 8_192)
        #expect(streamed.error == nil)
        #expect(streamed.strings.map(\.text) == plain.map(\.text))
        #expect(streamed.strings.map(\.offset) == plain.map(\.offset))
        #expect(streamed.strings.map(\.escaped) == [true, false, false], "the long ones come unescaped")
        // The window never held a long string whole: a few chunks and the threshold.
        #expect(streamed.capacity <= 4 * (chunkSize + 8_192), "window capacity \(streamed.capacity)")
    }

    @Test func anErrorLateInALongStringIsReportedWhereItIs() {
        let good = Self.content(100_000, seed: 7)
        for bad in ["\\x", "\\uD83D", "\u{01}"] {
            let bytes = Array("[\"\(good)\(bad)rest\"]".utf8)
            let plain = Self.read(bytes, chunkSize: nil, longStringBytes: nil)
            let streamed = Self.read(bytes, chunkSize: 4_096, longStringBytes: 1_024)
            #expect(plain.error != nil)
            #expect(streamed.error == plain.error, "\(bad.debugDescription)")
        }
    }

    @Test func aPinnedWindowKeepsTheRawString() {
        let bytes = Array("[\"\(Self.content(100_000, seed: 9))\"]".utf8)
        let pinned = Self.read(bytes, chunkSize: 4_096, longStringBytes: 1_024, pin: true)
        #expect(pinned.strings.map(\.escaped) == [true], "handed where it stands in the window")
        #expect(pinned.capacity >= 100_000)
    }

    /// Through the CLI, whose JSON inputs use the default threshold: a token in a string longer
    /// than it is reported at the string's line and column, as it was when strings were read whole.
    @Test func aFindingInALongStringIsAtTheStringsStart() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = "ghp_" + String(repeating: "A1b2C3d4E5", count: 3) + "f6G7h8"
        let long = String(repeating: "x\\n", count: JSONReader.defaultLongStringBytes / 3 + 1_000_000)
        let file = directory.appendingPathComponent("long.json")
        try Data("{\n  \"note\": \"\(long)\(token)\"\n}\n".utf8).write(to: file)
        let run = TestSupport.runCLI(["scan", file.path, "--format", "json"])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["line"] as? Int == 2)
        #expect(findings.first?["column"] as? Int == 11)
        #expect(findings.first?["byteOffset"] as? Int == 12)
        #expect(!run.stdout.contains(token))
    }
}
