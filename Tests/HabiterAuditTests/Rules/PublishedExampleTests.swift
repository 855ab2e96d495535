@testable import AuditBytes
@testable import AuditCore
@testable import AuditDetection
@testable import AuditRules
@testable import AuditScan
import Testing

/// A rule's `publishedExamples` (issue 21): values a provider or SDK publishes as examples,
/// known by their SHA-256 digest, are not reported; any other value of the shape is.
@Suite struct PublishedExampleTests {
    static let published = "tt_Q8ZrWm3vTt5xLp2kB7nC"
    static let other = "tt_B7nC4dF9gH1jK6mN0pQ3"

    static func rule(_ digests: [String]) -> String {
        let list = digests.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"rules": [{"id": "secret.tt-token", "kind": "pattern", "title": "t", "description": "d", "help": "h", "level": "error", "family": "secret", "securitySeverity": 5, "tags": [], "pattern": "(?<secret>tt_[A-Za-z0-9]{20})", "keywords": ["tt_"], "publishedExamples": [\#(list)], "examples": ["tt_0123456789abcdefghij", "x tt_abcdefghij0123456789"], "counterExamples": ["tt_0123", "xt_0123456789abcdefghij"]}]}"#
    }

    static func findings(_ value: String, pack: RulePack) -> [Finding] {
        var bytes = Array(#"{"note": "\#(value)"}"#.utf8)
        return bytes.withUnsafeMutableBytes { Scanner(rules: pack, options: ScanOptions()).scan(bytes: UnsafeRawBufferPointer($0), name: "a.json") }.findings
    }

    @Test func aPublishedValueIsNotReportedAnotherIs() throws {
        let pack = try RulePack(files: [("published.json", Array(Self.rule([SHA256.hexDigest(Self.published)]).utf8))])
        #expect(Self.findings("key \(Self.published)", pack: pack).isEmpty)
        #expect(Self.findings("key \(Self.other)", pack: pack).map(\.ruleId) == ["secret.tt-token"])
    }

    @Test func anItemThatIsNoDigestIsRefusedWithoutQuotingIt() {
        do {
            _ = try RuleFileParser.parse(Array(Self.rule([Self.published]).utf8), file: "bad.json")
            Issue.record("a raw value was accepted as a digest")
        } catch {
            #expect(error.reason.contains("item 1 is not one"))
            #expect(!error.description.contains(Self.published))
        }
    }

    @Test func theBuiltinGoogleRuleListsTheFirebaseSDKExamples() throws {
        let rule = try #require(TestSupport.builtinPack.patterns.rules.first { $0.id == "secret.google-api-key" })
        #expect(rule.publishedExamples.count == 16)
    }
}
