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

    /// fuzz-scan, `an error's position is in the input` (the seed `bundle-zip`, a directory
    /// entry's local header offset changed to 3,733,277 in a 773-byte archive): the error was
    /// placed at the offset the entry names, outside the input. It is now placed at the entry.
    @Test func aZipEntryPointingOutsideTheArchiveIsAnErrorAtTheEntry() {
        let member = ArchiveTests.ZipMember(name: "backup/entity-habit.json", content: Array("{}".utf8))
        let archive = ArchiveTests.zipArchive([member], localOffset: { _, _ in 3_733_277 })
        let errors = ArchiveTests.scan(archive, name: "fuzz").flatMap(\.errors)
        #expect(errors.map(\.reason) == ["a ZIP member's local header is missing"])
        // The directory entry follows the member's local header (30 bytes, the name, 2 bytes).
        #expect(errors.first?.position?.byteOffset == 30 + member.name.utf8.count + 2)
    }

    /// fuzz-scan, `the same summary whole and streamed` (a bzip2 stream, from the seed
    /// `entity-habit-credential-fields-json-bz2`, whose block breaks while it is written out):
    /// libbz2 does not count what it wrote in the step that meets corrupt data, so what came
    /// before the error depended on the size of the reader's buffer (0 bytes read whole, 896 to
    /// 1,536 read in small pieces). `DecompressingSource` now decompresses into a buffer of its
    /// own, whatever the reader asks for.
    @Test func corruptBzip2DataReadsTheSameWhateverTheReadersBuffer() {
        let hex = [
            "425a683931415926535987108002000209df8055107807fff03f7e7ffa3ffffffa40021c31b600a93460d136934c8c4c",
            "4034620c11e91e9346806806a641304d0d4c4c534f5329e91a681b503468640f481bd50e3264d34c264640c08c4d1823",
            "083469800104a68a9e9349ea641a03134018868000061310d243305460fe4315cd07205d482143c434467261819a8661",
            "8b0cc389842030a6c88233e0f8abf72cb8963e3f4cd82a495181ec50d9a9ea4c65cf49249e087a4ab05281129649c6b4",
            "1b89d249924389dd38242b7103a8b3670f243a635687250ec3cae5dbd3cd29f5efe3be5f10fd03ef17f561808c2cb2c1",
            "f687aa6376bc8ba201862e114c20d7d62f12f5fcbe1348694932bd748d9500d6529fcbb7bad48c45b67b76718561a290",
            "7ee783587865961b03477e1d6c0ee545752476392240c39084225785d288293e7cfcd9cf76c6cbf619cf13963c74ecfd",
            "a01a100989551297293033fa3bee0a9e2b9cb31e0ddc709177d4f843463790facad5568b82bd9f15c29db3a2b6f156f1",
            "3177d94f5f869d344d2736294e29f8a94186f1c06f0b445a570834ab38b61a61dd1a96497e289767a067b22c2648dfcc",
            "ae992e6a6257a189d8be5a37d3dab1e5da8c64837bb936af21af9f00a9114c27b8eeb59fd54884a0692183f466da889f",
            "ce2a154041919b9dc8325aa0a30c8d17049a81923a8d5412a2cc083164c504d4256babf0b162832415b8bb83372b5e6f",
            "4a27ba57aed46aaf16f85eed0ded526d37d44b5282c75cd22fc963610716b8f165d9d084ca0e68298d0c85d7389ab210",
            "a1ce2146e60366a7fa5c8e648c99d15f0483ee95310b70b6aa68555d338bf12883fa266a0b7a40ff02f78e3ff1772453",
            "85090871080020",
        ].joined()
        let input = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let whole = input.withUnsafeBytes { scanner.scan(bytes: $0, name: "fuzz") }
        #expect(whole.errors.map(\.reason) == ["corrupt bzip2 data (corrupt data)"])
        for readSize in [1, 2, 3, 5, 7, 64] {
            let streamed = scanner.scan(ByteWindow(source: SlowSource(input, readSize: readSize), chunkSize: readSize), name: "fuzz",
                                        rules: scanner.rules, matcher: RegexMatcher())
            #expect(streamed.summary == whole.summary, "read \(readSize) bytes at a time")
            #expect(streamed.errors == whole.errors && streamed.findings == whole.findings, "read \(readSize) bytes at a time")
        }
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
