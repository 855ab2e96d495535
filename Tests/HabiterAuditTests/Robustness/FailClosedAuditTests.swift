@testable import AuditCore
import Foundation
import TestHelpers
import Testing

/// The fail-closed audit (issue 8): for every reader and decoder, a read, parse, decode or
/// limit error reaches the exit status (2) and every report (an `errors` entry with the file and
/// position; "Gate failed" in text), never "no findings". Where a decoder failure is not an
/// error, the value is scanned as text instead, and that is tested too (docs/robustness.md).
@Suite struct FailClosedAuditTests {
    static let token = HostileInputTests.token

    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let file: String
        let bytes: [UInt8]
        let kind: InputError.Kind
        let reason: String
        /// A finding the scan must still report next to the error (what was read before it).
        var finding: String? = nil
    }

    static func http(_ headers: String, _ body: [UInt8]) -> [UInt8] {
        Array("POST /v1/sync/push HTTP/1.1\r\nHost: api.habiter.app\r\n\(headers)\r\n".utf8) + body
    }
    static func har(_ content: String) -> [UInt8] {
        Array(#"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-11-30T07:00:00Z", "time": 1, "request": {"method": "GET", "url": "https://api.example.com/", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": \#(content), "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 1}}]}}"#.utf8)
    }

    static let cases: [Case] = [
        // Readers
        Case(description: "JSON reader: truncated document", file: "push.json",
             bytes: Array(#"{"gh": "\#(token)", "ops": [1, 2"#.utf8), kind: .parse, reason: "unexpected end of input",
             finding: "secret.github-token"),
        Case(description: "NDJSON reader: a broken line between good ones", file: "log.ndjson",
             bytes: Array((#"{"gh": "\#(token)"}"# + "\n{\"a\": tru\n{\"b\": 1}\n").utf8), kind: .parse, reason: "invalid literal",
             finding: "secret.github-token"),
        Case(description: "prefs XML reader: a DOCTYPE", file: "FlutterSharedPreferences.xml",
             bytes: Array("<?xml version='1.0'?>\n<!DOCTYPE map [<!ENTITY a \"aaaa\">]>\n<map><string name=\"flutter.a\">&a;</string></map>\n".utf8),
             kind: .parse, reason: "DOCTYPE"),
        Case(description: "HAR reader: truncated capture", file: "c.har",
             bytes: Array(har(#"{"size": 0, "mimeType": "text/plain", "text": "\#(token)"}"#).dropLast(9)), kind: .parse,
             reason: "unexpected end of input", finding: "secret.github-token"),
        Case(description: "HTTP reader: body shorter than Content-Length", file: "push.http",
             bytes: http("Content-Type: application/json\r\nContent-Length: 500\r\n", Array(#"{"gh": "\#(token)"}"#.utf8)),
             kind: .parse, reason: "Content-Length", finding: "secret.github-token"),
        Case(description: "DataStore reader: a file cut inside an entry", file: "FlutterSharedPreferences.preferences_pb",
             bytes: DataStoreFixture.entry("note", .string("token \(token)")) + Array(DataStoreFixture.entry("more", .long(7)).dropLast(1)),
             kind: .parse, reason: "runs past the end of the input", finding: "secret.github-token"),
        Case(description: "format detection: binary named as a capture", file: "capture.har",
             bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48], kind: .format, reason: "cannot be determined"),
        Case(description: "gzip input: corrupt data", file: "capture.json.gz",
             bytes: [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF] + Array("not deflate data at all".utf8), kind: .read, reason: "gzip"),
        // Decoders and limits
        Case(description: "base64 layer: nested beyond the layer limit", file: "blob.json",
             bytes: Array(#"{"blob": "\#(HostileInputTests.base64Layers(9))"}"#.utf8), kind: .limit, reason: "encoded layers nested deeper"),
        Case(description: "JSON-in-string layer: nested beyond the depth limit", file: "note.json",
             bytes: Array(#"{"note": "\#(String(repeating: "[", count: 600))1\#(String(repeating: "]", count: 600))"}"#.utf8),
             kind: .limit, reason: "JSON in a string nested deeper"),
        Case(description: "gzip layer: a gzip-encoded HTTP body that is corrupt", file: "push.http",
             bytes: http("Content-Encoding: gzip\r\nContent-Length: 18\r\n", [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF] + Array("garbage!".utf8)),
             kind: .parse, reason: "cannot be decompressed"),
        Case(description: "base64 body: a HAR body marked base64 that is not", file: "c.har",
             bytes: har(#"{"size": 0, "mimeType": "text/plain", "encoding": "base64", "text": "not base64: \#(token)"}"#),
             kind: .parse, reason: "not valid base64", finding: "secret.github-token"),
        Case(description: "HAR body: a content.encoding that cannot be undone", file: "c.har",
             bytes: har(#"{"size": 0, "mimeType": "text/plain", "encoding": "gzip", "text": "opaque \#(token)"}"#),
             kind: .parse, reason: "content.encoding is not base64", finding: "secret.github-token"),
        Case(description: "document hit limit", file: "records.json",
             bytes: Array(("{\"records\": [" + Array(repeating: #"{"token": "-"}"#, count: 300).joined(separator: ",") + "]}").utf8),
             kind: .limit, reason: "hits wait for the end of one document"),
    ]

    @Test(arguments: cases)
    func anErrorReachesTheExitStatusAndEveryReport(_ testCase: Case) throws {
        let directory = TestSupport.temporaryDirectory()
        let file = directory.appendingPathComponent(testCase.file)
        try Data(testCase.bytes).write(to: file)
        let extra = testCase.kind == .limit && testCase.reason.contains("hits wait") ? ["--max-document-hits", "100"] : []
        let json = TestSupport.runCLI(["scan", "--no-config", "--format", "json"] + extra + [file.path])
        #expect(json.status == ExitStatus.inputError, "\(testCase): exit \(json.status)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let errors = report["errors"] as! [[String: Any]]
        #expect(errors.contains { $0["kind"] as? String == testCase.kind.rawValue && ($0["reason"] as? String ?? "").contains(testCase.reason) },
                "\(testCase): \(errors.map { "\($0["kind"]!): \($0["reason"]!)" })")
        #expect(errors.allSatisfy { ($0["artifact"] as? String ?? "").hasSuffix(testCase.file) })
        if testCase.kind != .read && testCase.kind != .format || testCase.reason == "cannot be determined" {
            #expect(errors.allSatisfy { $0["line"] as? Int != nil }, "\(testCase): an error without a position")
        }
        let findings = (report["findings"] as! [[String: Any]]).map { $0["ruleId"] as! String }
        if let rule = testCase.finding { #expect(findings.contains(rule), "\(testCase): \(findings)") }

        let text = TestSupport.runCLI(["scan", "--no-config", "--format", "text"] + extra + [file.path])
        #expect(text.status == ExitStatus.inputError)
        #expect(text.stdout.contains("Gate failed: not every input could be scanned"))
        let sarif = TestSupport.runCLI(["scan", "--no-config", "--format", "sarif"] + extra + [file.path])
        #expect(sarif.status == ExitStatus.inputError)
        #expect(sarif.stdout.contains("\"executionSuccessful\" : false") || sarif.stdout.contains("\"executionSuccessful\": false")
                || sarif.stdout.contains("\"executionSuccessful\":false"), "\(testCase): SARIF does not say the run failed")
    }

    /// Decoder failures that are not errors: the value simply is not that encoding, and it is
    /// scanned as text, where the secret is found.
    @Test(arguments: [
        #"{"u": "https://api.example.com/cb?x=%zz&token=\#(token)"}"#,              // query with a bad escape
        #"{"t": "eyJhbGciOiJIUzI1NiJ9.%%%.x \#(token)"}"#,                           // not a JWT
        #"{"b": "a=1&b=%G0&key=\#(token)"}"#,                                          // form with a bad escape
        #"{"n": "{\"not\": json \#(token)"}"#,                                         // starts like JSON, is not
        #"{"h": "Basic !!!notbase64!!! \#(token)"}"#,                                  // Basic auth, not base64
    ])
    func aValueThatIsNotItsApparentEncodingIsScannedAsText(_ text: String) {
        let outcome = TestSupport.scan(text)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.findings.map(\.ruleId).contains("secret.github-token"))
    }

    /// A rule file that cannot be loaded stops the scan before it starts (exit 2): never a scan
    /// without the rule.
    @Test func anInvalidRuleFileFailsTheScan() throws {
        let rules = TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(at: InvalidRuleFileTests.directory.appendingPathComponent("catastrophic-pattern.json"),
                                         to: rules.appendingPathComponent("slow.json"))
        let input = TestSupport.temporaryDirectory().appendingPathComponent("clean.json")
        try Data(#"{"ok": true}"#.utf8).write(to: input)
        let result = TestSupport.runCLI(["scan", "--no-config", "--rules", rules.path, input.path])
        #expect(result.status == ExitStatus.inputError)
        #expect(result.stderr.contains("slow.json:2:3: rule 'secret.slow': the pattern backtracks catastrophically"))
    }
}
