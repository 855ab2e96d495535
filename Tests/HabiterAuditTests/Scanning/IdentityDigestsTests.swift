@testable import AuditScan
import Testing

/// The merge's check for an identity two workers share (`IdentityDigests`), against the plain
/// one: a set of each worker's identities, intersected.
@Suite struct IdentityDigestsTests {
    static func identity(_ text: String) -> FingerprintIdentity {
        FingerprintIdentity(bytes: Array(text.utf8))
    }

    @Test func sharingAgreesWithTheIdentitiesSetsOnRandomWorkers() {
        var generator = SeededGenerator(seed: 47)
        var shared = 0
        for _ in 0..<2_000 {
            let workers = Int.random(in: 1...4, using: &generator)
            // Few possible identities, so that workers share one in some trials and not in others.
            let sets = (0..<workers).map { _ in
                Set((0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    Self.identity("rule\u{0}a.har\u{0}/log/entries/\(Int.random(in: 0..<60, using: &generator))")
                })
            }
            var plain = false
            for (index, set) in sets.enumerated() {
                for other in sets[(index + 1)...] where !set.isDisjoint(with: other) { plain = true }
            }
            #expect(IdentityDigests.anyTwoShare(sets.map(IdentityDigests.init)) == plain)
            if plain { shared += 1 }
        }
        // Both answers were tried.
        #expect(shared > 200 && shared < 1_800)
    }

    @Test func listsAreSortedAndOneAHash() {
        let identities = ["b", "a", "c", "a"].map(Self.identity)
        let digests = IdentityDigests(identities)
        #expect(digests.sorted == digests.sorted.sorted())
        #expect(digests.sorted.count == 4)
        #expect(IdentityDigests([Self.identity("a")]).shares(with: digests))
        #expect(!IdentityDigests([Self.identity("d")]).shares(with: digests))
        #expect(!IdentityDigests([]).shares(with: digests))
    }
}
