import AuditBytes
@testable import AuditCore
@testable import AuditScan
import Testing

/// The workers of a shared input each finalize their findings, and the merge puts them
/// together: that must give what finalizing all of them at once gives, in worker order, however
/// the findings fall to the workers.
@Suite struct FinalizedFindingsTests {
    /// A finding of rule `rule` at `offset` under path `path`, of the secret whose hash is
    /// `secret`; `tag` tells apart findings that are equal in report order, so that which of them
    /// is kept shows.
    static func finding(rule: Int, offset: Int, path: Int, tag: Int, secret: UInt64? = nil) -> Finding {
        var finding = Finding(ruleId: "custom.rule\(rule)", level: .error, family: .secret, message: "finding \(tag)", key: nil,
                              context: .payload, inventoryClass: nil, artifact: "a.json",
                              position: SourcePosition(line: 1, column: offset + 1, byteOffset: offset), path: LayeredPath(),
                              pathText: "/p\(path)", confidence: .high, preview: "", fingerprint: "")
        finding.secretHash = secret
        return finding
    }

    /// The workers' findings, each part finalized as its worker does (only sorted where
    /// `sortedOnly` says so), merged.
    static func merged(_ parts: [[Finding]], sortedOnly: [Bool]) -> [Finding] {
        var runs: [[Finding]] = []
        var identities: [IdentityDigests?] = []
        for (part, sortedOnly) in zip(parts, sortedOnly) {
            var finalized = sortedOnly ? FinalizedFindings(sortedOnly: part) : FinalizedFindings(part, digestingIdentities: true)
            finalized.putLastFirst()
            runs.append(finalized.findings)
            identities.append(finalized.identities)
        }
        let merged = FinalizedFindings.merging(&runs, identities: identities)
        #expect(runs.allSatisfy { $0.isEmpty })
        return merged
    }

    /// Findings of `rules` rules at 20 offsets under `paths` paths, `owner` giving each to a
    /// worker, in 300 random trials: merged as the workers hand them, they must be what
    /// finalizing them all at once gives. With `sortingWorkers`, some workers only sort theirs.
    static func expectMergeAsOneWorker(seed: UInt64, workers: ClosedRange<Int>, rules: Int, paths: Int, sortingWorkers: Bool = false,
                                       owner: (_ path: Int, _ workers: Int, inout SeededGenerator) -> Int) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let workers = Int.random(in: workers, using: &generator)
            var parts = Array(repeating: [Finding](), count: workers)
            for tag in 0..<Int.random(in: 0...60, using: &generator) {
                let path = Int.random(in: 0..<paths, using: &generator)
                let finding = finding(rule: .random(in: 0..<rules, using: &generator), offset: .random(in: 0..<20, using: &generator),
                                      path: path, tag: tag, secret: [nil, 1, 2].randomElement(using: &generator)!)
                parts[owner(path, workers, &generator)].append(finding)
            }
            let sortedOnly = parts.indices.map { _ in sortingWorkers && Bool.random(using: &generator) }
            #expect(merged(parts, sortedOnly: sortedOnly) == Scanner.finalize(parts.flatMap { $0 }))
        }
    }

    /// Few rules, offsets and paths: identities repeat and exact duplicates occur, within a
    /// worker and across workers.
    @Test func mergingEqualsFinalizingAllAtOnce() {
        Self.expectMergeAsOneWorker(seed: 23, workers: 1...4, rules: 3, paths: 4) { _, workers, generator in
            .random(in: 0..<workers, using: &generator)
        }
    }

    /// Workers that only sorted their findings (an NDJSON file's) beside workers that
    /// finalized theirs: the merge finalizes them all.
    @Test func workersThatOnlySortedLeaveTheCountToTheMerge() {
        Self.expectMergeAsOneWorker(seed: 25, workers: 1...4, rules: 2, paths: 8, sortingWorkers: true) { path, workers, _ in path % workers }
    }

    /// Where each identity is one worker's (the path of a finding in a HAR entry names the
    /// entry), the merge keeps the fingerprints the workers counted.
    @Test func workersWithIdentitiesOfTheirOwnKeepTheirCounts() {
        Self.expectMergeAsOneWorker(seed: 24, workers: 2...4, rules: 2, paths: 8) { path, workers, _ in path % workers }
    }

    /// A fingerprint is the digest of `habiter-audit/v1`, rule, artifact and path, each ended by
    /// a zero byte, and the number of findings of that identity before it in report order: the
    /// same identity at three places gets three fingerprints, numbered 0, 1 and 2, and another
    /// path starts again at 0.
    @Test func fingerprintsCountTheFindingsOfTheirIdentityBefore() {
        func expected(rule: Int, path: Int, occurrence: Int) -> String {
            SHA256.hexDigest(bytes: Array("habiter-audit/v1\u{0}custom.rule\(rule)\u{0}a.json\u{0}/p\(path)\u{0}\(occurrence)".utf8), byteCount: 16)
        }
        let findings = [Self.finding(rule: 1, offset: 9, path: 1, tag: 0), Self.finding(rule: 1, offset: 2, path: 1, tag: 1),
                        Self.finding(rule: 1, offset: 5, path: 2, tag: 2), Self.finding(rule: 1, offset: 4, path: 1, tag: 3)]
        let finalized = Scanner.finalize(findings)
        #expect(finalized.map(\.position.byteOffset) == [2, 4, 5, 9])
        #expect(finalized.map(\.fingerprint) == [expected(rule: 1, path: 1, occurrence: 0), expected(rule: 1, path: 1, occurrence: 1),
                                                  expected(rule: 1, path: 2, occurrence: 0), expected(rule: 1, path: 1, occurrence: 2)])
    }

    /// Two secrets of one rule at one place (one value's) are two findings, numbered as two
    /// findings of one identity; the same secret twice there is one finding, the first kept.
    @Test func distinctSecretsAtOnePlaceAreDistinctFindings() {
        let findings = [Self.finding(rule: 1, offset: 3, path: 1, tag: 0, secret: 9), Self.finding(rule: 1, offset: 3, path: 1, tag: 1, secret: 4),
                        Self.finding(rule: 1, offset: 3, path: 1, tag: 2, secret: 9), Self.finding(rule: 2, offset: 3, path: 1, tag: 3, secret: 9)]
        let finalized = Scanner.finalize(findings)
        #expect(finalized.map(\.message) == ["finding 1", "finding 0", "finding 3"])
        #expect(Set(finalized.map(\.fingerprint)).count == 3)
    }
}
