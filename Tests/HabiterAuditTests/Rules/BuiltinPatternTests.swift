@testable import AuditDetection
@testable import AuditRules
import Testing

/// The built-in pack's patterns are compiled when first matched (`Regex(deferring:)`), not at
/// load: what the load checks in a user's pattern is checked here for them, and a deferred
/// pattern matches as a compiled one does.
@Suite struct BuiltinPatternTests {
    @Test func everyBuiltinPatternCompilesWithASecretGroup() {
        for rule in TestSupport.builtinPack.rules where rule.kind == .pattern {
            do {
                let regex = try Regex(rule.pattern!)
                #expect(regex.captureCount > 0, "\(rule.id) has no capture group for the secret")
            } catch {
                Issue.record("\(rule.id): \(error.message)")
            }
        }
    }

    @Test func aLoadedPackHasCompiledNoBuiltinPattern() throws {
        let pack = try RulePack.load()
        #expect(!pack.patterns.regexes.isEmpty)
        #expect(pack.patterns.regexes.allSatisfy { !$0.isCompiled })
    }

    @Test func aDeferredPatternMatchesAsACompiledOne() throws {
        let matcher = RegexMatcher()
        let subject = Array("a key=abc, key=xyz and ghp_".utf8)
        for pattern in ["key=(?<secret>[a-z]+)", "(?i)KEY=([a-z]{2})", "ghp_(x)?"] {
            let eager = try Regex(pattern)
            let deferred = Regex(deferring: pattern)
            #expect(!deferred.isCompiled)
            let expected = try subject.withUnsafeBytes { try matcher.allMatches(eager, in: $0) }
            let found = try subject.withUnsafeBytes { try matcher.allMatches(deferred, in: $0) }
            #expect(found == expected)
            #expect(deferred.isCompiled)
            #expect(deferred.captureCount == eager.captureCount)
        }
    }

    @Test func aDeferredPatternThatDoesNotCompileFailsItsMatch() {
        let matcher = RegexMatcher()
        let broken = Regex(deferring: "(unclosed")
        #expect(broken.captureCount == 0)
        for _ in 0..<2 {
            #expect(throws: RegexError.self) {
                try Array("unclosed".utf8).withUnsafeBytes { try matcher.firstMatch(broken, in: $0) }
            }
        }
    }
}
