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

    /// The cache first tries the key that followed the last key found the time before: a stream
    /// of documents of one shape, broken by keys in another order, keys of the same length that
    /// differ in one byte and keys never seen, is answered as a dictionary of the keys answers it.
    @Test func aKeyFoundAfterItsPredecessorIsTheKeyAskedFor() {
        let cache = KeyFactsCache()
        let shape = ["entityId", "payload", "title", "titlf", "count", "countX", "id", "ie", "schemaVersion"].map { Array($0.utf8) }
        var ids: [[UInt8]: Int32] = [:]
        var generator = SeededGenerator(seed: 99)
        for round in 0..<6000 {
            var key: [UInt8]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...6: key = shape[round % shape.count]
            case 7: key = shape.randomElement(using: &generator)!
            case 8:
                key = shape.randomElement(using: &generator)!
                key[Int.random(in: 0..<key.count, using: &generator)] = UInt8.random(in: 0x61...0x7A, using: &generator)
            default: key = (0..<Int.random(in: 1...12, using: &generator)).map { _ in UInt8.random(in: 0x61...0x66, using: &generator) }
            }
            let known = ids[key]
            let answer: Int32 = key.withUnsafeBufferPointer { bytes in
                switch cache.lookUp(bytes) {
                case .found(let facts): return facts.storeIndex
                case .missed(let miss):
                    var facts = KeyFacts()
                    facts.storeIndex = Int32(ids.count)
                    return cache.learn(bytes, KeyJudgement(facts: facts, name: nil), at: miss).storeIndex
                }
            }
            if let known {
                #expect(answer == known, "\(String(decoding: key, as: UTF8.self))")
            } else {
                #expect(answer == Int32(ids.count))
                ids[key] = answer
            }
        }
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
