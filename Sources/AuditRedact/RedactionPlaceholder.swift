import AuditCore

/// The text that stands in for a redacted value: `[REDACTED:github-token]`, the rule id without
/// its first component (`secret.`, `name.`, `inventory.`). The scanner reads it as a placeholder
/// (a bracketed template that says "redacted"), so a redacted file scans clean and a second
/// redaction changes nothing.
public enum RedactionPlaceholder {
    /// The placeholder for a finding of rule `ruleId`.
    public static func text(forRule ruleId: String) -> String {
        let label = ruleId.split(separator: ".", maxSplits: 1).last.map(String.init) ?? ruleId
        return "[REDACTED:\(label)]"
    }

    static func bytes(forRule ruleId: String) -> [UInt8] {
        Array(text(forRule: ruleId).utf8)
    }

    /// The placeholder for a whole JSON Web Token, whatever rule found it or found something in it.
    static let jwtRule = SpecialRule.jwt.rawValue

    /// Whether `value` is exactly a placeholder this tool writes.
    static func isPlaceholder<C: BidirectionalCollection>(_ value: C) -> Bool where C.Element == UInt8 {
        let prefix = Array("[REDACTED:".utf8)
        guard value.count > prefix.count + 1, value.starts(with: prefix), value.last == UInt8(ascii: "]") else { return false }
        return !value.dropFirst(prefix.count).dropLast().contains { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "[") || $0 <= 0x20 }
    }
}
