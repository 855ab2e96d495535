@testable import AuditCore
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan
import Foundation
import Testing

/// Inputs the fuzz targets in `Fuzz/` found (docs/robustness.md, "Crashes found"), each reduced to
/// the bytes that matter.
@Suite struct FuzzRegressionTests {
    /// The notes of every exchange of raw HTTP text.
    static func httpNotes(_ bytes: [UInt8]) throws -> [HTTPPartRecorder.Part] {
        try HTTPPartRecorder.parts(bytes).filter { $0.name == "note" }
    }

    /// fuzz-http, `exchange offset 3494 is in the input of 3493 bytes`: a `curl -v` note line of
    /// one character (`*`, `{` or `}` with nothing after it, as a response body ending in `}`
    /// leaves) gave its note the offset two bytes on: past the end of the input, or the start of
    /// the next line. The note now starts at the end of its own line.
    @Test(arguments: ["}", "*", "{", "}\n", "}\r\nGET /v1/sync/pull HTTP/1.1\r\n\r\n", "* note\n{\nHTTP/1.1 200 OK\r\n\r\n"])
    func oneCharacterCurlNoteStaysOnItsLine(_ text: String) throws {
        let bytes = Array(text.utf8)
        let notes = try Self.httpNotes(bytes)
        #expect(!notes.isEmpty)
        for note in notes {
            try #require(note.offset <= bytes.count, "note offset \(note.offset) past the end of \(bytes.count) bytes")
            #expect(note.offset == 0 || bytes[note.offset - 1] != 0x0A, "note offset \(note.offset) on the next line")
        }
    }

    @Test func curlNoteContentStartsAfterItsMarker() throws {
        let notes = try Self.httpNotes(Array("* Connected\n}\n".utf8))
        #expect(notes.map(\.offset) == [2, 13])
        #expect(notes.map { String(decoding: $0.value, as: UTF8.self) } == ["Connected", ""])
    }

    /// fuzz-ndjson, `a finding's position is in the input: inventory.sensitive-store at 0:0`: a
    /// store key whose value never began (the document ends or breaks right after the key) was
    /// reported at line 0, column 0, which SARIF refuses (`startLine` is at least 1). The store is
    /// now positioned at its key until its value begins. (The fuzzer found it with
    /// `migratedAt`, no store name since the envelope is known by its shape; `classly_token` is.)
    @Test(arguments: [
        (#"{"classly_token""#, InputFormat.auto),
        (#"{"classly_token":"#, .json),
        (#"{"classly_token":"a\q"}"#, .json),
        (#"{"document":{"classly_token":"a\q"}}"# + "\n", .ndjson),
    ])
    func storeKeyWithoutAValueIsPositionedAtTheKey(_ text: String, _ format: InputFormat) {
        let scan = TestSupport.scan(text, options: ScanOptions(inputFormat: format))
        #expect(!scan.errors.isEmpty)
        let stores = scan.findings.filter { $0.ruleId == "inventory.sensitive-store" }
        #expect(!stores.isEmpty)
        for finding in scan.findings {
            #expect(finding.position.line >= 1 && finding.position.column >= 1, "\(finding.ruleId) at \(finding.position.line):\(finding.position.column)")
        }
        let key = text.utf8.distance(from: text.utf8.startIndex, to: text.range(of: #""classly_token""#)!.lowerBound)
        #expect(stores.map(\.position.byteOffset) == [key])
    }

    /// fuzz-http (issue 18's recipe inputs), `the same error whole and streamed`: a chunk size of
    /// `7FFFFFFFFFFFFFFF` failed before reading on, so a streamed read reported it at the end of
    /// what it had read so far, a whole read at the end of the input. The size is now clamped
    /// and the input read to its end, as for a Content-Length.
    @Test(arguments: [1, 2, 5, 7, 4096])
    func aChunkSizeBeyondTheAddressSpaceFailsAtTheEndOfTheInput(_ readSize: Int) {
        let input = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7FFFFFFFFFFFFFFF\r\nabc".utf8)
        let window = ByteWindow(source: SlowSource(input, readSize: readSize), chunkSize: readSize)
        var reader = HTTPMessageReader(window: window, start: 0)
        var recorder = HTTPPartRecorder(window: window)
        #expect(throws: HTTPSyntaxError(reason: "chunk is shorter than its size", offset: input.count)) {
            while try reader.nextExchange(&recorder) { window.unpin() }
        }
    }

    /// fuzz-scan, `the same summary whole and streamed` (gzip data corrupt after its first
    /// block): the bytes inflated in the step that met the damage were dropped, so how much of
    /// the input was read, and what was found in it, depended on how the input was cut. They
    /// are now read before the error, whatever the cut.
    @Test func corruptCompressedDataIsReadUpToTheDamageWhateverTheCut() {
        let text = Array("export GITHUB_TOKEN=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\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 938)
        func storedBlock(_ data: [UInt8], lengthCheck: UInt16? = nil) -> [UInt8] {
            let length = UInt16(data.count)
            let check = lengthCheck ?? ~length
            return [0x00, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(check & 0xFF), UInt8(check >> 8)] + data
        }
        // A gzip header, a stored block of the text, then a block whose lengths disagree.
        let input: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF] + storedBlock(text) + storedBlock([0x41], lengthCheck: 0)
        let scanner = Scanner(rules: TestSupport.builtinPack)
        var outcomes = [1, 7, 4096].map { readSize in
            scanner.scan(ByteWindow(source: SlowSource(input, readSize: readSize), chunkSize: readSize), name: "log.gz", rules: scanner.rules,
                         matcher: RegexMatcher())
        }
        outcomes.append(input.withUnsafeBytes { scanner.scan(bytes: $0, name: "log.gz") })
        for outcome in outcomes {
            #expect(outcome.summary.byteCount == text.count)
            #expect(outcome.findings.map(\.ruleId) == ["secret.github-token"])
            #expect(outcome.errors.map(\.reason) == ["corrupt gzip data (invalid stored block lengths)"])
        }
    }

    /// fuzz-scan, a heap buffer overflow in `UTF16Text.Transcoder`: UTF-16 text read into a
    /// window that asks for a byte or two at a time (as a window reading a slow stream does)
    /// was transcoded straight into the reader's buffer, and a character of three or four UTF-8
    /// bytes wrote past it. The source now transcodes into its own buffer and hands out what fits.
    @Test(arguments: [1, 2, 3, 5])
    func utf16TextReadIntoATinyBufferStaysInIt(_ readSize: Int) {
        let text = "€😀 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 中\n"
        let input = [0xFE, 0xFF] + Array(text.data(using: .utf16BigEndian)!)
        let outcome = Scanner(rules: TestSupport.builtinPack).scan(ByteWindow(source: SlowSource(input, readSize: readSize), chunkSize: readSize),
                                                                   name: "notes", rules: TestSupport.builtinPack, matcher: RegexMatcher())
        #expect(outcome.errors.isEmpty)
        #expect(outcome.summary.byteCount == text.utf8.count)
        #expect(outcome.findings.map(\.ruleId) == ["secret.github-token"])
    }
}

/// Bytes handed out `readSize` at a time, as a pipe gives them.
private final class SlowSource: ByteSource {
    private let bytes: [UInt8]
    private let readSize: Int
    private var next = 0

    init(_ bytes: [UInt8], readSize: Int) {
        self.bytes = bytes
        self.readSize = readSize
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        guard next < bytes.count else { return .end }
        let n = min(readSize, buffer.count, bytes.count - next)
        buffer.copyBytes(from: bytes[next..<(next + n)])
        next += n
        return .bytes(n)
    }
}
