@testable import AuditCore
@testable import AuditDetection
@testable import AuditRules
import Foundation
import Testing

/// Context rules (issue 21): a generic-shaped secret known by a provider's name beside it
/// (`keywordWindow`), reported at the rule's lower confidence.
@Suite struct ContextRuleTests {
    static let token = "q8ZrWm3vTt5xLp2kB7nC4dF9gH1jK6mN0pQ3rS5u"

    static func findings(_ note: String) -> [Finding] {
        TestSupport.scan(#"{"note": "\#(note)"}"#).findings.filter { $0.ruleId == "secret.cloudflare-api-token" }
    }

    @Test func theProviderNameBesideTheValueNamesIt() {
        let near = Self.findings("cloudflare token \(Self.token)")
        #expect(near.count == 1)
        #expect(near.first?.confidence == .low)
        #expect(Self.findings("\(Self.token) is the cloudflare token").count == 1)
    }

    @Test func aNameFarAwayOrInsideTheValueDoesNot() {
        let far = "cloudflare" + String(repeating: " ", count: 60) + Self.token
        #expect(Self.findings(far).isEmpty)
        #expect(Self.findings(Self.token).isEmpty)
        var bytes = Array("xcloudflarex".utf8)
        // Only outside the secret: a keyword inside it says nothing.
        #expect(!bytes.withUnsafeMutableBytes { PatternEngine.keywordNear(["cloudflare"], secret: 0..<12, within: 48, in: UnsafeRawBufferPointer($0)) })
        #expect(bytes.withUnsafeMutableBytes { PatternEngine.keywordNear(["cloudflare"], secret: 11..<12, within: 48, in: UnsafeRawBufferPointer($0)) })
    }

    static func ruleIds(_ text: String, name: String) -> [String] {
        TestSupport.scan(text, name: name).findings.map(\.ruleId).filter { $0.hasPrefix("secret.cloudflare") }
    }

    @Test func aKeyNamesTheProviderOfItsValue() {
        #expect(Self.ruleIds(#"{"cloudflare": {"dnsToken": "\#(Self.token)"}, "CF_API_TOKEN": "\#(Self.token)"}"#, name: "a.json")
                == ["secret.cloudflare-api-token"])
        // The key speaks for its own value only.
        #expect(Self.ruleIds(#"{"cloudflare": "zone", "mirror": "\#(Self.token)"}"#, name: "a.json").isEmpty)
    }

    /// The paths of the Cloudflare token findings of `text`, related locations included, sorted.
    static func tokenPaths(_ text: String, name: String) -> [String] {
        TestSupport.scan(text, name: name).findings.filter { $0.ruleId == "secret.cloudflare-api-token" }
            .flatMap { [$0.pathText] + $0.relatedLocations.map(\.pathText) }.sorted()
    }

    /// Every element of an array under the key, nested arrays' too, where only the first was
    /// read with the key's context rules; an object's members have their own keys.
    @Test func aKeyNamesTheProviderOfEveryElementOfItsArray() {
        let second = String(Self.token.reversed())
        #expect(Self.tokenPaths(#"{"cloudflare": ["\#(Self.token)", "\#(second)", ["\#(Self.token)"], {"zone": "\#(second)"}]}"#, name: "a.json")
                == ["/cloudflare/0", "/cloudflare/1", "/cloudflare/2/0"])
    }

    /// A key that names a provider speaks for its value however the value is encoded: the root
    /// of a layer opened in it (base64 text, JSON text of a list) is read with the key's context
    /// rules, in a JSON input as in a prefs export. An object there is read by its own keys, as
    /// under the key itself; the same layers under a neutral key give nothing.
    @Test func aKeyNamesTheProviderOfWhatItsValueEncodes() {
        let second = String(Self.token.reversed())
        let base64 = Data(Self.token.utf8).base64EncodedString()
        let json = #"{"cloudflare": "\#(base64)", "CF_API_TOKEN": "[\"\#(Self.token)\", \"\#(second)\"]", "cloudflare_zone": "{\"zone\": \"\#(second)\"}", "#
            + #""mirror": "\#(base64)", "copy": "[\"\#(second)\"]"}"#
        #expect(Self.tokenPaths(json, name: "a.json") == ["/CF_API_TOKEN!json/0", "/CF_API_TOKEN!json/1", "/cloudflare!base64"])
        let list = "[&quot;\(Self.token)&quot;, &quot;\(second)&quot;]"
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.cloudflareTokens\">\(list)</string>\n    <string name=\"flutter.mirror\">\(list)</string>\n</map>\n"
        #expect(Self.tokenPaths(prefs, name: "FlutterSharedPreferences.xml") == ["/flutter.cloudflareTokens!json/0", "/flutter.cloudflareTokens!json/1"])
    }

    static func har(url: String, request: String, response: String = "[]") -> String {
        #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "\#(url)", "headers": \#(request), "queryString": []}, "response": {"status": 200, "headers": \#(response), "content": {"mimeType": "text/plain", "text": ""}}}]}}"#
    }

    @Test func aHeaderNameOrTheRequestHostNamesTheProvider() {
        let key = "3f2a9c8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3"
        #expect(Self.ruleIds(Self.har(url: "https://example.net/x", request: #"[{"name": "X-Auth-Key", "value": "\#(key)"}]"#), name: "a.har")
                == ["secret.cloudflare-global-api-key"])
        #expect(Self.ruleIds(Self.har(url: "https://api.cloudflare.com/client/v4/zones", request: #"[{"name": "X-Zone-Token", "value": "\#(Self.token)"}]"#),
                             name: "a.har") == ["secret.cloudflare-api-token"])
        // Not the response's headers (an ETag is as long), nor a request to another host.
        #expect(Self.ruleIds(Self.har(url: "https://api.cloudflare.com/client/v4/zones", request: "[]",
                                      response: #"[{"name": "ETag", "value": "\#(Self.token)"}]"#), name: "a.har").isEmpty)
        #expect(Self.ruleIds(Self.har(url: "https://example.net/x", request: #"[{"name": "X-Zone-Token", "value": "\#(Self.token)"}]"#),
                             name: "a.har").isEmpty)
    }

    @Test func aRawRequestsHostNamesTheProvider() {
        let request = "GET /client/v4/zones HTTP/1.1\r\nHost: api.cloudflare.com\r\nX-Zone-Token: \(Self.token)\r\n\r\n"
        #expect(Self.ruleIds(request, name: "a.http") == ["secret.cloudflare-api-token"])
        let elsewhere = "GET /x HTTP/1.1\r\nHost: example.net\r\nX-Zone-Token: \(Self.token)\r\n\r\n"
        #expect(Self.ruleIds(elsewhere, name: "a.http").isEmpty)
    }

    @Test func aPrefsEntryNameNamesTheProvider() {
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.cloudflareToken\">\(Self.token)</string>\n    <string name=\"flutter.mirror\">\(Self.token)</string>\n</map>\n"
        #expect(Self.ruleIds(prefs, name: "FlutterSharedPreferences.xml") == ["secret.cloudflare-api-token"])
    }

    @Test(arguments: [
        (#""keywordWindow": 0, "keywords": ["zz"]"#, "keywordWindow must be between 1 and 4096 bytes"),
        (#""keywordWindow": 40"#, "a keywordWindow needs the keywords that must stand in it"),
        (#""confidence": "certain", "keywords": ["zz"]"#, "confidence must be low, medium or high"),
    ])
    func theFieldsAreChecked(_ fields: String, _ reason: String) {
        let text = #"{"rules": [{"id": "x.y", "kind": "pattern", "title": "t", "description": "d", "help": "h", "level": "error", "family": "secret", "securitySeverity": 5, "pattern": "(?<secret>zz)", \#(fields), "examples": ["zz"]}]}"#
        do {
            _ = try RuleFileParser.parse(Array(text.utf8), file: "bad.json")
            Issue.record("accepted: \(fields)")
        } catch {
            #expect(error.reason == reason)
        }
    }
}
