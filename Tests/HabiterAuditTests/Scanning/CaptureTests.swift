
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import AuditCore
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan

private let github = "ghp_Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"
private let bearer = "c7zGVmbELfGmFFHFM1JkVzGAVb9VGCdzKf-sG.fkZq"

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.family.rawValue)/\(f.level.rawValue) \(f.context.rawValue) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

/// HAR captures: entry by entry, with contexts, transport credentials and exact positions.
@Suite struct HARTests {
    static let har = """
    {
      "log": {
        "version": "1.2",
        "creator": {"name": "WebInspector", "version": "537.36"},
        "entries": [
          {
            "request": {
              "method": "POST",
              "url": "https://sync.habiter.app/v1/sync/push?trace=1",
              "headers": [
                {"name": "content-type", "value": "application/json"},
                {"name": "authorization", "value": "Bearer \(bearer)"}
              ],
              "postData": {"mimeType": "application/json", "text": "{\\"protocolVersion\\":1,\\"operations\\":[{\\"operationId\\":\\"o1\\",\\"document\\":{\\"schemaVersion\\":1,\\"entityId\\":\\"habit/h1\\",\\"deleted\\":false,\\"payload\\":{\\"id\\":\\"h1\\",\\"apiKey\\":\\"\\",\\"description\\":\\"\(github)\\"}}}]}"}
            },
            "response": {"status": 200, "content": {"mimeType": "application/json", "text": "eyJuZXh0Q3Vyc29yIjpudWxsLCJoYXNNb3JlIjpmYWxzZX0=", "encoding": "base64"}}
          },
          {
            "request": {
              "method": "POST",
              "url": "https://auth.habiter.app/oauth/token",
              "headers": [],
              "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "grant_type=authorization_code&code=Zx8Kq&code_verifier=Vb3xQ9mT2kL7pW4sN8cR1fH6jD0gY5aZ-uE_oI3wB"}
            },
            "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\\"access_token\\":\\"Qk2vT8xLm4Rz7WcYp1Nd5Hs9Bf3Jg6Ua\\",\\"token_type\\":\\"Bearer\\",\\"expires_in\\":3600}"}}
          },
          {
            "request": {"method": "GET", "url": "https://stats.example-cdn.net/collect?access_token=Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vT&event=open", "headers": [{"name": "Cookie", "value": "theme=dark; sid=Pq9Lm2Xc7Vb4Nz8Kk1Jh5Gf3"}]},
            "response": {"status": 302, "redirectURL": "https://stats.example-cdn.net/ok", "content": {}}
          }
        ]
      }
    }
    """

    @Test func entriesAreJudgedByContextAndCarrier() {
        let result = TestSupport.scan(Self.har, name: "session.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "secret.bearer-token transport/warning sync 12:48 /log/entries/0/request/headers/1/value key=authorization",
            // The body is a bare operation, not one the app writes: the contract says so.
            "contract.push-body policy/error sync 14:64 /log/entries/0/request/postData/text!json key=text",
            "contract.operation policy/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0 key=operations",
            "contract.protocol-version policy/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0 key=operations",
            "contract.required-field policy/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0/document key=habit/h1",
            "name.api-key policy/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0/document/payload/apiKey key=apiKey",
            "secret.github-token secret/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0/document/payload/description key=description",
            "contract.operation policy/error sync 14:64 /log/entries/0/request/postData/text!json/operations/0/kind key=kind",
            "name.pkce-verifier transport/warning payload 23:81 /log/entries/1/request/postData/text!form/code_verifier key=code_verifier",
            "name.token transport/warning payload 25:89 /log/entries/1/response/content/text!json/access_token key=access_token",
            "name.token secret/error payload 28:45 /log/entries/2/request/url!query/access_token key=access_token",
            "name.session transport/warning payload 28:175 /log/entries/2/request/headers/0/value!cookie/sid key=sid",
        ])
    }

    @Test func aHeaderIsJudgedByItsNameOnlyWhenItsValueHoldsNothingMore() {
        let har = """
        {"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://api.habiter.app/v1/me", "headers": [
          {"name": "x-api-key", "value": "Zq8vN3xL0pR5tW2yB7cD4fG9hJ1kM6nQ"},
          {"name": "x-api-key", "value": "\(github)"}
        ]}, "response": {"status": 200, "headers": [], "content": {"size": 0, "mimeType": "text/plain"}}}]}}
        """
        let result = TestSupport.scan(har, name: "headers.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.path)" } == [
            "name.api-key /log/entries/0/request/headers/0/value",
            "secret.github-token /log/entries/0/request/headers/1/value",
        ])
    }

    /// A cookie header is known by its name lowercased as `String.lowercased()` lowercases it:
    /// in any letter case, escaped or not, and with the Kelvin sign, whose lowercase is `k`.
    @Test func aCookieHeaderIsKnownByItsLowercasedName() {
        // A session id of its own in each, so that each is a finding of its own, after a pair
        // that keeps the form decoder from finding it too.
        func cookie(_ i: Int) -> String { "theme=dark; sid=Pq9Lm2Xc7Vb4Nz8Kk1Jh5Gf\(i)" }
        let names = ["COOKIE", "Co\\u006Fkie", "Coo\u{212A}ie", "Coo\\u212Aie", "Cookies", "cookie2", "Cöokie"]
        let headers = names.enumerated().map { #"{"name": "\#($1)", "value": "\#(cookie($0))"}"# }.joined(separator: ", ")
        let har = """
        {"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://app.example.net/me", "headers": [\(headers)]},
          "response": {"status": 200, "headers": [{"name": "SeT-CoOkIe", "value": "sid=Pq9Lm2Xc7Vb4Nz8Kk1Jh5Gf9; Path=/"}], "content": {"size": 0, "mimeType": "text/plain"}}}]}}
        """
        let result = TestSupport.scan(har, name: "cookies.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.path)" } == [
            "name.session /log/entries/0/request/headers/0/value!cookie/sid",
            "name.session /log/entries/0/request/headers/1/value!cookie/sid",
            "name.session /log/entries/0/request/headers/2/value!cookie/sid",
            "name.session /log/entries/0/request/headers/3/value!cookie/sid",
            "name.session /log/entries/0/response/headers/0/value!cookie/sid",
        ])
    }

    @Test func positionsArePositionsOfTheValuesAsWritten() {
        let findings = TestSupport.scan(Self.har, name: "session.har").findings
        let bearerHit = findings.first { $0.ruleId == "secret.bearer-token" }!
        #expect(bearerHit.position.line == 12)
        #expect(bearerHit.position.column == 48)
        #expect(bearerHit.path.description == "/log/entries/0/request/headers/1/value")
        let github = findings.first { $0.ruleId == "secret.github-token" }!
        #expect(github.position.line == 14)
        #expect(github.path.description == "/log/entries/0/request/postData/text!json/operations/0/document/payload/description")
        let query = findings.first { $0.path.description.hasSuffix("url!query/access_token") }!
        #expect(query.position.line == 28)
        #expect(query.family == .secret)
    }

    /// A token exchange is recognised by its response alone when the request shows no marker
    /// (an exporter that drops request bodies): the response text is escaped as written.
    @Test func aTokenResponseAloneMarksTheExchange() {
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "url": "https://auth.habiter.app/oauth/token"}, "response": {"content": {"mimeType": "application/json", "text": "{\"access_token\":\"Qk2vT8xLm4Rz7WcYp1Nd5Hs9Bf3Jg6Ua\",\"expires_in\":3600}"}}}]}}"#
        let result = TestSupport.scan(har, name: "token.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.token transport/warning payload 1:184 /log/entries/0/response/content/text!json/access_token key=access_token",
        ])
    }

    @Test func aBodyThatClaimsBase64ButIsNotIsReported() {
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://x.habiter.app/a"}, "response": {"content": {"text": "not base64 at all!", "encoding": "base64"}}}]}}"#
        let result = TestSupport.scan(har, name: "bad.har")
        #expect(result.errors.map(\.description) == ["bad.har:1:138: a body marked base64 is not valid base64; it was scanned as text"])
    }

    /// An encoding that says the text is as it is (empty, identity, a charset) is no error; any
    /// other than base64 is (the fail-closed audit has the case).
    @Test(arguments: ["", "identity", "UTF-8", "utf8"])
    func anEncodingThatNamesPlainTextIsReadAsText(_ encoding: String) {
        let token = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1"
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://x.habiter.app/a"}, "response": {"content": {"text": "see \#(token)", "encoding": "\#(encoding)"}}}]}}"#
        let result = TestSupport.scan(har, name: "plain.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(\.ruleId) == ["secret.github-token"])
    }

    @Test func memoryDoesNotGrowWithEntries() throws {
        // 20,000 entries through a 64 KiB window: the window never holds more than one entry.
        var text = #"{"log": {"version": "1.2", "entries": ["#
        for i in 0..<20_000 {
            if i > 0 { text += "," }
            text += #"{"request": {"method": "GET", "url": "https://x.habiter.app/v1/items/\#(i)", "headers": [{"name": "accept", "value": "application/json"}]}, "response": {"status": 200, "content": {"text": "{\"n\": \#(i)}"}}}"#
        }
        text += "]}}"
        let url = TestSupport.temporaryDirectory().appendingPathComponent("big.har")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let window = ByteWindow(descriptor: open(url.path, O_RDONLY), expectedSize: text.utf8.count, chunkSize: 64 * 1024)
        let outcome = Scanner(rules: TestSupport.builtinPack).scan(window, name: "big.har", rules: TestSupport.builtinPack, matcher: RegexMatcher())
        #expect(outcome.errors.isEmpty)
        #expect(outcome.summary.format == "har")
        #expect(window.capacityForTests <= 256 * 1024)
    }

    /// The path that decides an entry's context: no scheme, host, query or fragment, lowercased
    /// (beyond ASCII too).
    @Test(arguments: [
        ("https://Sync.Habiter.app/V1/Sync/Push?trace=1#top", "/v1/sync/push"),
        ("https://sync.habiter.app", "/"),
        ("https://host?next=/v1/sync/", "/v1/sync/"),
        ("/v1/sync/pull?cursor=2", "/v1/sync/pull"),
        ("/oauth/token#x", "/oauth/token"),
        ("https://host/ÄPFEL/Straße?q", "/äpfel/straße"),
        ("", ""),
    ])
    func urlPath(_ url: String, _ path: String) {
        #expect(HTTPExchange.path(ofURL: Array(url.utf8)) == path)
    }
}

/// Raw HTTP messages: `.http` files, proxy saves, curl dumps.
@Suite struct RawHTTPTests {
    @Test func restClientFileWithSeparators() {
        let text = """
        POST https://sync.habiter.app/v1/sync/push HTTP/1.1
        Content-Type: application/json
        Authorization: Bearer \(bearer)

        {"protocolVersion": 1, "operations": [], "debugToken": "Kq3Vb8Nz2Lm7Xc4Jh9Gf1Dw6"}

        ###

        GET https://api.habiter.app/v1/profile HTTP/1.1
        Authorization: Basic dXNlcjpTM2NyZXQtV29tYmF0LTk=
        """
        let result = TestSupport.scan(text, name: "calls.http")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "secret.bearer-token transport/warning sync 3:16 /entries/0/request/headers/1/value key=Authorization",
            // A push body is exactly {"operations": [...]} with 1 to 100 of them.
            "contract.push-body policy/error sync 5:2 /entries/0/request/postData/text!json key=-",
            "contract.push-body policy/error sync 5:38 /entries/0/request/postData/text!json/operations key=operations",
            "name.token secret/error sync 5:56 /entries/0/request/postData/text!json/debugToken key=debugToken",
            "name.password transport/warning payload 10:16 /entries/1/request/headers/0/value!basic/password key=password",
        ])
    }

    @Test func proxySaveWithContentLengthAndChunkedResponse() {
        let body = #"{"refresh_token": "Rf7Hs2Bf9Jg4Ua6EiZ1Qk3vT8xLm"}"#
        let text = "POST /oauth/token HTTP/1.1\r\nHost: auth.habiter.app\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 29\r\n\r\ngrant_type=refresh_token&x=1\n"
            + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        let result = TestSupport.scan(text, name: "token.txt")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            // A chunked body is decoded, so its values have the position of the body's start.
            "name.refresh-token transport/warning payload 11:1 /entries/0/response/content/text!json/refresh_token key=refresh_token",
        ])
    }

    @Test func curlVerboseDump() {
        let text = """
        *   Trying 203.0.113.7:443...
        * Connected to api.habiter.app (203.0.113.7) port 443
        > GET /v1/sync/pull?cursor=eyJyZXYiOjQyfQ&limit=100 HTTP/1.1
        > Host: api.habiter.app
        > Authorization: Bearer \(bearer)
        >
        < HTTP/1.1 200 OK
        < Content-Type: application/json
        <
        {"protocolVersion":1,"changes":[],"nextCursor":null,"hasMore":false,"note":"\(github)"}
        * Connection #0 to host api.habiter.app left intact
        """
        let result = TestSupport.scan(text, name: "curl.txt")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "secret.bearer-token transport/warning sync 5:18 /entries/0/request/headers/1/value key=Authorization",
            "secret.github-token secret/error sync 10:76 /entries/0/response/content/text!json/note key=note",
        ])
    }

    @Test(arguments: [
        ("GET /x HTTP/1.1\nBroken header line\n\n", "h.http:2:1: malformed header line (expected 'Name: value')"),
        ("POST /x HTTP/1.1\nContent-Length: 50\n\nshort", "h.http:4:6: the body is shorter than its Content-Length"),
        ("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\nzz\r\n", "h.http:4:1: malformed chunk size (hex digits, then an optional ';' extension)"),
    ])
    func errorsNameTheirPosition(_ text: String, _ message: String) {
        #expect(TestSupport.scan(text, name: "h.http").errors.map(\.description) == [message])
    }
}

/// SharedPreferences XML exports through the scanner.
@Suite struct PrefsScanTests {
    static let prefs = """
    <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
    <map>
        <string name="flutter.classly_token">Kq3Vb8Nz2Lm7Xc4Jh9Gf1Dw6</string>
        <string name="flutter.habiter_ai_config">{&quot;enabled&quot;:true,&quot;provider&quot;:&quot;anthropic&quot;,&quot;apiKey&quot;:&quot;Ak9Pq2Wd7Hs4Bf1Jg6Ua3EiZ&quot;}</string>
        <string name="flutter.recent_notes">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu![&quot;buy milk&quot;,&quot;\(github)&quot;]</string>
        <string name="flutter.weight">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBEb3VibGUu0.75</string>
        <boolean name="flutter.notifications" value="true" />
        <string name="flutter.habiter_widget_undo_tokens">[]</string>
        <string name="flutter.broken_list">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu!not json</string>
    </map>
    """

    @Test func everyEncodingIsReadAndPositioned() {
        let result = TestSupport.scan(Self.prefs, name: "FlutterSharedPreferences.xml")
        #expect(result.findings.map(summary) == [
            "inventory.sensitive-store secret/error prefs 3:42 /flutter.classly_token key=classly_token",
            "name.api-key secret/error prefs 4:46 /flutter.habiter_ai_config!json/apiKey key=apiKey",
            "secret.github-token secret/error prefs 5:41 /flutter.recent_notes!list/1 key=recent_notes",
        ])
        #expect(result.errors.map(\.description) == [
            "FlutterSharedPreferences.xml:9:40: a value with a Flutter list or number prefix is malformed: \(FlutterPrefsMalformation.invalidJSONList.message); it was scanned as text",
        ])
    }

    @Test func encryptedSecureStorageIsNotScannedButPlaintextIs() {
        // What the plugin writes: base64 of IV and ciphertext, with Android's line break.
        let ciphertext = Data((0..<48).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "&#10;"
        let dump = """
        <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
        <map>
            <string name="VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_classly_token">\(ciphertext)</string>
            <string name="VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_experimental_ai_api_key">Ak9Pq2Wd7Hs4Bf1Jg6Ua3EiZxY</string>
            <string name="__androidx_security_crypto_encrypted_prefs_key_keyset__">12a9010a4c0a3a747970652e676f6f676c65617069732e636f6d</string>
        </map>
        """
        let result = TestSupport.scan(dump, name: "FlutterSecureStorage.xml")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.api-key secret/error prefs 4:99 /VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_experimental_ai_api_key key=experimental_ai_api_key",
        ])
    }

    @Test(arguments: [
        ("<?xml version='1.0'?>\n<!DOCTYPE map [<!ENTITY lol \"lol\">]>\n<map/>", "x.xml:2:1: DOCTYPE declarations are not allowed (no DTDs, entity definitions or external entities)"),
        ("<map>\n<string name=\"a\">&xxe;</string>\n</map>", "x.xml:2:18: undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)"),
        ("<map>\n<string name=\"a\">x</strin>\n</map>", "x.xml:2:19: end tag does not match the open element"),
        ("<map>\n<string name=\"a\">x", "x.xml:2:19: unexpected end of input inside a <string> element (which holds only text)"),
    ])
    func hostileAndBrokenXMLIsRefused(_ text: String, _ message: String) {
        #expect(TestSupport.scan(text, name: "x.xml").errors.map(\.description) == [message])
    }
}

/// Format detection by content, and gzip-compressed inputs.
@Suite struct FormatDetectionTests {
    /// What an input named `name` (by default one that claims a structured format) is detected as.
    static func detect(_ text: [UInt8], name: String = "capture.json") -> String {
        text.withUnsafeBytes { bytes in
            switch FormatDetector.detect(ByteWindow(whole: bytes), name: name) {
            case .success(.compressed(let coding)): return coding.layerName
            case .success(.archive(let format)): return "archive \(format.rawValue)"
            case .success(.utf16(let order, let markLength)): return "\(order.name) \(markLength)"
            case .success(.format(let f)): return f.rawValue
            case .success(.jsonp(let f, let start)): return "jsonp \(f.rawValue) at \(start)"
            case .success(.skipped(let reason)): return "skipped: \(reason)"
            case .failure(let e): return "error: \(e.reason)"
            }
        }
    }

    @Test(arguments: [
        (#"{"log": {"version": "1.2", "entries": []}}"#, "har"),
        (#"{"log": "started", "level": "info"}"#, "json"),
        (#"{"log": {"msg": "x"}}"#, "json"),
        ("[1, 2]", "json"),
        ("\u{FEFF}  {\"a\": 1}", "json"),
        ("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map />", "prefs-xml"),
        ("GET /v1/sync/pull HTTP/1.1\nHost: x\n", "http"),
        ("HTTP/2 200\ncontent-type: application/json\n", "http"),
        ("> GET / HTTP/1.1\n", "http"),
        ("hello world", "error: the input format cannot be determined: not JSON, NDJSON, a HAR capture, SharedPreferences XML, a DataStore preferences file or an HTTP message (it starts with a letter)"),
        ("", "error: empty input"),
    ])
    func byContent(_ text: String, _ expected: String) {
        #expect(Self.detect(Array(text.utf8)) == expected)
    }

    /// A name that claims nothing lets the content decide, and what is none of the formats is text.
    @Test(arguments: [
        ("hello world", "text"),
        ("", "text"),
        ("{\"a\": 1,\n oops", "text"),
        ("{\"a\": 1}", "json"),
        ("<manifest><application/></manifest>", "xml"),
        ("<map><string name=\"a\">b</string></map>", "prefs-xml"),
        ("<map><broken", "prefs-xml"),
        ("<html><br></html>", "text"),
        ("onInputData({\"log\": {\"version\": \"1.2\", \"entries\": []}});", "jsonp har at 12"),
        ("cb([1, 2])", "jsonp json at 3"),
        ("cb([1, 2) + x", "text"),
        ("GET /v1/sync/pull HTTP/1.1\nHost: x\n", "http"),
        ("\u{1}\u{0}x", "skipped: a binary file (a NUL byte in its first 8 KiB)"),
        ("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n\u{1F}\u{8B}\u{8}\u{0}", "http"),
        ("* Connected\n< HTTP/1.1 200 OK\n<\n\u{0}", "http"),
        ("14:4:type;4:http;}", "mitmproxy"),
    ])
    func byContentWithoutAClaim(_ text: String, _ expected: String) {
        #expect(Self.detect(Array(text.utf8), name: "notes") == expected)
    }

    @Test func binaryXMLAndUTF32AreRefused() {
        #expect(Self.detect([0x41, 0x42, 0x58, 0x00, 0x01]) == "error: Android binary XML (ABX) is not supported; export the preferences as text XML")
        #expect(Self.detect([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00]) == "error: UTF-32 input is not supported; inputs must be UTF-8 or UTF-16")
        #expect(Self.detect([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00], name: "notes.txt") == "skipped: UTF-32 text (UTF-8 and UTF-16 are scanned)")
    }

    @Test func gzipInputsAreScannedAsWhatTheyHold() throws {
        let directory = TestSupport.temporaryDirectory()
        let plain = directory.appendingPathComponent("capture.json")
        try #"{"note": "\#(github)"}"#.write(to: plain, atomically: true, encoding: .utf8)
        let gzip = try #require(TestSupport.which("gzip"))
        _ = try TestSupport.run(gzip, ["-k", plain.path])
        let result = Scanner(rules: TestSupport.builtinPack).scan(paths: [plain.path + ".gz"])
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { $0.path.description } == ["!gzip/note"])
        #expect(result.artifacts.first?.format == "json+gzip")
        // A truncated and a corrupt gzip input fail closed.
        let data = try Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz"))
        try data.prefix(data.count - 6).write(to: directory.appendingPathComponent("truncated.json.gz"))
        var corrupt = data
        corrupt[corrupt.count - 12] ^= 0xFF
        try corrupt.write(to: directory.appendingPathComponent("corrupt.json.gz"))
        let broken = Scanner(rules: TestSupport.builtinPack).scan(paths: [directory.appendingPathComponent("truncated.json.gz").path,
                                                                         directory.appendingPathComponent("corrupt.json.gz").path])
        #expect(broken.errors.count == 2)
        #expect(broken.errors.allSatisfy { $0.kind == .read || $0.kind == .parse })
    }

    /// A capture compressed whole in the zlib format (mitmproxy's `.zhar`) or with zstd
    /// (`.har.zst`) is read as what it holds, as a gzip one is; before, both were skipped as
    /// binary files. Zstd frames one after another are one stream; a truncated or corrupt stream,
    /// bytes after a zlib stream and a bomb fail closed; text that starts `x^` stays text.
    @Test func zlibAndZstdInputsAreScannedAsWhatTheyHold() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = Array(#"{"note": "\#(github)"}"#.utf8)
        var zlib: [UInt8] = []
        #expect(json.withUnsafeBytes { Zlib.Deflater(.zlib).compress($0, final: true, onto: &zlib) })
        let zstd = try #require(json.withUnsafeBytes(Zstd.compress))
        func scan(_ name: String, _ bytes: [UInt8]) throws -> ScanResult {
            let file = directory.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            return Scanner(rules: TestSupport.builtinPack).scan(paths: [file.path])
        }
        for (name, bytes, layer) in [("flows.zhar", zlib, "deflate"), ("capture.json.zst", zstd, "zstd")] {
            let result = try scan(name, bytes)
            #expect(result.errors.isEmpty, "\(name)")
            #expect(result.findings.map { $0.path.description } == ["!\(layer)/note"], "\(name)")
            #expect(result.artifacts.first?.format == "json+\(layer)", "\(name)")
        }
        let lines = try [#"{"a": "\#(github)"}"#, #"{"b": 1}"#].map { try #require((Array($0.utf8) + [0x0A]).withUnsafeBytes(Zstd.compress)) }
        let frames = try scan("log.ndjson.zst", lines[0] + lines[1])
        #expect(frames.errors.isEmpty && frames.artifacts.first?.format == "ndjson+zstd")
        #expect(frames.findings.map { $0.path.description } == ["!zstd/a"])
        // The first block's type made the reserved one (the frame has no checksum that would
        // catch a changed literal); a reserved descriptor bit is corrupt data too.
        var corrupt = zstd
        corrupt[6] |= 0x06
        var reserved = zstd
        reserved[4] |= 0x08
        let failures = try [("cut.json.zst", Array(zstd.dropLast(4))), ("corrupt.json.zst", corrupt), ("reserved.json.zst", reserved),
                            ("cut.zhar", Array(zlib.dropLast(4))), ("after.zhar", zlib + Array("more".utf8))].map { try scan($0.0, $0.1).errors }
        #expect(failures.map { $0.count } == [1, 1, 1, 1, 1])
        #expect(failures.allSatisfy { $0.allSatisfy { $0.kind == .read || $0.kind == .parse } })
        #expect(failures[4].first?.reason == "data after the end of the deflate stream")
        let bomb = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 20_000_000) + Array("\"]".utf8)
        let bombResult = try scan("bomb.json.zst", try #require(bomb.withUnsafeBytes(Zstd.compress)))
        #expect(bombResult.errors.map(\.reason) == ["zstd bomb: the data decompresses to more than 200× its size"])
        #expect(Self.detect(Array("x^2 marks the spot".utf8), name: "notes") == "text")
    }

    /// Inputs compressed whole with xz or bzip2 (a rotated `.ndjson.xz`, a `.har.bz2`) are
    /// scanned as what they hold, streams one after another as one; they were skipped as
    /// archives. The streams `xz` and `bzip2` write decompress; a cut, corrupt or bomb stream is
    /// a `read` error; a stream that asks the xz decoder for more than 80 MiB is refused; text
    /// that starts `BZh9` is text.
    @Test func xzAndBzip2InputsAreScannedAsWhatTheyHold() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func scan(_ name: String, _ bytes: [UInt8]) throws -> ScanResult {
            let file = directory.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            return Scanner(rules: TestSupport.builtinPack).scan(paths: [file.path])
        }
        func hex(_ text: String) -> [UInt8] {
            stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
        }
        let lines = [#"{"a": "\#(github)"}"#, #"{"b": 1}"#].map { Array($0.utf8) + [0x0A] }
        for (coding, extensionName) in [(ContentCoding.xz, "xz"), (.bzip2, "bz2")] {
            func compressed(_ bytes: [UInt8]) throws -> [UInt8] {
                try #require(bytes.withUnsafeBytes { coding == .xz ? Xz.compress($0) : Bzip2.compress($0) })
            }
            let whole = try scan("log.ndjson.\(extensionName)", try compressed(lines[0] + lines[1]))
            #expect(whole.errors.isEmpty && whole.artifacts.first?.format == "ndjson+\(coding.layerName)")
            #expect(whole.findings.map { $0.path.description } == ["!\(coding.layerName)/a"])
            let streams = try scan("two.ndjson.\(extensionName)", try compressed(lines[0]) + compressed(lines[1]))
            #expect(streams.errors.isEmpty && streams.findings.map { $0.path.description } == ["!\(coding.layerName)/a"])
            let stream = try compressed(lines[0])
            // xz's LZMA2 data, checked by its CRC64; bzip2's block CRC (a flip in its Huffman
            // tables can give the same text, which no check catches).
            var corrupt = stream
            corrupt[coding == .xz ? corrupt.count / 2 : 10] ^= 0x55
            let failures = try [("cut.json", Array(stream.dropLast(8))), ("corrupt.json", corrupt)].map { try scan("\($0.0).\(extensionName)", $0.1).errors }
            #expect(failures.map { $0.map(\.kind) } == [[.read], [.read]], "\(coding.layerName): \(failures)")
            let bomb = Array(repeating: UInt8(ascii: " "), count: 20_000_000)
            #expect(try scan("bomb.txt.\(extensionName)", try compressed(bomb)).errors.map(\.reason)
                    == ["\(coding.layerName) bomb: the data decompresses to more than 200× its size"])
        }
        // `printf 'hello\n' | xz`, `| bzip2`, and `| xz --lzma2=dict=1536MiB`.
        let xzHello = hex("fd377a585a000004e6d6b4460200210116000000742fe5a301000568656c6c6f0a000000a56097f194f6fde000011e06c12fa41d1fb6f37d010000000004595a")
        let bzip2Hello = hex("425a6839314159265359c1c080e2000001410000100244a00030cd00c3462997177245385090c1c080e2")
        let xzLargeDictionary = hex("fd377a585a000004e6d6b44602002101250000003b787b4101000568656c6c6f0a000000a56097f194f6fde000011e06c12fa41d1fb6f37d010000000004595a")
        for (coding, bytes) in [(ContentCoding.xz, xzHello), (.bzip2, bzip2Hello)] {
            #expect(bytes.withUnsafeBytes(FormatDetector.compression) == coding)
            #expect(bytes.withUnsafeBytes { coding.decode($0) } == .success(Array("hello\n".utf8)))
        }
        #expect(try scan("large.txt.xz", xzLargeDictionary).errors.map(\.reason) == ["corrupt xz data (it needs more than 80 MiB of memory to decompress)"])
        #expect(Self.detect(Array("BZh9 is a bzip2 header\n".utf8), name: "notes") == "text")
    }

    @Test func aGzipBombIsRefused() throws {
        let directory = TestSupport.temporaryDirectory()
        let zeros = directory.appendingPathComponent("zeros.json")
        try #require(FileManager.default.createFile(atPath: zeros.path,
                                                    contents: Data("[\"".utf8) + Data(repeating: UInt8(ascii: "a"), count: 50_000_000) + Data("\"]".utf8)))
        let gzip = try #require(TestSupport.which("gzip"))
        _ = try TestSupport.run(gzip, [zeros.path])
        let result = Scanner(rules: TestSupport.builtinPack).scan(paths: [zeros.path + ".gz"])
        #expect(result.errors.map(\.reason) == ["gzip bomb: the data decompresses to more than 200× its size"])
    }
}

/// Cases the capture corpus brought up.
@Suite struct CaptureEdgeCaseTests {
    /// Each finding of a scan of `text` as its rule and path.
    private func found(_ text: String, name: String = "input.json") -> [String] {
        TestSupport.scan(text, name: name).findings.map { "\($0.ruleId) \($0.pathText)" }
    }

    @Test func restClientCommentsSeparatorsAndVariables() {
        let text = """
        @host = https://api.habiter.app
        ###
        # @name push
        // a comment
        POST https://sync.habiter.app/v1/sync/push HTTP/1.1
        Content-Type: application/json

        {"protocolVersion": 1, "operations": [], "debugToken": "Kq3Vb8Nz2Lm7Xc4Jh9Gf1Dw6"}

        ###
        # @name profile
        GET https://api.habiter.app/v1/profile HTTP/1.1
        """
        let result = TestSupport.scan(text, name: "calls.http")
        #expect(result.errors.isEmpty)
        #expect(result.findings.filter { $0.ruleId == "name.token" }.map(\.path.description) == ["/entries/0/request/postData/text!json/debugToken"])
    }

    @Test func headersOnSyncCallsAreProtocolNotSyncData() {
        let text = """
        GET /v1/sync/pull HTTP/1.1
        Authorization: Bearer {{accessToken}}
        X-Api-Key: {{apiKey}}
        Access-Control-Allow-Credentials: false
        """
        #expect(TestSupport.scan(text, name: "pull.http").findings.isEmpty)
    }

    @Test func vendorKeyHeadersAreTransport() {
        let text = "POST https://generativelanguage.googleapis.com/v1beta/models HTTP/1.1\nx-goog-api-key: AIzaQm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIo_\n"
        let findings = TestSupport.scan(text, name: "gemini.http").findings
        #expect(findings.map { "\($0.ruleId) \($0.family.rawValue)" } == ["secret.google-api-key transport"])
    }

    @Test func jsonTextUnderASensitiveNameIsJudgedByWhatItHolds() {
        let text = #"{"session_token": "{\"createdAt\": \"2026-11-30\", \"count\": 3}"}"#
        #expect(TestSupport.scan(text).findings.isEmpty)
        let synced = #"{"entityId": "habit/h1", "schemaVersion": 1, "payload": {"resetToken": "{\"a\": 1}"}}"#
        #expect(TestSupport.scan(synced).findings.filter { $0.ruleId.hasPrefix("name.") }.map { "\($0.ruleId) \($0.family.rawValue) \($0.message)" }
                == ["name.token policy Sensitive-looking name 'resetToken' in sync data (here JSON text): \"names resembling token, secret, password, apiKey, or credential fail closed at the entity and setting boundaries\"."])
    }

    /// A list in JSON text under a sensitive name is judged by the name element by element, as a
    /// list under the name is, in a JSON input as in a prefs export (an app's
    /// `setString(key, jsonEncode(list))`); an object there is still judged by what it holds.
    @Test func aListInJSONTextUnderASensitiveNameIsJudgedByTheName() {
        let password = "Zq7#mK2vR9xL4wPn"
        #expect(found(#"{"password": ["\#(password)"]}"#) == ["name.password /password/0"])
        #expect(found(#"{"password": "[\"\#(password)\"]"}"#) == ["name.password /password!json/0"])
        #expect(found(#"{"password": "{\"value\": \"\#(password)\"}"}"#).isEmpty)
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.passwords\">[&quot;\(password)&quot;]</string>\n</map>\n"
        #expect(found(prefs, name: "FlutterSharedPreferences.xml") == ["name.password /flutter.passwords!json/0"])
    }

    /// A `multipart/form-data` field is judged by its name, as the same field of a urlencoded
    /// form is: in a HAR's body, a raw HTTP body and a JSON string. Before the multipart layer,
    /// each was loose text and gave nothing. A file part's JSON opens as JSON.
    @Test func aMultipartFormFieldIsJudgedByItsName() {
        let password = "Zq7#mK2vR9xL4wPn"
        let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
        let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nmira\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(password)\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"config\"; filename=\"c.json\"\r\nContent-Type: application/json\r\n\r\n{\"apiKey\": \"\(github)\"}\r\n"
            + "--\(boundary)--\r\n"
        func jsonString(_ text: String) -> String {
            // A one-element array's text without its brackets: the string as JSON writes it.
            String(String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast())
        }
        let har = #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{"request": {"method": "POST", "url": "https://forms.example.com/login", "headers": [], "postData": {"mimeType": "multipart/form-data; boundary=\#(boundary)", "text": \#(jsonString(body))}}, "response": {"status": 200, "content": {}}}]}}"#
        #expect(found(har, name: "login.har") == ["secret.github-token /log/entries/0/request/postData/text!multipart/config!json/apiKey",
                                                   "name.password /log/entries/0/request/postData/text!multipart/password"])
        let http = "POST /login HTTP/1.1\r\nHost: forms.example.com\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        #expect(found(http, name: "login.http") == ["secret.github-token /entries/0/request/postData/text!multipart/config!json/apiKey",
                                                     "name.password /entries/0/request/postData/text!multipart/password"])
        #expect(found(#"{"upload": \#(jsonString(body))}"#) == ["secret.github-token /upload!multipart/config!json/apiKey",
                                                                 "name.password /upload!multipart/password"])
    }

    /// What a `data:` URL holds is scanned: base64 JSON opens as JSON, percent-encoded text is
    /// decoded (an escaped `=` before a token left a letter where its pattern wants a boundary).
    /// Before the data layer, both gave nothing; an image's bytes are not opened.
    @Test func aDataURLsPayloadIsScanned() {
        let json = Data(#"{"token": "\#(github)"}"#.utf8).base64EncodedString()
        #expect(found(#"{"config": "data:application/json;base64,\#(json)"}"#) == ["secret.github-token /config!data!json/token"])
        #expect(found(#"{"link": "data:text/plain,token%3D\#(github)"}"#) == ["secret.github-token /link!data!form/token"])
        #expect(found(#"{"icon": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}"#).isEmpty)
    }

    /// Deflate data is inflated: zlib data in base64 in a JSON value, a HAR body stored still
    /// compressed (base64, as some proxies export one), a raw HTTP body coded deflate (zlib or
    /// raw). Before, each gave nothing or an error.
    @Test func deflateDataIsInflated() throws {
        let json = Array(#"{"token": "\#(github)"}"#.utf8)
        let zlib = LayerTesting.deflate(json)
        #expect(found(#"{"state": "\#(LayerTesting.base64(zlib))"}"#) == ["secret.github-token /state!base64!deflate!json/token"])
        func har(_ body: [UInt8]) -> String {
            #"{"log": {"version": "1.2", "creator": {"name": "Fiddler", "version": "5.0"}, "entries": [{"request": {"method": "GET", "url": "https://api.example.com/v1/me", "headers": []}, "response": {"status": 200, "headers": [{"name": "Content-Encoding", "value": "deflate"}], "content": {"mimeType": "application/json", "encoding": "base64", "text": "\#(LayerTesting.base64(body))"}}}]}}"#
        }
        #expect(found(har(zlib), name: "stored.har") == ["secret.github-token /log/entries/0/response/content/text!base64!deflate!json/token"])
        for body in [zlib, LayerTesting.deflate(json, .raw)] {
            let http = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            let result = TestSupport.scan(bytes: http, name: "deflate.http")
            #expect(result.errors.isEmpty)
            #expect(result.findings.map { "\($0.ruleId) \($0.pathText)" } == ["secret.github-token /entries/0/response/content/text!deflate!json/token"])
        }
        let garbage = TestSupport.scan("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: 9\r\n\r\nnot zlib!", name: "bad.http")
        #expect(garbage.errors.map(\.kind) == [.parse] && garbage.errors.first?.reason.contains("deflate") == true)
        // Two codings at once: one can be undone, not both.
        let both = TestSupport.scan("HTTP/1.1 200 OK\r\nContent-Encoding: deflate, gzip\r\nContent-Length: 9\r\n\r\nnot zlib!", name: "both.http")
        #expect(both.errors.map(\.kind) == [.parse] && both.errors.first?.reason.contains("both deflate and gzip") == true)
    }

    /// Brotli and zstd, the codings browsers ask for besides gzip: a raw HTTP body so coded, a
    /// HAR body stored still compressed (BrowserMob Proxy stores Brotli bodies so, base64 of the
    /// bytes; the response's `Content-Encoding` says which, since Brotli and raw deflate have no
    /// signature), zstd data in base64 anywhere (it has one). Before, the raw HTTP bodies were `parse` errors,
    /// the HAR's Brotli body gave nothing and its zstd body was an error.
    @Test func brotliAndZstdDataIsDecompressed() throws {
        let json = Array(#"{"token": "\#(github)"}"#.utf8)
        let brotli = try #require(json.withUnsafeBytes(Brotli.compress))
        let zstd = try #require(json.withUnsafeBytes(Zstd.compress))
        for (coding, body) in [("br", brotli), ("zstd", zstd)] {
            let http = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            let result = TestSupport.scan(bytes: http, name: "coded.http")
            #expect(result.errors.isEmpty, "\(coding)")
            let layer = coding == "br" ? "brotli" : coding
            #expect(result.findings.map { "\($0.ruleId) \($0.pathText)" } == ["secret.github-token /entries/0/response/content/text!\(layer)!json/token"])
        }
        func har(_ body: [UInt8], coding: String?) -> String {
            let headers = coding.map { #"[{"name": "Content-Encoding", "value": "\#($0)"}]"# } ?? "[]"
            return #"{"log": {"version": "1.2", "creator": {"name": "BrowserMob Proxy", "version": "2.1.4"}, "entries": [{"request": {"method": "GET", "url": "https://api.example.com/v1/me", "headers": []}, "response": {"status": 200, "headers": \#(headers), "content": {"mimeType": "application/json", "encoding": "base64", "text": "\#(LayerTesting.base64(body))"}}}]}}"#
        }
        #expect(found(har(brotli, coding: "br"), name: "stored.har") == ["secret.github-token /log/entries/0/response/content/text!base64!brotli!json/token"])
        #expect(found(har(zstd, coding: "zstd"), name: "stored.har") == ["secret.github-token /log/entries/0/response/content/text!base64!zstd!json/token"])
        // Raw deflate (no zlib header, as some servers send `deflate`) has no signature either.
        #expect(found(har(LayerTesting.deflate(json, .raw), coding: "deflate"), name: "stored.har")
            == ["secret.github-token /log/entries/0/response/content/text!base64!deflate!json/token"])
        #expect(found(#"{"state": "\#(LayerTesting.base64(zstd))"}"#) == ["secret.github-token /state!base64!zstd!json/token"])
        // Chrome keeps `br` on the bodies it stores decoded: a binary that is no Brotli data is
        // scanned as bytes, not an error.
        let wasm: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00] + (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(TestSupport.scan(har(wasm, coding: "br"), name: "decoded.har").errors.isEmpty)
        // Zstd data that does not decompress is refused, wherever it stands.
        let broken = Array(zstd.dropLast(3))
        let refused = TestSupport.scan(#"{"state": "\#(LayerTesting.base64(broken))"}"#, name: "broken.json")
        #expect(refused.errors.map(\.kind) == [.parse] && refused.errors.first?.reason.contains("zstd") == true)
        let refusedHAR = TestSupport.scan(har(broken, coding: nil), name: "broken.har")
        #expect(refusedHAR.errors.map(\.kind).contains(.parse) && refusedHAR.errors.allSatisfy { $0.reason.contains("zstd") })
    }

    /// A value percent-encoded whole is scanned decoded: a token right after an escape (its
    /// hex digit stood where the token's pattern wants a boundary), JSON escaped whole as
    /// `encodeURIComponent` writes it, in a JSON value and in a HAR's cookie. Before the percent
    /// layer, each gave nothing; prose with a `%` and a query are left as they were.
    @Test func aPercentEncodedValueIsScanned() {
        let state = "%7B%22token%22%3A%22\(github)%22%7D"
        #expect(found(#"{"a": "Bearer%20\#(github)", "b": "x%22\#(github)%22", "state": "\#(state)"}"#)
            == ["secret.github-token /a!percent", "secret.github-token /b!percent", "secret.github-token /state!percent!json/token"])
        let har = #"{"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "133.0"}, "entries": [{"request": {"method": "GET", "url": "https://app.example.com/", "headers": [], "cookies": [{"name": "prefs", "value": "\#(state)"}]}, "response": {"status": 200, "content": {}}}]}}"#
        #expect(found(har, name: "app.har") == ["secret.github-token /log/entries/0/request/cookies/0/value!percent!json/token"])
        #expect(found(#"{"note": "50%25 off, 100% sure", "url": "https://example.com/a%20b?x=1"}"#).isEmpty)
    }
}

extension CaptureEdgeCaseTests {
    /// XML in a body or a value is read as XML: a text or attribute judged by its element's or
    /// attribute's name, a token in a text node at its element's path. Before the XML layer, a
    /// SOAP call's `<password>` gave nothing in a raw HTTP body, a HAR body or base64 of it.
    @Test func xmlIsJudgedByItsNames() {
        let soap = #"<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Login><user>alice</user><password>Tr0ub4dor-x9Qz-Lm2w</password><note>key \#(github)</note></Login></soap:Body></soap:Envelope>"#
        let inner = "!xml/soap:Envelope/soap:Body/Login"
        let http = "POST /auth HTTP/1.1\r\nHost: api.example.com\r\nContent-Type: text/xml\r\nContent-Length: \(soap.utf8.count)\r\n\r\n\(soap)"
        #expect(found(http, name: "soap.http") == [
            "secret.github-token /entries/0/request/postData/text\(inner)/note/text()",
            "name.password /entries/0/request/postData/text\(inner)/password/text()",
        ])
        let escaped = soap.replacingOccurrences(of: "\"", with: "\\\"")
        let har = #"{"log": {"version": "1.2", "creator": {"name": "Charles", "version": "4.6"}, "entries": [{"request": {"method": "POST", "url": "https://api.example.com/auth", "headers": [], "postData": {"mimeType": "text/xml", "text": "\#(escaped)"}}, "response": {"status": 200, "content": {"mimeType": "application/xml", "encoding": "base64", "text": "\#(LayerTesting.base64(#"<r><apiKey attr="1">q8Zr2LmN5vXc7TbY1pKd</apiKey><session token="Zx9-Lq2w-Pv7r-Mn4k-Tb3"/></r>"#))"}}}]}}"#
        #expect(found(har, name: "soap.har") == [
            "secret.github-token /log/entries/0/request/postData/text\(inner)/note/text()",
            "name.password /log/entries/0/request/postData/text\(inner)/password/text()",
            "name.api-key /log/entries/0/response/content/text!base64!xml/r/apiKey/text()",
            // Found by the text scan too (an assignment), which says more than the name.
            "secret.secret-assignment /log/entries/0/response/content/text!base64!xml/r/session/@token",
        ])
        // In a JSON value, where it stands and behind base64 (a SAML message's way).
        #expect(found(#"{"request": "\#(escaped)", "SAMLResponse": "\#(LayerTesting.base64(soap))"}"#) == [
            "secret.github-token /request\(inner)/note/text()",
            "name.password /request\(inner)/password/text()",
            "secret.github-token /SAMLResponse!base64\(inner)/note/text()",
            "name.password /SAMLResponse!base64\(inner)/password/text()",
        ])
        // Not XML after all (HTML with a void element, an undeclared entity): text, as before.
        #expect(found(#"{"a": "<p>key <br> \#(github)</p>", "b": "<p>&nbsp;</p>", "c": "<password>{{password}}</password>"}"#)
            == ["secret.github-token /a"])
        // Too deep to read: XML all the same, a limit error.
        let deep = String(repeating: "<a>", count: 300) + "x" + String(repeating: "</a>", count: 300)
        let result = TestSupport.scan(#"{"a": "\#(deep)"}"#, name: "deep.json")
        #expect(result.errors.map(\.kind) == [.limit] && result.errors.first?.reason.contains("XML in a string nested deeper") == true)
        // A DTD or an entity (billion laughs, XXE) is refused, as in an XML input; `<!DOCTYPE
        // html>` names no DTD and is read.
        let dtd = TestSupport.scan(#"{"a": "<!DOCTYPE r [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><r>&x;</r>", "b": "<?xml version='1.0'?><!DOCTYPE map><map/>", "c": "<!DOCTYPE html><html><body><p>hello</p></body></html>"}"#, name: "dtd.json")
        #expect(dtd.errors.map(\.kind) == [.parse, .parse] && dtd.errors.allSatisfy { $0.reason.contains("declares a DTD or an entity") })
    }

    /// A SharedPreferences export in a value (a support upload's `FlutterSharedPreferences.xml`)
    /// is read as one, its stores judged in the context of the document that holds it: the
    /// contract's "never a SharedPreferences dump". Before, only the pattern rules read it, and
    /// a credential's opaque value (`classly_token`) passed.
    @Test func aSharedPreferencesExportInAValueIsReadAsOne() {
        let prefs = """
        <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
        <map>
            <string name="flutter.classly_token">opaque-Tq8Lm2Vx9Rb4Nz7Kc3Wd</string>
            <string name="flutter.settings_theme_mode">dark</string>
            <boolean name="flutter.habiter_onboarding_v2" value="true" />
        </map>
        """
        let escaped = prefs.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        let json = #"{"diagnostics": {"prefs": "\#(escaped)"}}"#
        #expect(found(json) == ["inventory.sensitive-store /diagnostics/prefs!xml/flutter.classly_token"])
        let inSync = TestSupport.scan(json, options: ScanOptions(context: .sync)).findings.map { "\($0.ruleId) \($0.pathText)" }
        #expect(inSync == ["inventory.sensitive-store /diagnostics/prefs!xml/flutter.classly_token",
                           "inventory.local-data-in-sync /diagnostics/prefs!xml/flutter.habiter_onboarding_v2"])
        // A placeholder (a redacted copy's) holds no secret: in sync data the store is a contract
        // verdict, not a leak.
        let redacted = TestSupport.scan(json.replacingOccurrences(of: "opaque-Tq8Lm2Vx9Rb4Nz7Kc3Wd", with: "[REDACTED:sensitive-store]"),
                                        options: ScanOptions(context: .sync))
        #expect(redacted.findings.filter { $0.ruleId == "inventory.sensitive-store" }.map(\.family) == [.policy])
    }
}

/// Every truncation of a sample of each format is an input error with a position, or a correct
/// scan of what is there: never a crash, never silence about the missing part.
@Suite struct TruncationTests {
    static let samples = ["captures/sync-session-chrome-sensitive.har", "captures/push-proxy-saved.txt",
                          "prefs/FlutterSharedPreferences.xml", "sync/push-leaky-description.json",
                          "captures/support-diagnostics-firefox.har.gz"]

    @Test(arguments: samples)
    func everyTruncationFailsClosed(_ sample: String) throws {
        let data = Array(try Data(contentsOf: TestSupport.repoRoot.appendingPathComponent("corpus/" + sample)))
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let step = max(1, data.count / 150)
        for cut in stride(from: 0, to: data.count - 1, by: step) {
            let outcome = Array(data[..<cut]).withUnsafeBytes { scanner.scan(bytes: $0, name: sample) }
            // JSON, XML and gzip inputs cut short are always incomplete; an HTTP message cut in
            // its headers or body may still be a whole message.
            // An empty file whose name claims no format is text, and clean.
            if !sample.hasSuffix(".txt") && !(cut == 0 && sample.hasSuffix(".xml")) {
                #expect(!outcome.errors.isEmpty, "\(sample) cut at \(cut) of \(data.count) scanned without an error")
            }
            #expect(outcome.errors.allSatisfy { $0.kind != .read || sample.hasSuffix(".gz") })
        }
    }
}
