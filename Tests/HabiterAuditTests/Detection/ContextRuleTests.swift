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
