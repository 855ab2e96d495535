@testable import AuditDetection
@testable import AuditReport
import Testing

/// A rule's SARIF `name` (`secret.github-token` → `SecretGithubToken`): the byte path for ASCII
/// ids held to the character path, on every built-in id and on odd ones.
@Suite struct SARIFRuleNameTests {
    @Test func asciiIdsAsTheCharacterPath() throws {
        let ids = try RulePack.load().rules.map(\.id)
            + ["", ".", "-.-", "a", "A", "x..y--z", ".lead", "trail-", "digits.1st-2nd", "mixed.Case-ALL", "under_score.z", "a\r\nb.c", "{}.[]-@`"]
        #expect(ids.count > 300)
        for id in ids {
            #expect(SARIFReport.pascalCase(id) == SARIFReport.pascalCaseByCharacters(id), "\(id.debugDescription)")
        }
        #expect(SARIFReport.pascalCase("secret.github-token") == "SecretGithubToken")
        #expect(SARIFReport.pascalCase("straße.ärger") == "StraßeÄrger", "beyond ASCII, as Swift uppercases a character")
    }
}
