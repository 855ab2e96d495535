@testable import AuditDetection
@testable import AuditRules
@testable import AuditScan
import Testing

/// Each scan thread gets its own copy of the rules: the same rules in the same order, user
/// files and disabled ids included, made again so that no object is shared with the original.
@Suite struct RulePackCopyTests {
    @Test func independentCopyHasTheSameRulesAndSharesNoObject() throws {
        let userRule = """
        {"rules": [{"id": "secret.copy-check", "kind": "pattern", "title": "Copy check", "description": "A test rule.", "help": "Remove it.",
          "level": "error", "family": "secret", "securitySeverity": 5.0, "keywords": ["cpychk_"],
          "pattern": "(?<secret>cpychk_[A-Za-z0-9]{16})", "examples": ["cpychk_Q7wL2mZ9xR4tV8nB"]}]}
        """
        let files = BuiltinRuleFiles.files.filter { $0.name != InventoryLoader.fileName }
            .map { (name: "builtin:\($0.name)", text: Array($0.text.utf8)) } + [(name: "user.json", text: Array(userRule.utf8))]
        let pack = try RulePack(files: files, disabled: ["secret.github-token"])
        let copy = pack.independentCopy()

        #expect(copy !== pack)
        #expect(copy.patterns !== pack.patterns)
        #expect(copy.rules.map(\.id) == pack.rules.map(\.id))
        #expect(copy.rules.contains { $0.id == "secret.copy-check" })
        #expect(copy.rule(id: "secret.github-token") == nil)
        let outcome = Array(#"{"note": "cpychk_Q7wL2mZ9xR4tV8nB"}"#.utf8).withUnsafeBytes {
            Scanner(rules: copy).scan(bytes: $0, name: "copy.json")
        }
        #expect(outcome.findings.map(\.ruleId) == ["secret.copy-check"])

        // Nor any string: a rule's strings (its file's name among them) are copied on every hit.
        let originals = Set(pack.rules.flatMap { StringStorage.strings(in: $0) }.compactMap(StringStorage.address(of:)))
        let copies = copy.rules.flatMap { StringStorage.strings(in: $0) }.compactMap(StringStorage.address(of:))
        #expect(copies.count > copy.rules.count)
        let shared = copies.filter(originals.contains).count
        #expect(shared == 0, "strings the copy shares with the original")
        // Nor any array of strings, which a copy of the rule retains too.
        let originalArrays = Set(pack.rules.flatMap { StringStorage.arrayAddresses(in: $0) })
        let copyArrays = copy.rules.flatMap { StringStorage.arrayAddresses(in: $0) }
        #expect(copyArrays.count > copy.rules.count)
        #expect(copyArrays.filter(originalArrays.contains).isEmpty, "arrays the copy shares with the original")
    }
}
