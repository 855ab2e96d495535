@testable import AuditInputs
@testable import AuditRedact
import Foundation
import Testing

private typealias F = RedactFixtures

/// A HAR 1.2 capture with one entry: `request` and `response` are the JSON members as written.
private func har(request: String, response: String = #"{"status": 200, "headers": [], "content": {"size": 0, "mimeType": "text/plain", "text": ""}}"#) -> String {
    """
    {
      "log": {
        "version": "1.2",
        "creator": {"name": "test", "version": "1"},
        "entries": [
          {
            "startedDateTime": "2025-11-30T10:00:00.000Z",
            "time": 12,
            "request": \(request),
            "response": \(response)
          }
        ]
      }
    }
    """
}

private func request(url: String = "https://api.example.com/v1/things", headers: String = "[]", postData: String? = nil) -> String {
    let body = postData.map { #", "postData": \#($0)"# } ?? ""
    return #"{"method": "POST", "url": "\#(url)", "httpVersion": "HTTP/1.1", "headers": \#(headers), "queryString": [], "cookies": []\#(body)}"#
}

/// Embedded layers: each is opened, redacted inside and encoded again the way it was written.
@Suite struct RedactLayerTests {
    @Test func base64BodyIsRedactedInsideAndReencoded() throws {
        let body = #"{"note": "deploy key \#(F.github)", "n": 1}"#
        let encoded = F.base64(body)
        let response = #"{"status": 200, "headers": [], "content": {"size": \#(body.utf8.count), "mimeType": "application/octet-stream", "encoding": "base64", "text": "\#(encoded)"}}"#
        let result = try F.redact(har(request: request(), response: response), name: "capture.har")
        #expect(result.format == "har")
        let text = try #require(F.jsonString(result.output, at: "/log/entries/0/response/content/text"))
        expectText(F.decodeBase64(text), equals: #"{"note": "deploy key [REDACTED:github-token]", "n": 1}"#, "the decoded body")
        expectClean(result, leaking: [F.github])
    }

    @Test func gzipInsideBase64IsDecompressedRedactedRecompressedAndReencoded() throws {
        let document = #"{"documents": [{"payload": {"description": "webhook \#(F.slack)"}}]}"#
        let encoded = Data(F.gzip(document)).base64EncodedString()
        let response = #"{"status": 200, "headers": [], "content": {"size": 10, "mimeType": "application/gzip", "encoding": "base64", "text": "\#(encoded)"}}"#
        let result = try F.redact(har(request: request(), response: response), name: "export.har")
        let text = try #require(F.jsonString(result.output, at: "/log/entries/0/response/content/text"))
        let gzip = try #require(Data(base64Encoded: text))
        #expect(GzipLayerDecoder.hasMagic(Array(gzip)))
        guard case .success(let inflated) = GzipLayerDecoder.inflate(Array(gzip)) else {
            Issue.record("the re-encoded body is not gzip")
            return
        }
        expectText(inflated, equals: #"{"documents": [{"payload": {"description": "webhook [REDACTED:slack-token]"}}]}"#, "the inflated body")
        expectClean(result, leaking: [F.slack])
    }

    @Test func base64KeepsItsAlphabetPaddingAndLineLength() {
        let wrapped = Array("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\r\nWVo=\r\n".utf8)
        let style = Base64Style(of: wrapped)
        #expect(style.lineLength == 32)
        #expect(style.lineBreak == [0x0D, 0x0A])
        #expect(style.finalLineBreak)
        #expect(style.encode(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)) == wrapped)
        let url = Base64Style(of: Array("eyJhIjoiPz8_In0".utf8))
        #expect(url.alphabet == .url && !url.padded)
        #expect(url.encode(Array(#"{"a":"??~"}"#.utf8)) == Array("eyJhIjoiPz9-In0".utf8))
    }

    @Test func queryParameterIsReplacedWithThePlaceholderPercentEncoded() throws {
        let url = "https://sync.example.com/v1/sync/pull?cursor=eyJyZXYiOjQxfQ&access_token=oQJyIjjetuB3xuiW3FFlnKTsSUsKnXazSnmnCDBp&limit=100"
        let result = try F.redact(#"{"breadcrumb": {"url": "\#(url)"}}"#)
        expectText(result.output, equals: #"{"breadcrumb": {"url": "https://sync.example.com/v1/sync/pull?cursor=eyJyZXYiOjQxfQ&access_token=%5BREDACTED%3Atoken%5D&limit=100"}}"#)
        expectClean(result, leaking: ["oQJyIjjetuB3xuiW3FFlnKTsSUsKnXazSnmnCDBp"])
    }

    @Test func formParameterIsReplacedWithThePlaceholderPercentEncoded() throws {
        let refresh = "RXvgCf4JEiwXid5WKMESxkcS3RmO8eRZXwBHN-BbQINpOjEv6-AUh8Te-68W0rAV"
        let body = "grant_type=refresh_token&refresh_token=\(refresh)&client_id=habiter+android"
        let result = try F.redact(#"{"tokenRequest": "\#(body)"}"#)
        expectText(result.output, equals: #"{"tokenRequest": "grant_type=refresh_token&refresh_token=%5BREDACTED%3Arefresh-token%5D&client_id=habiter+android"}"#)
        expectClean(result, leaking: [refresh])
    }

    /// A multipart form's part is rewritten where it stands, the boundary, headers and other
    /// parts as written; a file part's JSON is redacted inside.
    @Test func multipartPartsAreRedactedInPlace() throws {
        let password = "Kiwi-LcKgKX-649!"
        func body(_ secret: String, _ github: String) -> String {
            #"--b7MA4YWxk\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nmira\r\n"#
                + #"--b7MA4YWxk\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\#(secret)\r\n"#
                + #"--b7MA4YWxk\r\nContent-Disposition: form-data; name=\"c\"; filename=\"c.json\"\r\n\r\n{\"apiKey\": \"\#(github)\"}\r\n"#
                + #"--b7MA4YWxk--\r\n"#
        }
        let postData = #"{"mimeType": "multipart/form-data; boundary=b7MA4YWxk", "text": "\#(body(password, F.github))"}"#
        let result = try F.redact(har(request: request(postData: postData)), name: "capture.har")
        let expected = #"{"mimeType": "multipart/form-data; boundary=b7MA4YWxk", "text": "\#(body("[REDACTED:password]", "[REDACTED:github-token]"))"}"#
        expectText(result.output, equals: har(request: request(postData: expected)))
        expectClean(result, leaking: [password, F.github])
    }

    /// Zlib data in base64 is inflated, redacted and compressed again in its wrapper.
    @Test func deflateDataIsRedactedInside() throws {
        let zlib = LayerTesting.deflate(Array(#"{"token": "\#(F.github)"}"#.utf8))
        let result = try F.redact(#"{"state": "\#(LayerTesting.base64(zlib))"}"#)
        let encoded = try #require(F.jsonString(result.output, at: "/state"))
        let bytes = try #require(Data(base64Encoded: encoded).map { [UInt8]($0) })
        #expect(DeflateLayerDecoder.hasZlibHeader(bytes))
        // Compared first, so that a failure prints no secret.
        let redactedInside = DeflateLayerDecoder.inflate(bytes) == .success(Array(#"{"token": "[REDACTED:github-token]"}"#.utf8))
        #expect(redactedInside, "the inflated copy is not the redacted JSON")
        expectClean(result, leaking: [F.github])
    }

    /// Brotli and zstd data are decompressed, redacted and compressed again: a HAR body stored
    /// Brotli-compressed under its `Content-Encoding`, zstd data in base64 in a JSON value, and a
    /// raw HTTP body in either coding, its `Content-Length` corrected.
    @Test func brotliAndZstdDataAreRedactedInside() throws {
        let json = Array(#"{"token": "\#(F.github)"}"#.utf8)
        let redacted = Array(#"{"token": "[REDACTED:github-token]"}"#.utf8)
        let brotli = try #require(json.withUnsafeBytes(Brotli.compress))
        let zstd = try #require(json.withUnsafeBytes(Zstd.compress))
        func decompressed(_ coding: ContentCoding, _ bytes: [UInt8]?) -> [UInt8]? {
            guard let bytes, case .success(let out) = bytes.withUnsafeBytes(coding.decode) else { return nil }
            return out
        }
        let response = #"{"status": 200, "headers": [{"name": "content-encoding", "value": "br"}], "content": {"size": 10, "mimeType": "application/json", "encoding": "base64", "text": "\#(LayerTesting.base64(brotli))"}}"#
        let fromHAR = try F.redact(har(request: request(), response: response), name: "stored.har")
        let text = try #require(F.jsonString(fromHAR.output, at: "/log/entries/0/response/content/text"))
        // Compared first, so that a failure prints no secret.
        let harRedacted = decompressed(.brotli, Data(base64Encoded: text).map { [UInt8]($0) }) == redacted
        #expect(harRedacted, "the HAR's body is not the redacted JSON")
        expectClean(fromHAR, leaking: [F.github])

        let fromJSON = try F.redact(#"{"state": "\#(LayerTesting.base64(zstd))"}"#)
        let state = try #require(F.jsonString(fromJSON.output, at: "/state"))
        let jsonRedacted = decompressed(.zstd, Data(base64Encoded: state).map { [UInt8]($0) }) == redacted
        #expect(jsonRedacted, "the value is not the redacted JSON")
        expectClean(fromJSON, leaking: [F.github])

        for (coding, body) in [(ContentCoding.brotli, brotli), (.zstd, zstd)] {
            let token = coding == .brotli ? "br" : "zstd"
            let http = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: \(token)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            let result = try F.redact(http, name: "coded.http")
            let output = result.output
            let blank = try #require(output.indices.dropLast(3).first { output[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) })
            let copy = Array(output[(blank + 4)...])
            let bodyRedacted = decompressed(coding, copy) == redacted
            #expect(bodyRedacted, "the \(token) body is not the redacted JSON")
            #expect(String(decoding: output[..<blank], as: UTF8.self).hasSuffix("Content-Length: \(copy.count)"))
            expectClean(result, leaking: [F.github])
        }
    }

    /// A value percent-encoded whole is redacted inside and escaped again, the characters it
    /// wrote as they were kept so.
    @Test func percentEncodedValuesAreRedactedInside() throws {
        let input = #"{"state": "%7B%22token%22%3A%22\#(F.github)%22%7D", "auth": "Bearer%20\#(F.github)", "note": "50%25 off"}"#
        let result = try F.redact(input)
        expectText(result.output, equals: #"{"state": "%7B%22token%22%3A%22%5BREDACTED%3Agithub-token%5D%22%7D", "auth": "Bearer%20%5BREDACTED%3Agithub-token%5D", "note": "50%25 off"}"#)
        expectClean(result, leaking: [F.github])
    }

    /// A `data:` URL's payload is redacted inside and written back behind its header: base64
    /// in its alphabet and padding, percent-encoded text escaped again.
    @Test func dataURLPayloadsAreRedactedInside() throws {
        let json = F.base64(#"{"token": "\#(F.github)"}"#)
        let input = #"{"config": "data:application/json;base64,\#(json)", "link": "data:text/plain,note%3A%20\#(F.github)"}"#
        let result = try F.redact(input)
        let redacted = F.base64(#"{"token": "[REDACTED:github-token]"}"#)
        expectText(result.output, equals: #"{"config": "data:application/json;base64,\#(redacted)", "link": "data:text/plain,note%3A%20%5BREDACTED%3Agithub-token%5D"}"#)
        expectClean(result, leaking: [F.github])
    }

    @Test func aLoneAssignmentKeepsItsValueReadable() throws {
        // `NAME=value` in an environment dump: the placeholder is written as it reads.
        let result = try F.redact(#"{"environment": ["HOME=/root", "STRIPE_KEY=\#(F.stripe)"]}"#)
        expectText(result.output, equals: #"{"environment": ["HOME=/root", "STRIPE_KEY=[REDACTED:stripe-secret-key]"]}"#)
        expectClean(result, leaking: [F.stripe])
    }

    @Test func urlUserinfoPasswordIsReplaced() throws {
        let result = try F.redact(#"{"db": {"replicaUrl": "postgres://habiter:Kiwi-LcKgKX-649!@db.internal:5432/habits"}}"#)
        expectText(result.output, equals: #"{"db": {"replicaUrl": "postgres://habiter:%5BREDACTED%3Apassword%5D@db.internal:5432/habits"}}"#)
        expectClean(result, leaking: ["Kiwi-LcKgKX-649!"])
    }

    @Test func urlUserinfoPasswordWithRawReservedCharactersIsReplacedWhole() throws {
        // `#`, `?`, `/` and `@` typed raw in the password: all of it is replaced, host and path stay.
        let input = #"{"nas": "https://jonas:Kz8!tq#x@nas.local:5006/", "wiki": "https://jonas:Rb7?wq2Lm@wiki.home.arpa/login?next=ops@habiter.app", "dav": "sftp://jonas:Hq3@vN#8z/1@files.home.arpa:2222/"}"#
        let result = try F.redact(input)
        expectText(result.output, equals: #"{"nas": "https://jonas:%5BREDACTED%3Apassword%5D@nas.local:5006/", "wiki": "https://jonas:%5BREDACTED%3Apassword%5D@wiki.home.arpa/login?next=ops@habiter.app", "dav": "sftp://jonas:%5BREDACTED%3Apassword%5D@files.home.arpa:2222/"}"#)
        expectClean(result, leaking: ["Kz8!tq", "tq#x", "Rb7?wq2Lm", "Hq3@vN", "vN#8z/1"])
    }

    @Test func urlPasswordWithRawReservedCharactersInProseIsReplacedWhole() throws {
        let result = try F.redact(#"{"note": "backup NAS https://jonas:Kz8!tq#x@nas.local:5006/ (weekly)"}"#)
        expectText(result.output, equals: #"{"note": "backup NAS https://jonas:[REDACTED:basic-auth-url]@nas.local:5006/ (weekly)"}"#)
        expectClean(result, leaking: ["Kz8!tq", "tq#x"])
    }

    @Test func basicCredentialsAreDecodedRedactedAndReencoded() throws {
        let credentials = F.base64("habiter-import:dV4LwJKZMcoO6DAFUKA4")
        let headers = #"[{"name": "Authorization", "value": "Basic \#(credentials)"}]"#
        let result = try F.redact(har(request: request(headers: headers)), name: "basic.har")
        let value = try #require(F.jsonString(result.output, at: "/log/entries/0/request/headers/0/value"))
        let scheme = value.hasPrefix("Basic ")
        #expect(scheme)
        expectText(F.decodeBase64(String(value.dropFirst(6))), equals: "habiter-import:[REDACTED:password]", "the credentials")
        expectClean(result, leaking: ["dV4LwJKZMcoO6DAFUKA4"])
    }

    @Test func cookieValuesInAHeaderAreReplacedOneByOne() throws {
        let session = "6IqU5ScbqE6Ibba2sPUtgER17657Q8O6Rem3gZjV"
        let headers = #"[{"name": "cookie", "value": "theme=dark; __Secure-habiter.session-token=\#(session); lang=de"}]"#
        let result = try F.redact(har(request: request(headers: headers)), name: "cookies.har")
        let value = try #require(F.jsonString(result.output, at: "/log/entries/0/request/headers/0/value"))
        expectText(value, equals: "theme=dark; __Secure-habiter.session-token=[REDACTED:session]; lang=de", "the cookie header")
        expectClean(result, leaking: [session])
    }

    @Test func aHARStaysTheSameStructure() throws {
        let headers = #"[{"name": "authorization", "value": "Bearer \#(F.jwt)"}, {"name": "accept", "value": "application/json"}]"#
        let postData = #"{"mimeType": "application/json", "text": "{\"note\": \"\#(F.aws)\"}"}"#
        let input = har(request: request(headers: headers, postData: postData))
        let result = try F.redact(input, name: "session.har")
        let before = try JSONSerialization.jsonObject(with: Data(input.utf8)) as? NSDictionary
        let after = try JSONSerialization.jsonObject(with: Data(result.output)) as? NSDictionary
        #expect(before?.allKeys.count == after?.allKeys.count)
        expectText(F.jsonString(result.output, at: "/log/entries/0/request/headers/0/value"), equals: "Bearer [REDACTED:jwt]", "the authorization header")
        expectText(F.jsonString(result.output, at: "/log/entries/0/request/headers/1/value"), equals: "application/json", "the accept header")
        expectText(F.jsonString(result.output, at: "/log/entries/0/request/postData/text"), equals: #"{"note": "[REDACTED:aws-access-key-id]"}"#, "the body")
        #expect(F.format(result.output) == "har")
        expectClean(result, leaking: [F.jwt, F.aws])
    }

    @Test func flutterListsAreReencodedInTheirOwnEncoding() throws {
        // A JSON string list and a legacy Java-serialized list behind their prefixes.
        let jsonList = FlutterPrefsEncoding.jsonListPrefix
            + #"[&quot;sign-in ok&quot;,&quot;retry headers: {authorization: Bearer \#(F.jwt)}&quot;]"#
        let feeds = ["https://classly.example.edu/ical/crs_2201.ics", "https://classly.example.edu/ical/personal.ics?token=Zk9pQ2xhc3NseVRva2VuMjAyNQAbc"]
        let legacy = FlutterPrefsEncoding.listPrefix
            + Base64Style(alphabet: .standard, padded: true, lineLength: 76).encode(JavaStringListWriter.serialize(feeds.map { Array($0.utf8) }))
                .map { $0 == 0x0A ? "&#10;" : String(UnicodeScalar($0)) }.joined()
        let input = """
        <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
        <map>
            <string name="flutter.habiter_sync_debug_log">\(jsonList)</string>
            <string name="flutter.classly_calendar_feeds">\(legacy)</string>
        </map>
        """
        let result = try F.redact(input, name: "prefs.xml")
        #expect(result.format == "prefs-xml")
        #expect(result.replacements["secret.jwt"] == 1)
        #expect(result.replacements["name.token"] == 1)
        // The legacy list reads back as a list whose second feed lost its token only.
        let reader = try PrefsEntries(result.output)
        guard case .legacyStringList(let strings) = FlutterPrefsEncoding.decode(reader.values["flutter.classly_calendar_feeds"] ?? []) else {
            Issue.record("the legacy list no longer decodes")
            return
        }
        #expect(strings.count == 2)
        expectText(strings.first, equals: feeds[0], "the first feed")
        expectText(strings.last, equals: "https://classly.example.edu/ical/personal.ics?token=%5BREDACTED%3Atoken%5D", "the second feed")
        expectClean(result, leaking: [F.jwt, "Zk9pQ2xhc3NseVRva2VuMjAyNQAbc"])
    }

    /// XML in a body or a value is redacted where it stands: a text node, an attribute value
    /// and a comment, escaped as XML, the rest of the document byte for byte; behind base64
    /// encoded again; in a raw HTTP body with its `Content-Length` corrected.
    @Test func xmlIsRedactedInside() throws {
        let soap = #"<?xml version="1.0"?><Envelope><Body a="1"><password>\#(F.password)</password><note key="\#(F.github)">t</note><!-- \#(F.stripe) --></Body></Envelope>"#
        let redacted = #"<?xml version="1.0"?><Envelope><Body a="1"><password>[REDACTED:password]</password><note key="[REDACTED:github-token]">t</note><!-- [REDACTED:stripe-secret-key] --></Body></Envelope>"#
        let secrets = [F.password, F.github, F.stripe]
        let file = try F.redact(soap, name: "call.xml")
        #expect(file.format == "xml")
        expectText(file.output, equals: redacted)
        expectClean(file, leaking: secrets)

        let escaped = soap.replacingOccurrences(of: "\"", with: "\\\"")
        let response = #"{"status": 200, "headers": [], "content": {"size": 1, "mimeType": "application/xml", "encoding": "base64", "text": "\#(F.base64(soap))"}}"#
        let capture = try F.redact(har(request: request(postData: #"{"mimeType": "text/xml", "text": "\#(escaped)"}"#), response: response), name: "soap.har")
        expectText(F.jsonString(capture.output, at: "/log/entries/0/request/postData/text"), equals: redacted, "the request body")
        expectText(F.jsonString(capture.output, at: "/log/entries/0/response/content/text").flatMap(F.decodeBase64), equals: redacted, "the response body")
        expectClean(capture, leaking: secrets)

        // A text that opens with a CDATA section (which may hold `<`) is rewritten from the section on.
        let cdata = try F.redact("<a><b><![CDATA[x<y \(F.github)]]></b></a>", name: "cdata.xml")
        expectText(cdata.output, equals: "<a><b>x&lt;y [REDACTED:github-token]</b></a>")
        expectClean(cdata, leaking: [F.github])

        let http = try F.redact("POST /auth HTTP/1.1\r\nContent-Type: text/xml\r\nContent-Length: \(soap.utf8.count)\r\n\r\n\(soap)", name: "soap.http")
        expectText(http.output, equals: "POST /auth HTTP/1.1\r\nContent-Type: text/xml\r\nContent-Length: \(redacted.utf8.count)\r\n\r\n\(redacted)")
        expectClean(http, leaking: secrets)
    }

    /// A SharedPreferences export in a value is redacted as a prefs file is, inside the string.
    @Test func aSharedPreferencesExportInAValueIsRedactedInside() throws {
        let prefs = #"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.note\">key \#(F.github)</string>\n    <string name=\"flutter.settings_locale\">de</string>\n</map>\n"#
        let result = try F.redact(#"{"diagnostics": {"prefs": "\#(prefs)"}}"#)
        expectText(result.output, equals: #"{"diagnostics": {"prefs": "\#(prefs.replacingOccurrences(of: F.github, with: "[REDACTED:github-token]"))"}}"#)
        expectClean(result, leaking: [F.github])
    }

    @Test func javaListWriterMatchesWhatJavaWrites() {
        // The first bytes of the corpus's legacy list, as ObjectOutputStream wrote them.
        let serialized = JavaStringListWriter.serialize([Array("a".utf8), Array("b".utf8)])
        #expect(Data(serialized.prefix(51)).base64EncodedString() == "rO0ABXNyABNqYXZhLnV0aWwuQXJyYXlMaXN0eIHSHZnHYZ0DAAFJAARzaXpleHAAAAAC")
        guard case .success(let strings) = JavaStringList.strings(in: serialized) else {
            Issue.record("the written list does not read back")
            return
        }
        #expect(strings == [Array("a".utf8), Array("b".utf8)])
        #expect(JavaStringListWriter.modifiedUTF8([0x00, 0xF0, 0x9F, 0x98, 0x80]) == [0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80])
    }
}

/// The string values of a prefs export by entry name (for checking a redacted copy).
struct PrefsEntries {
    var values: [String: [UInt8]] = [:]

    init(_ bytes: [UInt8]) throws {
        var visitor = Collector()
        try bytes.withUnsafeBytes { buffer in
            var reader = PrefsXMLReader(buffer)
            try reader.read(&visitor)
        }
        values = visitor.values
    }

    private struct Collector: PrefsXMLVisitor {
        var values: [String: [UInt8]] = [:]
        private var string: String?
        mutating func entry(_ entry: PrefsEntry) { string = entry.kind == .string ? entry.name : nil }
        mutating func part(_ part: PrefsEntryPart) {
            if let string, case .value(let text, nil) = part { values[string] = text.bytes }
        }
        mutating func endEntry() {}
        mutating func markup(_ markup: PrefsMarkup) {}
    }
}
