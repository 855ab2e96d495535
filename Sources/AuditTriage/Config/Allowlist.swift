import AuditCore

/// Accepted findings, each with a reason and an optional expiry date (`.habiter-audit.json`).
public struct AllowlistEntry: Sendable, Equatable {
    /// The entry's place in the file, from 1, for messages.
    public var number: Int
    /// A rule id, or a glob over rule ids (`secret.*`).
    public var rule: Glob?
    /// A glob over input paths, relative to the configuration file's directory.
    public var path: Glob?
    /// The finding's key (object key, header, parameter, entity id).
    public var key: String?
    public var fingerprint: String?
    public var reason: String
    /// The last day the entry applies, `YYYY-MM-DD`.
    public var expires: String?

    /// Whether the entry no longer applies on `today` (`YYYY-MM-DD`: the dates compare as text).
    public func isExpired(today: String) -> Bool {
        expires.map { $0 < today } ?? false
    }

    /// Whether the entry accepts `finding`, whose input is `relativePath` from the
    /// configuration's directory (nil when it is outside: then no path glob matches it).
    public func matches(_ finding: Finding, relativePath: String?) -> Bool {
        if let rule, !rule.matches(finding.ruleId) { return false }
        if let path, !(relativePath.map(path.matches) ?? false) { return false }
        if let key, finding.key != key { return false }
        if let fingerprint, finding.fingerprint != fingerprint { return false }
        return true
    }
}

/// The allowlist of a configuration, applied to a scan's findings.
public struct Allowlist: Sendable, Equatable {
    public var entries: [AllowlistEntry]
    /// The directory entries' paths are relative to (absolute).
    public var directory: String

    /// Suppresses the findings an unexpired entry accepts; returns a notice for each expired
    /// entry that would have accepted one (it fails the gate again, and the report says why).
    public func apply(to findings: inout [Finding], today: String, currentDirectory: String) -> [String] {
        var notices: [String] = []
        var expiredUsed = Set<Int>()
        for i in findings.indices {
            let relative = Allowlist.relativePath(findings[i].artifact, from: directory, currentDirectory: currentDirectory)
            for entry in entries where entry.matches(findings[i], relativePath: relative) {
                if entry.isExpired(today: today) {
                    expiredUsed.insert(entry.number)
                    continue
                }
                if findings[i].suppression == nil {
                    findings[i].suppression = Suppression(source: .allowlist, justification: entry.reason)
                }
                break
            }
        }
        for entry in entries where expiredUsed.contains(entry.number) {
            notices.append("allowlist entry \(entry.number) (\(entry.reason)) expired on \(entry.expires!): it no longer accepts its findings")
        }
        return notices
    }

    /// `artifact` (as given: relative to the working directory, or absolute) relative to
    /// `directory`, or nil when it is not inside it (or is stdin).
    static func relativePath(_ artifact: String, from directory: String, currentDirectory: String) -> String? {
        if artifact == "-" { return nil }
        var absolute = artifact.hasPrefix("/") ? artifact : currentDirectory + "/" + artifact
        absolute = absolute.replacingOccurrences(of: "/./", with: "/")
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : nil
    }
}
