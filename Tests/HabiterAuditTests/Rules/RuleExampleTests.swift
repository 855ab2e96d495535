@testable import AuditCore
@testable import AuditDetection
@testable import AuditReport
@testable import AuditRules
@testable import AuditScan
import Foundation
import Testing

/// One example or counter-example of a built-in rule, named for the test report.
struct RuleExample: CustomTestStringConvertible, Sendable {
    let ruleId: String
    let kind: RuleKind
    let text: String
    let positive: Bool
    let number: Int

    var testDescription: String { "\(ruleId) \(positive ? "example" : "counter-example") \(number)" }

    static let all: [RuleExample] = TestSupport.builtinPack.rules.flatMap { rule in
        rule.examples.enumerated().map { RuleExample(ruleId: rule.id, kind: rule.kind, text: $1, positive: true, number: $0 + 1) }
            + rule.counterExamples.enumerated().map { RuleExample(ruleId: rule.id, kind: rule.kind, text: $1, positive: false, number: $0 + 1) }
    }
}

/// Every example of every rule, through a real scan, in the altered copies SwiftLint's
/// `verifyRule` uses: as is, behind a multi-byte prefix, with CRLF line ends, at the end of a
/// file without a newline.
@Suite struct RuleExampleTests {
    static func patternFindings(_ text: String, ruleId: String) -> [Finding] {
        TestSupport.scan("[" + jsonString(text) + "]").findings.filter { $0.ruleId == ruleId }
    }

    static func jsonString(_ text: String) -> String {
        String(JSONOutput.string(text).rendered().dropLast())
    }

    @Test(arguments: RuleExample.all)
    func example(_ example: RuleExample) {
        switch example.kind {
        case .pattern:
            let variants = [
                example.text,
                "Grüße 😀 " + example.text,
                example.text.replacingOccurrences(of: "\n", with: "\r\n"),
                "line one\n" + example.text,
            ]
            for variant in variants {
                let found = !Self.patternFindings(variant, ruleId: example.ruleId).isEmpty
                #expect(found == example.positive, "\(example.testDescription) in variant \(variants.firstIndex(of: variant)!)")
            }
            // At the end of a whole NDJSON input without a trailing newline.
            let ndjson = "{\"a\":1}\n[" + Self.jsonString(example.text) + "]"
            let found = TestSupport.scan(ndjson).findings.contains { $0.ruleId == example.ruleId }
            #expect(found == example.positive, "\(example.testDescription) at end of file")
        case .name:
            let match = TestSupport.builtinPack.names.match(example.text)
            let matched = match.map { TestSupport.builtinPack.nameRules[$0.ruleIndex].id == example.ruleId && !$0.describesMetadata } ?? false
            #expect(matched == example.positive, "\(example.testDescription): '\(example.text)'")
            // Through a scan, as a key holding a credible value.
            let findings = TestSupport.scan("{\(Self.jsonString(example.text)): \"q8Zr-Wm3v-Tt5x\"}").findings
            #expect(findings.contains { $0.ruleId == example.ruleId } == example.positive, "\(example.testDescription) in a scan")
        case .contract, .inventory:
            // Whole inputs; also as one line of an operation log and with CRLF line ends.
            let variants = [example.text, example.text.replacingOccurrences(of: "\n", with: "\r\n")]
                + (example.text.hasPrefix("{") && !example.text.contains("\n") ? ["{\"op\":0}\n" + example.text] : [])
            for variant in variants {
                let result = TestSupport.scan(variant, name: "example")
                #expect(result.errors.isEmpty, "\(example.testDescription): \(result.errors.map(\.description))")
                #expect(result.findings.contains { $0.ruleId == example.ruleId } == example.positive, "\(example.testDescription)")
            }
        }
    }

    @Test func ruleTesterPassesTheBuiltinPack() {
        let failures = RuleTester.run(TestSupport.builtinPack).filter { !$0.passed }
        #expect(failures.isEmpty, "\(failures.map { "\($0.ruleId): \($0.problems)" })")
    }

    /// docs/rules.md's catalogue of pattern rules is generated from rules/ (issue 21).
    @Test func ruleCatalogueIsCurrent() throws {
        let python = try #require(TestSupport.which("python3"), "python3 is needed to check docs/rules.md")
        let script = TestSupport.repoRoot.appendingPathComponent("scripts/rules-catalogue").path
        let run = try TestSupport.run(python, [script, "--check"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func embeddedPackIsUpToDate() throws {
        let directory = TestSupport.repoRoot.appendingPathComponent("rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(BuiltinRuleFiles.files.map(\.name) == names, "rules/ and the embedded pack list different files: run scripts/embed-rules")
        for file in BuiltinRuleFiles.files {
            let onDisk = try String(contentsOf: directory.appendingPathComponent(file.name), encoding: .utf8)
            #expect(onDisk.trimmingCharacters(in: .newlines) == file.text, "\(file.name) changed since it was embedded: run scripts/embed-rules")
        }
    }
}

/// `rules test` asks of a value rule two examples and two counter-examples (issue 21).
@Suite struct RuleTesterCountTests {
    static func problems(examples: [String], counterExamples: [String]) throws -> [String] {
        let rule: [String: Any] = [
            "id": "secret.test-token", "kind": "pattern", "title": "t", "description": "d", "help": "h", "level": "error",
            "family": "secret", "securitySeverity": 5, "pattern": "(?<![A-Za-z0-9])(?<secret>tt_[0-9a-f]{16})(?![A-Za-z0-9])",
            "keywords": ["tt_"], "examples": examples, "counterExamples": counterExamples,
        ]
        let text = try JSONSerialization.data(withJSONObject: ["rules": [rule]])
        let pack = try RulePack(files: [(name: "test.json", text: Array(text))])
        return RuleTester.run(pack).first { $0.ruleId == "secret.test-token" }?.problems ?? ["not run"]
    }

    /// A keyword with a letter beyond ASCII is found as written: the prefilter folds ASCII
    /// letters only, in the keyword as in the value (it used to look for `äpi_` in `ÄPI_…`).
    @Test func aKeywordBeyondASCIIIsFoundAsWritten() throws {
        let rule: [String: Any] = [
            "id": "secret.test-token", "kind": "pattern", "title": "t", "description": "d", "help": "h", "level": "error",
            "family": "secret", "securitySeverity": 5, "pattern": "(?<secret>\u{C4}PI_[0-9a-f]{16})",
            "keywords": ["\u{C4}pi_"], "examples": ["\u{C4}PI_0123456789abcdef"], "counterExamples": [],
        ]
        let text = try JSONSerialization.data(withJSONObject: ["rules": [rule]])
        let pack = try RulePack(files: [(name: "test.json", text: Array(text))])
        let hits = try TestSupport.patternHits(pack.patterns, Array("key \u{C4}PI_0123456789abcdef".utf8))
        #expect(hits.map(\.secret) == [4..<25])
    }

    @Test func twoOfEachPass() throws {
        #expect(try Self.problems(examples: ["tt_0123456789abcdef", "key tt_fedcba9876543210"],
                                  counterExamples: ["tt_0123", "xt_0123456789abcdef"]) == [])
    }

    @Test func oneOfEitherFails() throws {
        #expect(try Self.problems(examples: ["tt_0123456789abcdef"], counterExamples: ["tt_0123", "xt_0123456789abcdef"])
                == ["fewer than 2 examples"])
        #expect(try Self.problems(examples: ["tt_0123456789abcdef", "key tt_fedcba9876543210"], counterExamples: ["tt_0123"])
                == ["fewer than 2 counter-examples"])
    }
}
