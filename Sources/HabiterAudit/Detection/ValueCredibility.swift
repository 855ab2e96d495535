/// Decides whether a value under a sensitive-looking name is credible secret material.
///
/// Credible: a string of at least four characters that is not a placeholder, not a label or
/// prompt that repeats the name ("Enter your password"), and not a bare URL without credentials.
/// Empty, boolean, numeric and null values are never credible; in `sync` context they are still
/// policy findings, because the contract fails closed on the name alone.
public enum ValueCredibility {
    public static let minimumLength = 4

    public static func isCredible(_ value: String, nameWords: [String]) -> Bool {
        let trimmed = value.trimmingASCIIWhitespace()
        if trimmed.unicodeScalars.count < minimumLength { return false }
        if Placeholders.isPlaceholder(trimmed) { return false }
        let lower = trimmed.lowercased()
        let hasWhitespace = lower.contains(" ")
        if hasWhitespace {
            // A label or prompt: prose that names the thing it asks for, or ends like a sentence.
            if nameWords.contains(where: { lower.contains($0) }) { return false }
            if let last = lower.last, ".?!:".contains(last), lower.split(separator: " ").count >= 3 { return false }
        }
        if (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !lower.contains("@") && !lower.contains("?") {
            return false
        }
        return true
    }
}
