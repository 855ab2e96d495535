/// Turns matched values into what a report may show: at most a public prefix of up to four
/// characters (`ghp_`) and the length. Nothing that lets a reader recover or confirm a value.
public enum Redaction {
    /// The most characters of a match a report may show.
    public static let maximumPrefix = 4

    /// `ghp_…, 40 characters` for a rule with a public prefix, else `40 characters`.
    public static func preview(_ secret: UnsafeRawBufferPointer, publicPrefix: Int) -> String {
        let length = characterCount(secret)
        let shown = min(publicPrefix, maximumPrefix, secret.count)
        if shown > 0, secret[0..<shown].allSatisfy({ $0 >= 0x21 && $0 < 0x7F }) {
            return String(decoding: secret[0..<shown], as: UTF8.self) + "…, \(length) characters"
        }
        return "\(length) characters"
    }

    /// "a 9-character value", for values found by their name.
    public static func describeValue(length: Int) -> String {
        length < shortDescriptions.count ? shortDescriptions[length] : formatDescription(length: length)
    }

    /// The descriptions of the lengths most values have, made once.
    private static let shortDescriptions = (0..<256).map(formatDescription)

    private static func formatDescription(length: Int) -> String {
        let digits = String(length)
        let article = digits.hasPrefix("8") || digits == "11" || digits == "18" ? "an" : "a"
        return "\(article) \(length)-character value"
    }

    /// Characters (Unicode scalars) in UTF-8 bytes.
    public static func characterCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}

extension Redaction {
    /// Stands in for a key that is itself a secret.
    public static let maskedKey = "[REDACTED]"
}
