@testable import AuditRedact
@testable import AuditScan
import Testing

/// Every place of a raw HTTP message that can hold text is scanned (issue 18): a token there is
/// found where it stands, never skipped with the framing around it.
@Suite struct RawHTTPPlacesTests {
    /// A fake, format-valid GitHub token.
    static let token = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1"

    /// Messages with `TOKEN` where the token goes, the path its finding must have, and its line
    /// and column.
    static let places: [(String, String, String)] = [
        ("GET /x HTTP/1.1\n\nHTTP/1.1 403 TOKEN\n\n", "/entries/0/response/statusText", "3:14"),
        ("GET /x HTTP/1.1/TOKEN\n\n", "/entries/0/request/httpVersion", "1:8"),
        ("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3;sig=TOKEN\nabc\n0\n\n", "/entries/0/response/chunkExtensions/0", "4:2"),
        ("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\nX-Trace: TOKEN\n\n", "/entries/0/response/trailers/0/value", "7:10"),
        ("GET /x HTTP/1.1\nTOKEN: 1\n\n", "/entries/0/request/headers/0/name", "2:1"),
        ("### deploy with TOKEN\nGET /x HTTP/1.1\n\n", "/entries/0/comments/0", "1:1"),
        ("# TOKEN\nGET /x HTTP/1.1\n\n", "/entries/0/comments/0", "1:1"),
        ("@TOKEN = 1\nGET /x HTTP/1.1\n\n", "/entries/0/variables/0/name", "1:2"),
        ("@auth = TOKEN\nGET /x HTTP/1.1\n\n", "/entries/0/variables/0/value", "1:9"),
        ("> GET /x HTTP/1.1\n>\n* sent TOKEN\n< HTTP/1.1 204 No Content\n<\n", "/entries/0/notes/0", "3:3"),
        ("GET /x HTTP/1.1\nCookie: theme=dark; TOKEN\n\n", "/entries/0/request/headers/0/value", "2:9"),
        ("HTTP/1.1 200 OK\nSet-Cookie: sid=1; Domain=TOKEN\n\n", "/entries/0/response/headers/0/value", "2:13"),
    ]

    @Test(arguments: places)
    func aTokenIsFoundWhereItStands(_ template: String, _ path: String, _ position: String) {
        let text = template.replacingOccurrences(of: "TOKEN", with: Self.token)
        let result = TestSupport.scan(text, name: "places.http")
        #expect(result.errors.isEmpty)
        let found = result.findings.filter { $0.ruleId == "secret.github-token" }
        #expect(found.map { "\($0.path) \($0.position.line):\($0.position.column)" } == ["\(path) \(position)"])
    }

    /// A header name that is a secret is masked where it names its value.
    @Test func aSecretHeaderNameIsMaskedInTheValuesFindings() {
        let text = "GET /x HTTP/1.1\n\(Self.token): password=Tr0ub4dor-3xK9q-Lm2\n\n"
        let result = TestSupport.scan(text, name: "name.http")
        #expect(result.findings.map(\.ruleId).contains("secret.github-token"))
        for finding in result.findings {
            #expect(!finding.message.contains(Self.token) && finding.key != Self.token && !finding.path.description.contains(Self.token))
        }
    }

    /// A coding the scanner cannot undo hides what the body holds: refused, never read as text.
    @Test(arguments: ["compress", "x-custom", "gzip, br", "gzip, compress"])
    func aBodyInACodingThatCannotBeUndoneIsAParseError(_ coding: String) {
        let body = "opaque compressed bytes"
        let text = "HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let errors = TestSupport.scan(text, name: "coded.http").errors
        #expect(errors.contains { $0.kind == .parse && $0.reason.contains("Content-Encoding") && $0.position.map { "\($0.line):\($0.column)" } == "5:1" },
                "\(errors.map(\.reason))")
        // Identity, and no body at all, are read as they are.
        #expect(TestSupport.scan("HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Length: 2\r\n\r\nok", name: "i.http").errors.isEmpty)
        #expect(TestSupport.scan("HTTP/1.1 204 No Content\r\nContent-Encoding: \(coding)\r\n\r\n", name: "e.http").errors.isEmpty)
    }

    /// Transfer codings: gzip under chunked is undone (the token inside is found), chunked
    /// must come last (else the body's length is unknown), and any other coding is refused.
    @Test func transferCodingsAreUndoneOrRefused() throws {
        let json = Array("{\"note\": \"\(Self.token)\"}".utf8)
        let gzip = try #require(GzipEncoder.compress(json, headerFrom: []))
        func chunked(_ codings: [String], _ body: [UInt8]) -> [UInt8] {
            var bytes = Array(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + codings.map { "Transfer-Encoding: \($0)\r\n" }.joined() + "\r\n" + String(body.count, radix: 16) + "\r\n").utf8)
            bytes += body
            bytes += Array("\r\n0\r\n\r\n".utf8)
            return bytes
        }
        for codings in [["gzip, chunked"], ["gzip", "chunked"], ["GZIP ,chunked"]] {
            let result = TestSupport.scan(bytes: chunked(codings, gzip), name: "te.http")
            #expect(result.errors.isEmpty, "\(codings)")
            #expect(result.findings.map(\.ruleId).contains("secret.github-token"), "\(codings)")
        }
        // At the coding after chunked, or at the first Transfer-Encoding when none is chunked.
        for (codings, line) in [(["chunked, gzip"], 3), (["chunked", "gzip"], 4), (["gzip"], 3)] {
            let errors = TestSupport.scan(bytes: chunked(codings, gzip), name: "te.http").errors
            #expect(errors.map(\.kind) == [.parse] && errors.first?.reason.contains("does not end with chunked") == true, "\(codings)")
            #expect(errors.first?.position?.line == line, "\(codings)")
        }
        let refused = TestSupport.scan(bytes: chunked(["compress, chunked"], Array("opaque".utf8)), name: "te.http").errors
        #expect(refused.map(\.kind) == [.parse] && refused.first?.reason.contains("coded compress") == true, "\(refused.map(\.reason))")
        // Chunked alone, as every capture writes it, is read as before.
        #expect(TestSupport.scan(bytes: chunked(["chunked"], json), name: "te.http").errors.isEmpty)
    }

    @Test func aGzipBodyBeyondTheRatioIsALimitError() throws {
        let body = try #require(GzipEncoder.compress([UInt8](repeating: 0x20, count: 2_000_000), headerFrom: []))
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        bytes += body
        let errors = TestSupport.scan(bytes: bytes, name: "bomb.http").errors
        #expect(errors.map(\.kind) == [.limit])
        #expect(errors.first?.reason.contains("gzip bomb") == true)
        #expect(errors.first?.position.map { "\($0.line):\($0.column)" } == "5:1")
    }

    /// A raw message keeps its body as it was sent: a gzip body puts NUL bytes in the first 8 KiB,
    /// and the message is still read (it was skipped as a binary file), by its content whatever
    /// its name (Fiddler's `.saz` archives name a response `raw/01_s.txt`).
    @Test func aMessageWithABinaryBodyIsNoBinaryFile() throws {
        let body = try #require(GzipEncoder.compress(Array(#"{"note": "\#(Self.token)"}"#.utf8), headerFrom: []))
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        bytes += body
        #expect(bytes.prefix(8192).contains(0))
        func scan(_ bytes: [UInt8], name: String) -> ArtifactOutcome {
            var bytes = bytes
            return bytes.withUnsafeMutableBytes { Scanner(rules: TestSupport.builtinPack).scan(bytes: UnsafeRawBufferPointer($0), name: name) }
        }
        for name in ["raw/01_s.txt", "response"] {
            let outcome = scan(bytes, name: name)
            #expect(outcome.errors.isEmpty)
            #expect(outcome.summary.format == "http")
            #expect(outcome.findings.map(\.path.description) == ["/entries/0/response/content/text!gzip!json/note"])
        }
        // What is no HTTP message is still a binary file.
        #expect(scan(Array("status 200\n".utf8) + body, name: "response").summary.skipped == "a binary file (a NUL byte in its first 8 KiB)")
    }

    /// Hits waiting for the end of one exchange are bounded as in a JSON document.
    @Test func headersPastTheHitLimitAreALimitError() {
        var options = ScanOptions(inputFormat: .http)
        options.maxDocumentHits = 100
        let headers = (0..<500).map { "X-Session-Token-\($0): changeme" }.joined(separator: "\n")
        let result = TestSupport.scan("GET /v1/push HTTP/1.1\n\(headers)\n\n", name: "hits.http", options: options)
        #expect(result.errors.map(\.kind) == [.limit])
        #expect(result.errors.first?.reason.hasPrefix("more than 100 hits wait for the end of one document") == true)
    }
}
