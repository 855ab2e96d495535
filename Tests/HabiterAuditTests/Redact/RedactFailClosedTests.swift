@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
import Foundation
import Testing

private typealias F = RedactFixtures

/// Inputs that cannot be read or parsed fail closed: no copy, and an error that names the file,
/// the position and the reason (never a value).
@Suite struct RedactFailClosedTests {
    private func failure(_ bytes: [UInt8], name: String) -> RedactError? {
        do {
            _ = try F.redact(bytes, name: name)
            return nil
        } catch {
            return error
        }
    }

    @Test func aTruncatedJSONInputIsRefusedWithItsPosition() {
        let input = #"{"note": "\#(F.github)", "more": ["#
        let error = failure(Array(input.utf8), name: "push.json")
        guard case .input(let errors)? = error else {
            Issue.record("a truncated input was redacted")
            return
        }
        #expect(errors.map(\.description) == ["push.json:1:\(input.utf8.count + 1): unexpected end of input"])
        let leaked = F.holds(error?.description ?? "", F.github)
        #expect(!leaked)
    }

    @Test func aTruncatedHARIsRefused() {
        let input = #"{"log": {"version": "1.2", "creator": {"name": "x"}, "entries": [{"request": {"headers": [{"name": "authorization", "value": "Bearer \#(F.jwt)"}"#
        guard case .input(let errors)? = failure(Array(input.utf8), name: "session.har") else {
            Issue.record("a truncated HAR was redacted")
            return
        }
        #expect(errors.first?.description.hasPrefix("session.har:1:") == true)
    }

    @Test func aTruncatedGzipInputIsRefused() {
        let gzip = F.gzip(#"{"note": "\#(F.github)"}"#)
        guard case .input(let errors)? = failure(Array(gzip.dropLast(12)), name: "oplog.ndjson.gz") else {
            Issue.record("a truncated gzip input was redacted")
            return
        }
        #expect(errors.map(\.description) == ["oplog.ndjson.gz: truncated gzip stream"])
    }

    @Test func aChunkedBodyCutShortIsRefused() {
        let input = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{\"note\": \"\(F.github)"
        guard case .input(let errors)? = failure(Array(input.utf8), name: "pull.txt") else {
            Issue.record("a cut chunked body was redacted")
            return
        }
        #expect(errors.first?.description.contains("chunk is shorter than its size") == true)
    }

    @Test func anUnknownFormatIsRefused() {
        guard case .input(let errors)? = failure(Array("just some words\n".utf8), name: "notes.txt") else {
            Issue.record("an input of no known format was redacted")
            return
        }
        #expect(errors.first?.description == "notes.txt: redact writes copies of JSON, NDJSON, HAR, XML, prefs XML, DataStore and HTTP inputs, not of text")
    }

    @Test func anIncompleteRedactionNamesWhatRemainsWithoutItsValue() {
        let remaining = Finding(ruleId: "secret.github-token", level: .error, family: .secret, message: "GitHub token (ghp_…, 40 characters).",
                                key: "note", context: .payload, inventoryClass: nil, artifact: "a.json",
                                position: SourcePosition(line: 3, column: 12, byteOffset: 40),
                                path: LayeredPath().appending(.key("note")).entering("base64"), confidence: .high,
                                preview: "ghp_…", fingerprint: "")
        let error = RedactError.incomplete(artifact: "a.json", remaining: [remaining], problems: ["the base64 text at /note!base64 could not be decoded again"])
        #expect(error.lines == [
            "a.json:3:12: secret.github-token at /note!base64 is still reported after redaction",
            "a.json: the base64 text at /note!base64 could not be decoded again",
            "a.json: 1 secret could not be redacted; nothing was written",
        ])
    }

    @Test func gzipOutputForGzipInputKeepsTheHeader() throws {
        // Python's gzip module writes the file name and a modification time; both stay.
        var input: [UInt8] = [0x1F, 0x8B, 0x08, 0x08, 0x01, 0x02, 0x03, 0x04, 0x02, 0xFF] + Array("oplog.ndjson".utf8) + [0]
        let compressed = F.gzip("{\"op\": 1, \"note\": \"\(F.github)\"}\n{\"op\": 2}\n")
        input += compressed[10...]
        let result = try F.redact(input, name: "oplog.ndjson.gz")
        #expect(result.format == "ndjson+gzip")
        #expect(Array(result.output.prefix(23)) == Array(input.prefix(23)))
        guard case .success(let inflated) = GzipLayerDecoder.inflate(result.output) else {
            Issue.record("the output is not gzip")
            return
        }
        expectText(inflated, equals: "{\"op\": 1, \"note\": \"[REDACTED:github-token]\"}\n{\"op\": 2}\n")
        expectClean(result, leaking: [F.github])
    }

    /// A zlib input (mitmproxy's `.zhar`) comes out in the zlib format, a zstd, xz or bzip2 input
    /// compressed the same way.
    @Test(arguments: [ContentCoding.deflate, .zstd, .xz, .bzip2])
    func zlibAndZstdInputsComeOutCompressedTheSameWay(_ coding: ContentCoding) throws {
        let log = Array("{\"op\": 1, \"note\": \"\(F.github)\"}\n{\"op\": 2}\n".utf8)
        let input = try #require(Recompression.compress(log, as: coding, like: [0x78, 0x9C]))
        let result = try F.redact(input, name: "oplog")
        #expect(result.format == "ndjson+\(coding.layerName)")
        #expect(result.output.withUnsafeBytes(FormatDetector.compression) == coding)
        guard case .success(let decompressed) = result.output.withUnsafeBytes(coding.decode) else {
            Issue.record("the output is not \(coding.layerName) data")
            return
        }
        expectText(decompressed, equals: "{\"op\": 1, \"note\": \"[REDACTED:github-token]\"}\n{\"op\": 2}\n")
        expectClean(result, leaking: [F.github])
    }

    /// UTF-16 text comes out in UTF-16, in its byte order, with a mark when it had one, and
    /// compressed again when it was.
    @Test func utf16InputsComeOutInUTF16() throws {
        let log = "{\"op\": 1, \"note\": \"é \(F.github)\"}\n{\"op\": 2}\n"
        let expected = "{\"op\": 1, \"note\": \"é [REDACTED:github-token]\"}\n{\"op\": 2}\n"
        for (order, marked, compressed) in [(UTF16Text.ByteOrder.littleEndian, true, false), (.bigEndian, true, false), (.bigEndian, true, true)] {
            let text = UTF16Text.encode(Array(log.utf8), order: order, marked: marked)
            let input = compressed ? try #require(text.withUnsafeBytes(Zstd.compress)) : text
            let result = try F.redact(input, name: "oplog")
            #expect(result.format == "ndjson+\(order.name)" + (compressed ? "+zstd" : ""))
            var output = result.output
            if compressed, case .success(let decompressed) = output.withUnsafeBytes(ContentCoding.zstd.decode) { output = decompressed }
            #expect(output.withUnsafeBytes(UTF16Text.byteOrder)?.markLength == 2)
            expectText(output.withUnsafeBytes { try? UTF16Text.decode($0, order: order, markLength: 2).get() }, equals: expected)
            #expect(output == UTF16Text.encode(Array(expected.utf8), order: order, marked: true))
            expectClean(result, leaking: [F.github])
        }
        // Text without a mark (told by its ASCII code units) keeps none.
        let ascii = "{\"op\": 1, \"note\": \"\(F.github)\"}\n"
        let unmarked = try F.redact(UTF16Text.encode(Array(ascii.utf8), order: .littleEndian, marked: false), name: "oplog")
        #expect(unmarked.output == UTF16Text.encode(Array("{\"op\": 1, \"note\": \"[REDACTED:github-token]\"}\n".utf8), order: .littleEndian, marked: false))
    }
}
