@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// Burp Suite's XML export of items is read, each item's request and response as one raw HTTP
/// exchange; it was refused for its DTD (exit 2), and without the DTD its base64 messages gave
/// the pattern rules alone: a header judged by its name and a gzip body passed unread. An HTTP
/// message held in any string is read the same way (`!http`). The fixtures in `Fixtures/burp`
/// are the calls of `Fixtures/mitmproxy/proxy-capture.mitm` written as Burp 2022.8 writes them
/// (`make-fixtures.py` beside them says how).
@Suite struct BurpExportTests {
    static let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures")

    static func text(_ file: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
    }

    /// What a finding says, without where it stands, its item's layer written as the entry of a
    /// raw HTTP file (`/items/item[2]!http/entries/0/…` as `/entries/1/…`).
    static func described(_ findings: [Finding]) -> [String] {
        findings.map { finding in
            var path = finding.pathText
            if let layer = path.range(of: "!http/entries/0/") {
                let item = path[..<layer.lowerBound]
                let index = item.hasSuffix("]") ? Int(item[item.index(after: item.lastIndex(of: "[")!)..<item.index(before: item.endIndex)])! - 1 : 0
                path = "/entries/\(index)/" + path[layer.upperBound...]
            }
            return "\(finding.ruleId) \(path) \(finding.message) \(finding.context)"
        }.sorted()
    }

    /// Every header, body (gzip undone, a form read) and cookie of the capture is found as in the
    /// same calls written as raw HTTP, judged alike (the pull's response in the sync call's
    /// context, as its request says), each at the line of its message's element.
    @Test func anExportReadsAsItsCallsWrittenAsRawHTTP() throws {
        let export = try Self.text("burp/proxy-capture-burp.xml")
        let burp = TestSupport.scan(export, name: "proxy-capture-burp.xml")
        let raw = TestSupport.scan(bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("mitmproxy/proxy-capture.http"))),
                                   name: "proxy-capture.http")
        #expect(burp.errors.isEmpty && raw.errors.isEmpty)
        #expect(burp.findings.count == 4)
        #expect(Self.described(burp.findings) == Self.described(raw.findings))
        let lines = export.split(separator: "\n", omittingEmptySubsequences: false)
        for finding in burp.findings {
            let element = finding.pathText.contains("/response/") ? "<response base64=\"true\">" : "<request base64=\"true\">"
            #expect(lines[finding.position.line - 1].hasPrefix("    " + element), "\(finding.ruleId) \(finding.pathText)")
        }
    }

    /// With "Base64-encode requests and responses" unticked, the messages stand in CDATA as they
    /// are, and read the same.
    @Test func messagesAsTheyAreReadAsBase64Ones() throws {
        let plain = TestSupport.scan(try Self.text("burp/proxy-capture-burp-plain.xml"), name: "plain.xml")
        #expect(plain.errors.isEmpty)
        #expect(plain.findings.map { "\($0.ruleId) \($0.pathText) \($0.position.line)" } == [
            "secret.github-token /items/item!http/entries/0/request/headers/3/value 35",
            "name.client-secret /items/item[2]!http/entries/0/request/postData/text!form/client_secret 78",
        ])
    }

    /// An item's response is judged with its request: a token response to a `/token` call is
    /// the protocol's, as in raw HTTP, where read alone it would be a leaked token.
    @Test func aResponseIsJudgedWithItsRequest() {
        let request = "POST /oauth/token HTTP/1.1\r\nHost: auth.example.test\r\nContent-Type: application/json\r\n\r\n{\"device\": \"d-1\"}"
        let response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"access_token\": \"\(Self.github)\", \"token_type\": \"bearer\"}"
        let burp = TestSupport.scan(Self.export(items: [(request, response)]), name: "items.xml")
        let raw = TestSupport.scan(request + "\r\n" + response, name: "token.http")
        #expect(burp.errors.isEmpty && raw.errors.isEmpty)
        #expect(!burp.findings.isEmpty && Self.described(burp.findings) == Self.described(raw.findings))
        #expect(burp.findings.allSatisfy { $0.family == .transport })
    }

    /// An item's message that is not base64 though marked so, or that the HTTP reader refuses,
    /// is an input error at its element, and is scanned as text: never passed without a word.
    @Test func aMessageThatCannotBeReadIsAnError() {
        let token = "POST /v1/push HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.github)\r\n"
        let notBase64 = Self.export(items: [], raw: "<item><request base64=\"true\">not*base64</request></item>")
        #expect(TestSupport.scan(notBase64, name: "items.xml").errors.map(\.description)
                == ["items.xml:3:60: a Burp Suite item's message marked base64 cannot be decoded (invalid base64: the character at offset 3 is not in the base64 alphabet): it is only scanned as text"])
        let badLength = TestSupport.scan(Self.export(items: [(token + "Content-Length: 1e9\r\n\r\n{}", "")]), name: "items.xml")
        #expect(badLength.errors.map(\.reason).first?.hasPrefix("an HTTP message in a string cannot be read (") == true)
        #expect(badLength.findings.map { "\($0.ruleId) \($0.pathText)" } == ["secret.github-token /items/item/request/text()"])
    }

    /// An item is one document, as an exchange of a raw HTTP file: the hit limit counts an
    /// item's hits, not the export's, and a secret sent in several items is counted as repeated
    /// across requests. In a layer (an export held in a string) the items stay the outer
    /// document's.
    @Test func anItemIsOneDocument() {
        let request = "GET /v1/pull HTTP/1.1\r\nHost: sync.example.test\r\nAuthorization: Bearer \(Self.github)\r\n\r\n"
        let export = Self.export(items: Array(repeating: (request, "HTTP/1.1 204 No Content\r\n\r\n"), count: 12))
        var options = ScanOptions()
        options.maxDocumentHits = 5
        let limited = TestSupport.scan(export, name: "items.xml", options: options)
        #expect(limited.errors.isEmpty && limited.findings.count == 12)
        let summary = TextReport.repeatedAcrossRequests(TestSupport.scan(export, name: "items.xml").findings)
        #expect(summary == "repeated across requests: 1 secret.github-token in 12 requests")
        let held = #"{"export": "\#(export.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n"))"}"#
        let inLayer = TestSupport.scan(held, name: "ticket.json", options: options)
        #expect(!inLayer.errors.isEmpty && inLayer.errors.allSatisfy { $0.kind == .limit })
    }

    /// An HTTP message in any string, as it is or base64 (a response whatever its body: gzip
    /// stays compressed as sent), is read as one: a header judged by its name, a gzip body
    /// inflated. A method and a target without a version is a note's first words, not HTTP.
    @Test func anHTTPMessageInAStringIsALayer() throws {
        let request = "POST /v1/push HTTP/1.1\r\nHost: api.example.test\r\nX-Api-Key: Zq4vN8pL2wR7tY1uK5mBx3\r\n\r\n"
        let body = Array(#"{"ok": true, "refreshToken": "Rt9xLm2Qp7Vk4Ws8Yz3Nb6Hc"}"#.utf8)
        let gzip = try #require(GzipEncoder.compress(body, headerFrom: []))
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\n\r\n".utf8) + gzip
        let json = #"{"raw": "\#(request.replacingOccurrences(of: "\r\n", with: "\\r\\n"))", "saved": "\#(Data(response).base64EncodedString())", "note": "GET /x\nX-Api-Key: Zq4vN8pL2wR7tY1uK5mBx3"}"#
        let result = TestSupport.scan(json, name: "ticket.json")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.pathText)" } == [
            "name.api-key /raw!http/entries/0/request/headers/1/value",
            "name.refresh-token /saved!base64!http/entries/0/response/content/text!gzip!json/refreshToken",
        ])
    }

    /// A status line, or a request line with its version, and a line after it.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nA: b", true), ("POST /v1/push HTTP/1.1\nHost: x", true), ("HTTP/2 204\nA: b", true),
        ("POST /v1/push\nHost: x", false), ("POST /v1/push HTTP/1.1", false), ("Post /v1/push HTTP/1.1\nA: b", false),
        ("Hello world HTTP/1.1\nA: b", false),
    ])
    func theLayerOpensAtAStartLine(_ value: String, _ opens: Bool) {
        let decoder = HTTPLayerDecoder()
        let gate = decoder.gate
        let passes = value.utf8.count >= gate.minimumLength && gate.firstBytes!.utf8.contains(value.utf8.first!) && value.utf8.contains(0x0A)
        let decoded = Array(value.utf8).withUnsafeBytes { decoder.decode($0) != nil }
        #expect((passes && decoded) == opens, "\(value)")
    }

    static let github = "ghp_" + "Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"

    /// An export of `items` (request and response, base64-encoded; an empty response left out)
    /// and `raw` markup after them, with Burp's DTD and root.
    static func export(items: [(request: String, response: String)], raw: String = "") -> String {
        let encoded = items.map { item in
            "<item><url><![CDATA[https://auth.example.test/]]></url><request base64=\"true\"><![CDATA[\(Data(item.request.utf8).base64EncodedString())]]></request>"
                + "<status>200</status><response base64=\"true\"><![CDATA[\(Data(item.response.utf8).base64EncodedString())]]></response></item>"
        }.joined()
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE items [<!ELEMENT items (item*)><!ATTLIST request base64 (true|false) \"false\">]>\n<items burpVersion=\"2022.8.2\">"
            + encoded + raw + "</items>\n"
    }
}
