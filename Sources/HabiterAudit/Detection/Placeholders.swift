/// Recognises values that stand in for a secret rather than being one: masks (`********`,
/// `xxxx-xxxx`), templates (`${TOKEN}`, `{{ token }}`, `%s`, `<your-token>`, `[REDACTED:…]`),
/// instructions (`YOUR_API_KEY`, `changeme`), documentation examples (`…EXAMPLE`) and status
/// words about a secret (`required`, `too_short`, `expired`).
public enum Placeholders {
    static let words: Set<String> = [
        "redacted", "changeme", "change_me", "change-me", "changeit", "placeholder", "example",
        "sample", "dummy", "test", "testing", "todo", "tbd", "fixme", "secret", "password",
        "passwd", "token", "apikey", "api_key", "api-key", "none", "null", "nil", "undefined",
        "n/a", "na", "hidden", "masked", "notset", "not-set", "not_set", "unset", "default",
        "empty", "true", "false", "yes", "no", "bearer", "basic", "string", "value", "xxx",
    ]
    /// Words that describe a secret's state (validation errors, flags), not the secret.
    static let statusWords: Set<String> = [
        "required", "invalid", "missing", "mismatch", "incorrect", "wrong", "weak", "strong",
        "expired", "reset", "changed", "updated", "valid", "unknown", "pending", "set", "ok",
        "error", "failed", "success", "enabled", "disabled", "active", "inactive", "revoked",
        "granted", "denied", "present", "absent", "rotated", "hidden", "visible", "unchanged",
    ]
    /// Substrings that mark a documentation or test value.
    static let markers = ["example", "placeholder", "redacted", "changeme", "dummy", "sample"]
    /// Leading words of an instruction to the reader.
    static let instructionPrefixes = ["your", "insert", "enter", "replace", "put-", "put_", "add-your", "add_your"]

    /// True when `value` is a placeholder. Case-insensitive; surrounding whitespace ignored.
    public static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingASCIIWhitespace()
        if trimmed.isEmpty { return true }
        let lower = trimmed.lowercased()
        // An authorization scheme in front of a placeholder is still a placeholder.
        for scheme in ["bearer ", "basic ", "token "] where lower.hasPrefix(scheme) && lower.count > scheme.count {
            return isPlaceholder(String(trimmed.dropFirst(scheme.count)))
        }
        if words.contains(lower) || statusWords.contains(lower) || isIdentifierCode(trimmed) { return true }
        if isTemplate(trimmed) { return true }
        if markers.contains(where: { lower.containsText($0) }) { return true }
        if instructionPrefixes.contains(where: { lower.hasPrefix($0) }) { return true }
        let scalars = Array(trimmed.unicodeScalars)
        // One character repeated: "aaaaaaaa", "00000000".
        if scalars.count >= 3 && scalars.allSatisfy({ $0 == scalars[0] }) { return true }
        // A mask made only of mask characters.
        let maskCharacters: Set<Unicode.Scalar> = ["*", "x", "X", "\u{2022}", "#", ".", "-", "_", " "]
        if scalars.allSatisfy({ maskCharacters.contains($0) }) { return true }
        // Mostly x or *: "sk_live_xxxxxxxxxxxxxxxx", "ghp_************".
        if scalars.count >= 6 {
            let masked = scalars.filter { $0 == "x" || $0 == "X" || $0 == "*" || $0 == "\u{2022}" }.count
            if masked * 10 >= scalars.count * 6 { return true }
        }
        return false
    }

    /// A machine-readable code of short lowercase words joined by `_`, `-` or `.`: `too_short`,
    /// `password.mismatch`. Case-sensitive, so a random token is not one.
    static func isIdentifierCode(_ text: String) -> Bool {
        var sawSeparator = false
        var wordLength = 0
        for scalar in text.unicodeScalars {
            if scalar >= "a" && scalar <= "z" {
                wordLength += 1
                if wordLength > 16 { return false }
            } else if (scalar == "_" || scalar == "-" || scalar == ".") && wordLength > 0 {
                sawSeparator = true
                wordLength = 0
            } else {
                return false
            }
        }
        return sawSeparator && wordLength > 0
    }

    /// `${VAR}`, `$VAR`, `{{ … }}`, `%s`, `%(name)s`, `<…>`, `[…]`, `{name}`.
    static func isTemplate(_ s: String) -> Bool {
        if s.hasPrefix("${") && s.hasSuffix("}") { return true }
        if s.hasPrefix("{{") && s.hasSuffix("}}") { return true }
        if s.hasPrefix("<") && s.hasSuffix(">") { return true }
        if s.hasPrefix("[") && s.hasSuffix("]") { return true }
        if s == "%s" || s == "%d" || (s.hasPrefix("%(") && s.hasSuffix(")s")) { return true }
        if s.hasPrefix("{") && s.hasSuffix("}") && s.dropFirst().dropLast().allSatisfy({ $0.isLetter || $0 == "_" || $0.isNumber }) {
            return true
        }
        if s.hasPrefix("$"), s.count > 1, s.dropFirst().allSatisfy({ ($0.isUppercase || $0 == "_" || $0.isNumber) && $0.isASCII }) {
            return true
        }
        return false
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace.
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
