@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Foundation
import Testing

/// Fake, format-valid secrets (as in CaptureTests).
private let github = "ghp_Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"

private func scan(_ text: String, name: String) -> ArtifactOutcome {
    scan(bytes: Array(text.utf8), name: name)
}

private func scan(bytes: [UInt8], name: String) -> ArtifactOutcome {
    var bytes = bytes
    return bytes.withUnsafeMutableBytes { Scanner(rules: TestSupport.builtinPack).scan(bytes: UnsafeRawBufferPointer($0), name: name) }
}

private func places(_ outcome: ArtifactOutcome) -> [String] {
    outcome.findings.map { "\($0.ruleId) \($0.position.line):\($0.position.column)" }
}

/// Inputs that are none of the structured formats are scanned as text, each hit at the secret's
/// own line and column; binary files are skipped with the reason; a name that claims a format
/// keeps failing closed (issue 22).
@Suite struct TextInputTests {
    @Test func aTokenInSourceCodeIsFoundAtItsLineAndColumn() {
        let outcome = scan("import 'package:http/http.dart';\n\nconst token = '\(github)';\n", name: "lib/main.dart")
        #expect(outcome.errors.isEmpty)
        #expect(outcome.summary.format == "text")
        #expect(places(outcome) == ["secret.github-token 3:16"])
    }

    @Test func aTokenInMarkdownIsFoundAtItsLineAndColumn() {
        let outcome = scan("# Setup\n\nExport `GITHUB_TOKEN=\(github)` first.\n", name: "README.md")
        #expect(outcome.errors.isEmpty)
        #expect(places(outcome) == ["secret.github-token 3:22"])
    }

    @Test func inCodeAnAssignmentFromACallIsNoCredentialAndAQuotedLiteralIs() {
        #expect(scan("void main() {\n  final password = cfg.get('db');\n}\n", name: "lib/db.dart").findings.isEmpty)
        #expect(places(scan("void main() {\n  final password = \"Xk9mQ2vL7pR4wzT8\";\n}\n", name: "lib/db.dart"))
                == ["secret.password-in-text 2:21"])
        // In a configuration file an unquoted value is a literal.
        #expect(places(scan("db.user=app\npassword = Xk9mQ2vL7pR4wzT8\n", name: "app.properties")) == ["secret.password-in-text 2:12"])
    }

    @Test(arguments: [
        ("logo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52], "a PNG image"),
        ("blob.dat", Array("abc\u{0}def \(github)".utf8), "a binary file (a NUL byte in its first 8 KiB)"),
        ("logs.7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4], "a 7z archive"),
    ] as [(String, [UInt8], String)])
    func aBinaryFileIsSkippedWithTheReasonNotAnError(_ name: String, _ bytes: [UInt8], _ reason: String) {
        let outcome = scan(bytes: bytes, name: name)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.findings.isEmpty)
        #expect(outcome.summary.format == nil)
        #expect(outcome.summary.skipped == reason)
    }

    /// Base64 in text is opened as in a JSON value: a log line's body, a token encoded once
    /// more, a source map in a script. The hit stands at the run's line and column.
    @Test func base64InTextIsOpenedAndScanned() {
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        let body = base64(#"{"apiKey": "\#(github)", "habits": []}"#)
        let log = scan("2025-11-30T12:00:01Z INFO sync push\n2025-11-30T12:00:02Z DEBUG body=\(body) status=200\n", name: "sync.log")
        #expect(log.findings.map { "\($0.ruleId) \($0.position.line):\($0.position.column) \($0.pathText)" }
                == ["secret.github-token 2:33 !base64!json/apiKey"])
        let twice = scan("token: \(base64(github))\n", name: "notes.md")
        #expect(twice.findings.map { "\($0.ruleId) \($0.pathText)" } == ["secret.github-token !base64"])
        // URL-safe and unpadded, inside a longer line of code.
        let urlSafe = base64(#"{"accessToken":"\#(github)"}"#).replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(places(scan("const blob = atob(\"\(urlSafe)\");\n", name: "app.js")).count == 1)
        #expect(log.errors.isEmpty && twice.errors.isEmpty)
    }

    /// Base64 wrapped into lines (`base64` and MIME: 76 a line; PEM and OpenSSL: 64; LF or
    /// CRLF) is opened whole: line by line it was JSON cut at every break, its names unread and
    /// a token across a break missed. The block's hits stand at its first line.
    @Test func wrappedBase64IsOpenedWhole() {
        // The token takes decoded bytes 54 to 93: at 76 a line (57 bytes) it crosses the first break.
        let json = #"{"note": "\#(String(repeating: "x", count: 30))", "apiKey": "\#(github)", "password": "S3cret-pw"}"#
        let encoded = Data(json.utf8).base64EncodedString()
        for (width, lineBreak) in [(76, "\n"), (76, "\r\n"), (64, "\n")] {
            let lines = stride(from: 0, to: encoded.count, by: width).map {
                String(encoded.dropFirst($0).prefix(width))
            }
            // At 76 a line, a last line too short to be a run of its own; at 64, a long one.
            #expect((lines.last!.count < 16) == (width == 76))
            let text = "ticket 4711, the backup:\(lineBreak)" + lines.joined(separator: lineBreak) + "\(lineBreak)thanks\(lineBreak)"
            let outcome = scan(text, name: "ticket.txt")
            #expect(outcome.errors.isEmpty)
            #expect(outcome.findings.map { "\($0.ruleId) \($0.position.line):\($0.position.column) \($0.pathText)" }.sorted() == [
                "name.password 2:1 !base64!json/password", "secret.github-token 2:1 !base64!json/apiKey",
            ], "\(width) \(lineBreak == "\n" ? "LF" : "CRLF")")
        }
        // A PEM certificate's lines decode to DER, binary: no layer, no finding.
        let der = Data([0x30, 0x82, 0x01, 0x0A, 0x02, 0x82, 0x01, 0x01, 0x00] + (0..<200).map { UInt8(($0 * 37 + 11) % 256) })
        let pem = der.base64EncodedString().enumerated().map { $0.offset > 0 && $0.offset % 64 == 0 ? "\n\($0.element)" : "\($0.element)" }.joined()
        let certificate = scan("-----BEGIN CERTIFICATE-----\n\(pem)\n-----END CERTIFICATE-----\n", name: "server.crt")
        #expect(certificate.findings.isEmpty && certificate.errors.isEmpty)
    }

    /// What base64-shaped runs ordinary text holds (paths, identifiers, hashes, base64 of an
    /// image) decodes to binary, and stays text.
    @Test func base64ShapedTextThatDecodesToBinaryIsNoLayer() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]).base64EncodedString()
        let text = """
        import '/usr/local/lib/node_modules/habiter/dist/sync/outboxRepository';
        const getElementsByTagNameNS = document.getElementsByTagNameNS;
        <script integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>
        .logo { background: url(data:image/png;base64,\(png)); }
        id: 6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f, digest: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b
        """
        let outcome = scan(text, name: "page.html")
        #expect(outcome.findings.isEmpty && outcome.errors.isEmpty)
    }

    @Test func aNameThatClaimsAFormatStillFailsClosed() {
        for name in ["push.json", "log.ndjson", "oplog.jsonl", "c.har", "a.http", "-"] {
            let outcome = scan("{\"token\": \"\(github)\",\n  oops", name: name)
            #expect(outcome.errors.map(\.kind) == [.parse], "\(name)")
        }
        // A PNG named as JSON is an error, not a skip.
        let png = scan(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], name: "capture.json")
        #expect(png.summary.skipped == nil)
        #expect(png.errors.map(\.kind) == [.format])
        #expect(scan("", name: "empty.json").errors.map(\.reason) == ["empty input"])
    }

    @Test func contentThatOnlyLooksStructuredIsText() {
        let broken = scan("{\"a\": 1,\n  oops \(github)\n", name: "notes.txt")
        #expect(broken.errors.isEmpty)
        #expect(broken.summary.format == "text")
        #expect(places(broken) == ["secret.github-token 2:8"])
        let component = scan("\"use client\";\nimport x from \"y\";\nconst token = \"\(github)\";\n", name: "app/page.tsx")
        #expect(component.errors.isEmpty)
        #expect(places(component) == ["secret.github-token 3:16"])
        #expect(scan("[the docs](https://example.com)\n", name: "NOTES").summary.format == "text")
        #expect(scan("<p>Hello&nbsp;world</p>\n", name: "page.html").summary.format == "text")
        #expect(scan("", name: "empty.md").errors.isEmpty)
        // Content that reads as JSON is JSON, whatever the name.
        #expect(scan("{\"a\": 1}\n{\"b\": 2}\n", name: "events.log").summary.format == "ndjson")
    }

    /// A file larger than a chunk: every token, at the chunks' overlaps too, once at its line.
    @Test func aLargeFileIsReadInChunksAndEveryHitIsFoundOnce() {
        var lines: [String] = []
        var expected: [String] = []
        let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 3)
        for line in 1...12_000 {
            if line % 997 == 0 {
                // Distinct tokens: one secret repeated in one chunk would be one finding.
                let token = "ghp_" + String(format: "%05d", line) + String(github.dropFirst(9))
                lines.append("key \(token)")
                expected.append("secret.github-token \(line):5")
            } else {
                lines.append(filler)
            }
        }
        let text = lines.joined(separator: "\n")
        #expect(text.utf8.count > 6 * TextInputScanner.chunkBytes)
        let outcome = scan(text, name: "big.log")
        #expect(outcome.errors.isEmpty)
        #expect(places(outcome) == expected)
    }
}
