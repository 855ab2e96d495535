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
        var exact = EntryChains<ExactKey>(count: entries.count)
        var byDigest = EntryChains<MovedKey>(count: entries.count), byKey = EntryChains<MovedKey>(count: entries.count)
        // Last first, so that each key's chain runs in the entries' order.
        for i in entries.indices.reversed() {
            exact.prepend(i, ExactKey(rule: entries[i].ruleId, artifact: entries[i].artifact, path: entries[i].path, digest: entries[i].valueDigest))
            if let digest = entries[i].valueDigest {
                byDigest.prepend(i, MovedKey(rule: entries[i].ruleId, artifact: entries[i].artifact, mark: digest))
            } else if let key = entries[i].key {
                byKey.prepend(i, MovedKey(rule: entries[i].ruleId, artifact: entries[i].artifact, mark: key))
            }
        }
        func take<Key>(_ key: Key, from chains: EntryChains<Key>) -> Int? {
            var entry = chains.first(key)
            while entry >= 0 {
                if unused[entry] {
                    unused[entry] = false
                    return entry
                }
                entry = chains.next(entry)
            }
            return nil
        }
        // Exact matches first, so that a moved secret cannot take an entry an unmoved one needs.
        // Each finding's fields are read where it lies: `enumerated()` copied every finding.
        var matched = Array(repeating: false, count: findings.count)
        for i in findings.indices {
            matched[i] = take(ExactKey(rule: findings[i].ruleId, artifact: findings[i].artifact, path: findings[i].pathText,
                                       digest: findings[i].valueDigest), from: exact) != nil
        }
        for i in findings.indices where !matched[i] {
            if let digest = findings[i].valueDigest {
                matched[i] = take(MovedKey(rule: findings[i].ruleId, artifact: findings[i].artifact, mark: digest), from: byDigest) != nil
            } else if let key = findings[i].key {
                matched[i] = take(MovedKey(rule: findings[i].ruleId, artifact: findings[i].artifact, mark: key), from: byKey) != nil
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
    /// secret's digest. The parts hashed as they are: with the parts joined into one string for
    /// each finding and entry, and each finding copied to read them, the matching took 2.6 times
    /// the instructions (721 findings against 510 entries).
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

    /// The entries with each key, in their order, without an array for each key: the first
    /// entry with a key, and after each entry the next with the same key. An array for each key
    /// took an allocation an entry, as many as the findings a baseline accepted.
    private struct EntryChains<Key: Hashable> {
        private var heads: [Key: Int] = [:]
        private var following: [Int]

        init(count: Int) {
            heads.reserveCapacity(count)
            following = Array(repeating: -1, count: count)
        }

        /// Puts `entry`, which comes before every entry put so far, first in its key's chain.
        mutating func prepend(_ entry: Int, _ key: Key) {
            following[entry] = heads.updateValue(entry, forKey: key) ?? -1
        }

        /// The first entry with `key`, or -1.
        func first(_ key: Key) -> Int { heads[key] ?? -1 }

        /// The entry after `entry` with the same key, or -1.
        func next(_ entry: Int) -> Int { following[entry] }
    }
}
