import AuditCore
import AuditDetection
import Foundation

/// What a worker of a shared input (`ScanShare`) knows beyond its findings that the merge needs:
/// the facts of one scan that depend on what came before in the input.
struct ShareFacts: Sendable {
    /// Challenges of the PKCE verifiers it reported unpaired, and the challenges it saw.
    var unpairedChallenges: [[UInt8]]
    var pkce: PKCEPairing
    /// Keys without a store it counted instead of listing them.
    var unlistedKeys: Int
    /// The identities of its findings (`FinalizedFindings`) when they hold fingerprints already.
    var fingerprintIdentities: IdentityDigests? = nil
}

/// The outcomes of the workers that share one input, collected by worker and merged into the
/// outcome one worker would have had.
final class SharedOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [ArtifactOutcome?]

    init(count: Int) {
        outcomes = Array(repeating: nil, count: count)
    }

    func store(_ outcome: ArtifactOutcome, at worker: Int) {
        lock.lock()
        outcomes[worker] = outcome
        lock.unlock()
    }

    /// The merged outcome; call once, after every worker has finished: it takes their findings.
    /// Nil when it would not be the outcome of one worker, so that the input must be scanned
    /// again by one:
    /// - a worker failed to start or reported an input error (a reader stops at the first
    ///   syntax error, and a worker that skips what another reads does not see it);
    /// - a PKCE verifier went unpaired while another worker saw its challenge (one scan pairs
    ///   them when the challenge comes first), or a worker stopped collecting challenges;
    /// - keys without a store were counted rather than listed (one scan lists the first ones
    ///   in input order), or would have been.
    func merged() -> ArtifactOutcome? {
        // Taken out, so that the merge moves them rather than copying.
        var runs = self.outcomes.indices.map { worker in
            defer { self.outcomes[worker]?.findings = [] }
            return self.outcomes[worker]?.findings ?? []
        }
        let outcomes = self.outcomes.compactMap { $0 }
        guard outcomes.count == self.outcomes.count, outcomes.allSatisfy({ $0.errors.isEmpty }) else { return nil }
        let facts = outcomes.compactMap(\.shared)
        guard facts.count == outcomes.count, facts.allSatisfy({ $0.unlistedKeys == 0 }) else { return nil }
        for (worker, fact) in facts.enumerated() where !fact.unpairedChallenges.isEmpty {
            for (other, otherFact) in facts.enumerated() where other != worker {
                if otherFact.pkce.isFull || fact.unpairedChallenges.contains(where: otherFact.pkce.isPaired) { return nil }
            }
        }
        let sightings = outcomes.reduce(into: Set<InventorySighting>()) { $0.formUnion($1.sightings) }
        if sightings.count > ArtifactScan.listedKeysLimit && sightings.contains(where: { $0.storeId == nil }) { return nil }
        return ArtifactOutcome(findings: FinalizedFindings.merging(&runs, identities: facts.map(\.fingerprintIdentities)), errors: [],
                               summary: outcomes[0].summary, sightings: Array(sightings))
    }
}
