@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan
import Testing

/// A key's facts and name rule are the same whatever was looked up before: for keys the cache
/// keeps, and for keys too long for it, whose name is matched again from the key.
@Suite struct KeyFactsTests {
    private static func scan() -> ArtifactScan {
        ArtifactScan(artifact: "keys", window: ByteWindow(whole: UnsafeRawBufferPointer(start: nil, count: 0)),
                     rules: TestSupport.builtinPack, matcher: RegexMatcher(), caches: WorkerCaches(rules: TestSupport.builtinPack),
                     options: ScanOptions())
    }

    private static func ruleId(_ scan: ArtifactScan, _ facts: KeyFacts, _ key: [UInt8]) -> String? {
        key.withUnsafeBufferPointer { scan.nameMatch(of: facts, key: $0).map { scan.rules.nameRules[$0.ruleIndex].id } }
    }

    @Test(arguments: [8, 80])
    func aKeysNameDoesNotDependOnTheKeyLookedUpAfterIt(_ length: Int) {
        let scan = Self.scan()
        let padding = String(repeating: "x", count: max(0, length - 8))
        let password = Array("\(padding)_password".utf8), token = Array("\(padding)_apiToken".utf8)
        let passwordFacts = password.withUnsafeBufferPointer { scan.keyFacts($0) }
        let tokenFacts = token.withUnsafeBufferPointer { scan.keyFacts($0) }
        #expect(KeyFactsCache.hasUncachedName(passwordFacts) == (length > 64))
        let passwordRule = Self.ruleId(scan, passwordFacts, password), tokenRule = Self.ruleId(scan, tokenFacts, token)
        #expect(passwordRule != nil && tokenRule != nil && passwordRule != tokenRule)
        // Asked again in the other order, and on a fresh scan: the same answers.
        let fresh = Self.scan()
        let tokenAgain = token.withUnsafeBufferPointer { fresh.keyFacts($0) }
        let passwordAgain = password.withUnsafeBufferPointer { fresh.keyFacts($0) }
        #expect(Self.ruleId(fresh, passwordAgain, password) == passwordRule)
        #expect(Self.ruleId(fresh, tokenAgain, token) == tokenRule)
    }

    /// A key's text comes from the cache for a key it keeps (also when asked again, and for a key
    /// whose facts are otherwise empty), and is decoded afresh for one too long for it: the same
    /// text either way, as the contract checks' trees had from decoding every occurrence.
    @Test(arguments: ["id", "name", "café", "\u{1F600}x", "flutter.habiter_habits", "notificationTime",
                      String(repeating: "k", count: 64), String(repeating: "k", count: 65) + "é"])
    func aKeysTextIsItsDecodedBytes(_ key: String) {
        let scan = Self.scan()
        let bytes = Array(key.utf8)
        for _ in 0..<2 {
            let facts = bytes.withUnsafeBufferPointer { scan.keyFacts($0) }
            #expect((scan.keyCache.text(of: facts) != nil) == (bytes.count <= 64), "\(bytes.count) bytes")
            let text = bytes.withUnsafeBufferPointer { scan.keyText($0, facts: facts) }
            #expect(Array(text.utf8) == bytes)
        }
    }
}
