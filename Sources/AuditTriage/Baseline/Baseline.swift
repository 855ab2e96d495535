import AuditCore

/// Findings accepted at one point in time (`habiter-audit baseline`), so that a gate fails only
/// on what is new. Entries are matched on rule, input and layered path, not lines: re-indenting
/// or shifting an input keeps them; a secret is also matched by its keyed digest when it moved
/// (reordered keys or entries), and a changed value is a new finding.
public struct Baseline: Sendable, Equatable {
    public static let formatVersion = 1
    public var salt: [UInt8]
    public var entries: [BaselineEntry]

    public init(salt: [UInt8], entries: [BaselineEntry]) {
        self.salt = salt
        self.entries = entries
    }

    /// A baseline of `findings`, which must come from a scan with `ValueDigester(salt: salt)`.
    public init(salt: [UInt8], findings: [Finding]) {
        self.salt = salt
        entries = findings.map {
            BaselineEntry(ruleId: $0.ruleId, artifact: $0.artifact, path: $0.pathText, key: $0.key,
                  fingerprint: $0.fingerprint, valueDigest: $0.valueDigest, line: $0.position.line)
        }
    }

    /// Marks each finding new or unchanged (and suppressed by the baseline, naming `source`), and
    /// returns the entries no finding matched: fixed, or gone with their input.
    public func apply(to findings: inout [Finding], source: String) -> [BaselineEntry] {
        var unused = Array(repeating: true, count: entries.count)
        var exact: [String: [Int]] = [:], byDigest: [String: [Int]] = [:], byKey: [String: [Int]] = [:]
        for (i, entry) in entries.enumerated() {
            exact[Baseline.key(entry.ruleId, entry.artifact, entry.path, entry.valueDigest), default: []].append(i)
            if let digest = entry.valueDigest {
                byDigest[Baseline.key(entry.ruleId, entry.artifact, digest), default: []].append(i)
            } else if let key = entry.key {
                byKey[Baseline.key(entry.ruleId, entry.artifact, key), default: []].append(i)
            }
        }
        func take(_ candidates: [Int]?) -> Int? {
            candidates?.first { unused[$0] }.map { unused[$0] = false; return $0 }
        }
        // Exact matches first, so that a moved secret cannot take an entry an unmoved one needs.
        var matched = Array(repeating: false, count: findings.count)
        for (i, finding) in findings.enumerated() {
            matched[i] = take(exact[Baseline.key(finding.ruleId, finding.artifact, finding.pathText, finding.valueDigest)]) != nil
        }
        for (i, finding) in findings.enumerated() where !matched[i] {
            if let digest = finding.valueDigest {
                matched[i] = take(byDigest[Baseline.key(finding.ruleId, finding.artifact, digest)]) != nil
            } else if let key = finding.key {
                matched[i] = take(byKey[Baseline.key(finding.ruleId, finding.artifact, key)]) != nil
            }
        }
        for i in findings.indices {
            findings[i].baselineState = matched[i] ? .unchanged : .new
            if matched[i] && findings[i].suppression == nil {
                findings[i].suppression = Suppression(source: .baseline, justification: "accepted in the baseline \(source)")
            }
        }
        return entries.indices.filter { unused[$0] }.map { entries[$0] }
    }

    private static func key(_ parts: String?...) -> String {
        parts.map { $0 ?? "\u{1}" }.joined(separator: "\u{0}")
    }
}
