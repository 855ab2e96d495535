import AuditBytes
import AuditCore

/// An input's findings as they are reported: in report order, exact duplicates dropped, each
/// with its fingerprint, a hash of rule, artifact, layered path and occurrence, so that it
/// survives re-indentation and never depends on the value. Two secrets of one rule in one value
/// stand at one place but are not duplicates: one finding a distinct secret (DESIGN.md).
///
/// The workers that share one input (`ScanShare`) each finalize their own findings, side by
/// side, and hand them over last first; the merge (`merging`) only interleaves them, unless
/// two workers found the same identity, whose occurrences it must then count again. Where that
/// is the rule (`sortedOnly`), a worker only sorts its findings.
struct FinalizedFindings {
    private(set) var findings: [Finding]
    /// The identities of the findings, as the merge compares them: for a worker of a shared
    /// input (`digestingIdentities`); nil otherwise, and when they were only sorted.
    let identities: IdentityDigests?

    init(_ findings: consuming [Finding], digestingIdentities: Bool = false) {
        // In place: an array of millions of findings is neither copied nor retained anew.
        var findings = findings
        findings.sort(by: Self.inReportOrder)
        var occurrences: [FingerprintIdentity: Int] = [:]
        occurrences.reserveCapacity(findings.count)
        var firstBlock = SHA256.FirstBlockCache()
        // The findings kept are moved to the front: `kept` of them so far. Read in place: through
        // the array, a finding passed while another is written is copied.
        var kept = 0
        findings.withUnsafeMutableBufferPointer { findings in
            for index in findings.indices {
                // An exact duplicate has every sort key of the finding kept before it: it does
                // not come after that one.
                if kept > 0 && !Self.inReportOrder(findings[kept - 1], findings[index]) { continue }
                if kept != index { findings.swapAt(kept, index) }
                let fingerprint = Self.fingerprint(rule: findings[kept].ruleId, artifact: findings[kept].artifact,
                                                   path: findings[kept].pathText, occurrences: &occurrences, firstBlock: &firstBlock)
                findings[kept].fingerprint = fingerprint
                kept += 1
            }
        }
        findings.removeLast(findings.count - kept)
        self.findings = findings
        identities = digestingIdentities ? IdentityDigests(occurrences.keys) : nil
    }

    /// The findings in report order, duplicates and fingerprints left to the merge: for a
    /// worker whose findings' identities recur in the other workers' (the paths of an NDJSON
    /// line's findings do not name the line).
    init(sortedOnly findings: consuming [Finding]) {
        var findings = findings
        findings.sort(by: Self.inReportOrder)
        self.findings = findings
        identities = nil
    }

    /// Puts the findings last first, as the merge takes them: from the end of each worker's.
    mutating func putLastFirst() {
        // In place: the array's own `reverse` copies each finding it swaps.
        findings.withUnsafeMutableBufferPointer { $0.reverse() }
    }

    /// The findings of the workers that shared one input, each finalized and put last first by
    /// its worker, finalized as one worker's would be; `identities` are the workers' own. Of
    /// findings equal in report order, the earlier worker's is kept. Empties `runs`: each
    /// finding is moved, where a copy would retain all it holds, and freeing the runs release
    /// it again.
    ///
    /// A fingerprint counts the findings of its identity before it. Where every worker counted
    /// its own and no two found the same identity, each counted all of them, and no exact
    /// duplicate lies in two workers' findings; otherwise they are counted again.
    static func merging(_ runs: inout [[Finding]], identities: [IdentityDigests?]) -> [Finding] {
        let merged = mergeLastFirstRuns(&runs)
        let counted = identities.compactMap { $0 }
        return counted.count < identities.count || IdentityDigests.anyTwoShare(counted) ? FinalizedFindings(merged).findings : merged
    }

    /// The findings of runs each in reverse report order, in report order; of equal ones, those
    /// of the earlier run first.
    private static func mergeLastFirstRuns(_ runs: inout [[Finding]]) -> [Finding] {
        var merged: [Finding] = []
        merged.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        while true {
            var next = -1
            for run in runs.indices where !runs[run].isEmpty {
                if next < 0 || lastComesFirst(runs[run], before: runs[next]) { next = run }
            }
            guard next >= 0 else { return merged }
            merged.append(runs[next].removeLast())
        }
    }

    /// Whether the last finding of `a` comes before the last of `b` in report order; read in
    /// place.
    private static func lastComesFirst(_ a: [Finding], before b: [Finding]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in inReportOrder(a[a.count - 1], b[b.count - 1]) } }
    }

    /// Report order: by artifact, position, path, rule, then the secret's hash, which keeps
    /// apart the secrets of one rule in one value (they share the value's position and path).
    private static func inReportOrder(_ a: Finding, _ b: Finding) -> Bool {
        if a.artifact != b.artifact { return a.artifact < b.artifact }
        if a.position.byteOffset != b.position.byteOffset { return a.position.byteOffset < b.position.byteOffset }
        if a.pathText != b.pathText { return a.pathText < b.pathText }
        if a.ruleId != b.ruleId { return a.ruleId < b.ruleId }
        return (a.secretHash ?? 0) < (b.secretHash ?? 0)
    }

    /// `habiter-audit/v1␀rule␀artifact␀path␀occurrence`, hashed; `occurrences` counts the
    /// identities seen so far, `firstBlock` spares hashing the start that fingerprints share.
    private static func fingerprint(rule: String, artifact: String, path: String, occurrences: inout [FingerprintIdentity: Int],
                                    firstBlock: inout SHA256.FirstBlockCache) -> String {
        var identityBytes: [UInt8] = []
        identityBytes.reserveCapacity(32 + rule.utf8.count + artifact.utf8.count + path.utf8.count)
        identityBytes.append(contentsOf: "habiter-audit/v1\u{0}".utf8)
        for part in [rule.utf8, artifact.utf8, path.utf8] {
            identityBytes.append(contentsOf: part)
            identityBytes.append(0)
        }
        // Counted in one access to the dictionary: a read and then a store hashed and searched twice.
        var occurrence = 0
        Self.count(&occurrences[FingerprintIdentity(bytes: identityBytes), default: 0], before: &occurrence)
        identityBytes.appendDecimal(occurrence)
        return SHA256.hexDigest(bytes: identityBytes, byteCount: 16, cache: &firstBlock)
    }

    /// Adds one to `count`, giving the count before it in `before`.
    private static func count(_ count: inout Int, before: inout Int) {
        before = count
        count += 1
    }
}

/// What a fingerprint is made of, less the occurrence number: the bytes of rule, artifact and
/// path, hashed as one run of bytes (cheaper than hashing three strings).
struct FingerprintIdentity: Hashable, Sendable {
    var bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension Scanner {
    /// The findings in report order, exact duplicates dropped, fingerprints assigned
    /// (`FinalizedFindings`).
    static func finalize(_ findings: consuming [Finding]) -> [Finding] {
        FinalizedFindings(findings).findings
    }
}
