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
        var exact: [ExactKey: [Int]] = [:], byDigest: [MovedKey: [Int]] = [:], byKey: [MovedKey: [Int]] = [:]
        exact.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            exact[ExactKey(rule: entry.ruleId, artifact: entry.artifact, path: entry.path, digest: entry.valueDigest), default: []].append(i)
            if let digest = entry.valueDigest {
                byDigest[MovedKey(rule: entry.ruleId, artifact: entry.artifact, mark: digest), default: []].append(i)
            } else if let key = entry.key {
                byKey[MovedKey(rule: entry.ruleId, artifact: entry.artifact, mark: key), default: []].append(i)
            }
        }
        func take(_ candidates: [Int]?) -> Int? {
            candidates?.first { unused[$0] }.map { unused[$0] = false; return $0 }
        }
        // Each finding's fields read where it lies: `enumerated()` copied every finding, all its
        // strings retained and released.
        // Exact matches first, so that a moved secret cannot take an entry an unmoved one needs.
        var matched = Array(repeating: false, count: findings.count)
        for i in findings.indices {
            matched[i] = take(exact[ExactKey(rule: findings[i].ruleId, artifact: findings[i].artifact, path: findings[i].pathText,
                                              digest: findings[i].valueDigest)]) != nil
        }
        for i in findings.indices where !matched[i] {
            if let digest = findings[i].valueDigest {
                matched[i] = take(byDigest[MovedKey(rule: findings[i].ruleId, artifact: findings[i].artifact, mark: digest)]) != nil
            } else if let key = findings[i].key {
                matched[i] = take(byKey[MovedKey(rule: findings[i].ruleId, artifact: findings[i].artifact, mark: key)]) != nil
            }
        }
        let justification = "accepted in the baseline \(source)"
        for i in findings.indices {
            findings[i].baselineState = matched[i] ? .unchanged : .new
            if matched[i] && findings[i].suppression == nil {
                findings[i].suppression = Suppression(source: .baseline, justification: justification)
            }
        }
        return entries.indices.filter { unused[$0] }.map { entries[$0] }
    }

    /// What an entry and a finding in the same place share: rule, input, layered path and the
    /// secret's digest. The parts hashed as they are: joined into one string for each finding and
    /// entry, the matching took 2.6 times the instructions (721 findings against 510 entries).
    private struct ExactKey: Hashable {
        var rule: String
        var artifact: String
        var path: String
        var digest: String?
    }

    /// What an entry and a finding that moved share: rule, input, and the secret's digest (or,
    /// without a secret, the key).
    private struct MovedKey: Hashable {
        var rule: String
        var artifact: String
        var mark: String
    }
}
