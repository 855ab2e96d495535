@testable import AuditCore
@testable import AuditDetection
@testable import AuditRules
import Foundation
import Testing

/// A browser capture holds the page's JavaScript, CSS and HTML: prose and assignment rules judge
/// them as code and markup (`codeAndMarkup`), pattern rules still find tokens in them.
@Suite struct CodeAndMarkupTests {
    static let github = "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"

    /// Minified code as bundlers write it: a member assignment, jQuery's selector table.
    static let minifiedJS = #"!function(e,t){"use strict";var n=function(r){this.user=r[3]||"";this.password=r[4]||n;this.host=r[5]};"#
        + #"var o={checkbox:function(T){return"checkbox"===T.type},password:function(T){return"password"===T.type},"#
        + #"file:function(T){return"file"===T.type}};e.Url=n,e.pseudos=o}(window);"#
    /// Font Awesome's stylesheet: `pin:` and `code:`-looking selectors.
    static let fontAwesomeCSS = #"/*! Font Awesome Free 6.5.1 by @fontawesome */.fa{font-family:var(--fa-style-family,"Font Awesome 6 Free")}"#
        + #".fa-map-pin:before{content:"\f276"}.fa-lock:before{content:"\f023"}.fa-door-open:before{content:"\f52b"}"#
    static let page = #"<!DOCTYPE html><html><head><style>.pin:before{content:"x"}</style>"#
        + #"<script>var cfg={password:window.pw||null};</script></head><body>"#
        + #"<form><input type="password" name="password" autocomplete="current-password"></form>"#
        + #"<p>Guest network: the wifi password is Sommer2024!Gast</p></body></html>"#

    static func ruleIds(_ value: String, mimeType: String?) -> [String] {
        let content = (mimeType.map { "\"mimeType\": \(RuleExampleTests.jsonString($0)), " } ?? "") + "\"text\": \(RuleExampleTests.jsonString(value))"
        let har = #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{"request": {"method": "GET", "url": "https://app.example.net/main.js", "headers": []}, "response": {"status": 200, "headers": [], "content": {"size": 1, "#
            + content + "}}}]}}"
        let result = TestSupport.scan(har, name: "assets.har")
        #expect(result.errors.isEmpty, "\(result.errors.map(\.description))")
        return result.findings.map(\.ruleId).sorted()
    }

    @Test func mediaTypesDeclareTheKind() {
        #expect(TextKind(mediaType: "text/javascript; charset=utf-8") == .code)
        #expect(TextKind(mediaType: "application/javascript") == .code)
        #expect(TextKind(mediaType: "text/css") == .stylesheet)
        #expect(TextKind(mediaType: "TEXT/HTML; charset=UTF-8") == .markup)
        #expect(TextKind(mediaType: "image/svg+xml") == .markup)
        #expect(TextKind(mediaType: "application/json") == nil)
        #expect(TextKind(mediaType: "text/plain") == nil)
    }

    /// The essence compared in place agrees with a lowercased `String` compared with each, as it
    /// was: every declaring type in several letter cases, with parameters and blanks around it,
    /// a byte short, a byte long, and with non-ASCII letters that lowercase to other ones.
    @Test func mediaTypesAgreeWithLowercasedStrings() {
        func plain(_ mediaType: String) -> TextKind? {
            let bytes = Array(mediaType.utf8)
            var start = 0, end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            guard end - start >= 6, end - start <= 24 else { return nil }
            switch String(decoding: bytes[start..<end], as: UTF8.self).lowercased() {
            case "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
                 "application/ecmascript", "text/jsx", "text/typescript", "application/typescript", "module": return .code
            case "text/css": return .stylesheet
            case "text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml": return .markup
            default: return nil
            }
        }
        let essences = ["text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript", "application/ecmascript",
                        "text/jsx", "text/typescript", "application/typescript", "module", "text/css", "text/html", "application/xhtml+xml",
                        "image/svg+xml", "text/xml", "application/xml", "application/json", "text/plain", "text/csv"]
        for essence in essences {
            let mixed = String(essence.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            for variant in [essence, essence.uppercased(), mixed, essence + "; charset=utf-8", " \t" + mixed + " ;q=1", String(essence.dropLast()),
                            essence + "s", essence.replacingOccurrences(of: "t", with: "\u{0130}"), essence.replacingOccurrences(of: "s", with: "\u{17F}")] {
                #expect(TextKind(mediaType: variant) == plain(variant), "\(variant.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        (minifiedJS, TextKind.code),
        (fontAwesomeCSS, .stylesheet),
        (page, .markup),
        (#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2"/></svg>"#, .markup),
        ("@media (max-width: 600px) { .nav { display: none } }", .stylesheet),
        ("body{margin:0;padding:0}", .stylesheet),
        ("(self.webpackChunkapp=self.webpackChunkapp||[]).push([[179],{42:(e,t,n)=>{}}]);", .code),
        ("Guest network: the wifi password is Sommer2024!Gast", .text),
        ("DB_HOST=db.internal\nDB_PASSWORD=Tr1cky-Wombat\n", .text),
        ("Call the vet (Mon, Wed) at 09:00; bring the card {blue}.", .text),
    ])
    func sniffing(_ value: String, _ kind: TextKind) {
        var bytes = Array(value.utf8)
        let sniffed = bytes.withUnsafeMutableBytes { TextKind.sniff(UnsafeRawBufferPointer($0)) }
        #expect(sniffed == kind, "\(value.prefix(40))")
    }

    @Test(arguments: ["text/javascript", nil])
    func codeIsNotACredential(_ mimeType: String?) {
        #expect(Self.ruleIds(Self.minifiedJS, mimeType: mimeType) == [])
    }

    @Test(arguments: ["text/css", nil])
    func stylesheetsAreNotProse(_ mimeType: String?) {
        #expect(Self.ruleIds(Self.fontAwesomeCSS, mimeType: mimeType) == [])
    }

    @Test(arguments: ["text/javascript", nil])
    func tokensAndQuotedPasswordsInCodeAreStillFound(_ mimeType: String?) {
        let bundle = Self.minifiedJS + #"var api={token:""# + Self.github + #"",password:"Kx9!mQ2vTz#4"};"#
        #expect(Self.ruleIds(bundle, mimeType: mimeType) == ["secret.github-token", "secret.password-in-text"])
    }

    @Test(arguments: ["text/html; charset=utf-8", nil])
    func markupIsReadByItsTextNodes(_ mimeType: String?) {
        // The text node's credential is found; the form, the style and the script are not.
        #expect(Self.ruleIds(Self.page, mimeType: mimeType) == ["secret.credential-in-prose"])
    }

    @Test func theSameTextOutsideABodyIsStillProse() {
        // A habit note that quotes a line of code is judged as the note it is.
        let result = TestSupport.scan(#"{"notes": "vpn: password=Tr1cky-Wombat, pin: 4821"}"#)
        #expect(result.findings.map(\.ruleId).sorted() == ["secret.credential-in-prose", "secret.password-in-text"])
    }

    @Test(arguments: [
        (CodePolicy.prose, TextKind.code, "x", false),
        (.prose, .stylesheet, "x", false),
        (.prose, .text, "x", true),
        (.assignment, .code, "password=abcd", false),
        (.assignment, .code, "password=\"abcd", true),
        (.assignment, .code, "password='abcd", true),
        (.assignment, .text, "password=abcd", true),
        (.scan, .code, "x", true),
    ])
    func policyGate(_ policy: CodePolicy, _ kind: TextKind, _ text: String, _ stands: Bool) {
        var bytes = Array(text.utf8)
        // The secret is what follows the assignment and its quote.
        let start = (bytes.lastIndex { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") } ?? -1) + 1
        let secret = start..<bytes.count
        let result = bytes.withUnsafeMutableBytes { PatternEngine.stands(policy, secret: secret, in: UnsafeRawBufferPointer($0), kind: kind) }
        #expect(result == stands)
    }

    @Test func markupTextNodes() {
        let html = #"<p class="pin: 1234">pin: 5678</p><script>pin: 9999</script><style>a{}</style>after"#
        var bytes = Array(html.utf8)
        func inText(_ needle: String) -> Bool {
            let start = html.utf8.count - html.components(separatedBy: needle).dropFirst().joined(separator: needle).utf8.count - needle.utf8.count
            return bytes.withUnsafeMutableBytes { TextKind.isInTextNode(start..<(start + 1), of: UnsafeRawBufferPointer($0)) }
        }
        #expect(!inText("1234"))
        #expect(inText("5678"))
        #expect(!inText("9999"))
        #expect(inText("after"))
    }

    @Test func theRuleFileFieldIsChecked() {
        let text = #"{"rules": [{"id": "x.y", "kind": "pattern", "codeAndMarkup": "sometimes", "title": "t", "description": "d", "help": "h", "level": "error", "family": "secret", "securitySeverity": 5, "pattern": "(?<secret>zz)", "keywords": ["zz"], "examples": ["zz"]}]}"#
        #expect(throws: FileFormatError.self) { try RuleFileParser.parse(Array(text.utf8), file: "bad.json") }
    }
}
