@testable import AuditCore
@testable import AuditDetection
@testable import AuditRules
@testable import AuditScan
import Foundation
import Testing

/// One fixture per failure mode in Fixtures/invalid-rules, each refused at load with the exact
/// message: file, line, column, rule id and reason.
@Suite struct InvalidRuleFileTests {
    static let directory = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/invalid-rules")

    @Test(arguments: [
        ("not-json.json", "not-json.json:3:1: not valid JSON: unexpected end of input"),
        ("unknown-field.json", "unknown-field.json:4:4: rule 'secret.x': unknown field 'severity'"),
        ("duplicate-field.json", "duplicate-field.json:4:4: rule 'secret.x': duplicate field 'title'"),
        ("bad-id.json", "bad-id.json:2:3: rule 'Secret X': id must be lowercase dotted words, e.g. secret.github-token"),
        ("missing-examples.json", "missing-examples.json:2:3: rule 'secret.x': a rule needs at least one example"),
        ("invalid-regex.json", "invalid-regex.json:2:3: rule 'secret.x': pattern does not compile at offset 19: missing terminating ] for character class"),
        ("no-capture-group.json", "no-capture-group.json:2:3: rule 'secret.x': the pattern needs a capture group (named 'secret', or group 1) for the secret"),
        ("duplicate-id.json", "duplicate-id.json:4:3: rule 'secret.x': duplicate rule id (also defined in duplicate-id.json)"),
        ("wrong-type.json", "wrong-type.json:3:52: rule 'secret.x': 'keywords' must be an array of strings"),
        ("unknown-validator.json", "unknown-validator.json:2:3: rule 'secret.x': unknown validator 'luhn' (known: \(Validators.names.sorted().joined(separator: ", ")))"),
        ("name-rule-without-names.json", "name-rule-without-names.json:2:3: rule 'name.x': a name rule needs a non-empty \"names\" array"),
        ("missing-rules-array.json", "missing-rules-array.json:1:2: unknown field 'rule' (allowed: rules, $comment)"),
        ("unknown-contract-rule.json", "unknown-contract-rule.json:2:3: rule 'contract.habit-colour': there is no built-in contract check with this id"),
        ("catastrophic-pattern.json", "catastrophic-pattern.json:2:3: rule 'secret.slow': the pattern backtracks catastrophically: on \"xxxxxxxxxxxx…\" (1032 bytes) it reached the match limit"),
        ("contract-rule-with-pattern.json", "contract-rule-with-pattern.json:3:98: rule 'contract.entity-id': a contract rule's check is built in; it has no pattern"),
        // A number no `Int` holds is refused, not converted: `Int(1e300)` traps (exit status 132).
        ("out-of-range-number.json", "out-of-range-number.json:3:17: rule 'secret.x': 'minLength' is out of range"),
    ])
    func refusedWithFileRuleAndReason(_ name: String, _ message: String) throws {
        let text = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        #expect(throws: FileFormatError.self) { _ = try RulePack(files: [(name, text)]) }
        do {
            _ = try RulePack(files: [(name, text)])
        } catch {
            #expect(error.description == message)
        }
    }

    /// The parser names each field after its case, from a list written out beside the cases.
    @Test func eachFieldIsNamedAfterItsCase() {
        #expect(RuleFileParser.Field.allNames == RuleFileParser.Field.allCases.map { String(describing: $0) })
        #expect(Set(RuleFileParser.Field.allNames).count == RuleFileParser.Field.allCases.count)
    }

    @Test func noBuiltinPatternBacktracksOnTheLoadProbe() {
        let matcher = RegexMatcher()
        for rule in TestSupport.builtinPack.rules where rule.kind == .pattern {
            let regex = try! Regex(rule.pattern!)
            let input = BacktrackingProbe.firstLimit(regex, pattern: rule.pattern!, examples: rule.examples, keywords: rule.keywords, matcher: matcher)
            #expect(input == nil, "\(rule.id) reaches the match limit on \(input ?? "")")
        }
    }

    /// A pattern that slips past the load probe still cannot stall a scan: the match limit stops
    /// it and the check is reported incomplete. (Built-in rule files are not probed at load, so
    /// the pattern is loaded as one.)
    @Test func aCatastrophicPatternCannotStallAScan() throws {
        let rule = """
        {"rules": [{"id": "secret.slow", "kind": "pattern", "title": "T", "description": "D", "help": "H",
          "level": "error", "family": "secret", "securitySeverity": 5.0, "keywords": ["aa"],
          "pattern": "(?<secret>(a+)+$)", "examples": ["aaaa"]}]}
        """
        let pack = try RulePack(files: [("builtin:slow.json", Array(rule.utf8))])
        let value = "[\"" + String(repeating: "a", count: 5000) + "!\"]"
        let scanner = Scanner(rules: pack)
        let started = Date()
        let outcome = Array(value.utf8).withUnsafeBytes { scanner.scan(bytes: $0, name: "slow.json") }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(outcome.errors.map(\.description) == ["slow.json:1:2: rule 'secret.slow': the match limit was reached, so the check is incomplete"])
        #expect(outcome.errors.first?.kind == .limit)
    }
}
