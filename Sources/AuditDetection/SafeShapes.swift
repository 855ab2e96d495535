/// Shapes of values that are never secrets in this domain.
public enum SafeShapes {
    /// A UUID (`8-4-4-4-12` hex digits, any version) or a ULID (26 Crockford base32 characters,
    /// the first at most `7`): how analytics and SDKs name a session, an install or an event.
    public static func isIdentifier(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func isHex(_ b: UInt8) -> Bool { b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 6 }
        if text.count == 36 {
            for (i, b) in text.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    if b != UInt8(ascii: "-") { return false }
                } else if !isHex(b) {
                    return false
                }
            }
            return true
        }
        guard text.count == 26, let first = text.first, first &- 0x30 < 8 else { return false }
        // Crockford's base32: digits and letters but I, L, O and U, either case.
        return text.allSatisfy { b in
            let upper = b &- 0x61 < 26 ? b - 0x20 : b
            return upper &- 0x30 < 10 || (upper &- 0x41 < 26 && !"ILOU".utf8.contains(upper))
        }
    }

    /// An ISO 8601 date, time or date-time (`2026-11-30`, `07:30`, `2026-11-30T07:30:00.000Z`),
    /// or an RFC 1123 HTTP date.
    public static func isDateOrTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < bytes.count && bytes[i] == c.asciiValue! }
        // HH:mm or HH:mm:ss
        if bytes.count == 5 || bytes.count == 8, digits(0..<2), at(2, ":"), digits(3..<5) {
            return bytes.count == 5 || (at(5, ":") && digits(6..<8))
        }
        // YYYY-MM-DD, optionally followed by T or a space and a time with zone.
        guard digits(0..<4), at(4, "-"), digits(5..<7), at(7, "-"), digits(8..<10) else {
            return isHTTPDate(text)
        }
        if bytes.count == 10 { return true }
        guard at(10, "T") || at(10, " "), digits(11..<13), at(13, ":"), digits(14..<16) else { return false }
        let rest = bytes[16...]
        return rest.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ":.+-Z".utf8.contains($0) }
    }

    /// An absolute file path (`/data/user/0/app.habiter/files`, `~/Downloads`): two or more
    /// segments, no spaces.
    public static func isFilePath(_ text: String) -> Bool {
        guard text.hasPrefix("/") || text.hasPrefix("~/"), !text.utf8.contains(0x20), !text.hasPrefix("//") else { return false }
        return text.split(separator: "/").count >= 2
    }

    /// A token its vendor makes public by design: Mapbox public access tokens (`pk.eyJ…`; secret
    /// ones are `sk.`), Stripe publishable keys (`pk_live_…`, `pk_test_…`).
    public static func isPublicToken(_ text: String) -> Bool {
        text.hasPrefix("pk.eyJ") || text.hasPrefix("pk_live_") || text.hasPrefix("pk_test_")
    }

    /// `Sun, 30 Nov 2026 07:30:00 GMT`.
    static func isHTTPDate(_ text: String) -> Bool {
        guard text.hasSuffix(" GMT") else { return false }
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" else { return false }
        return isDateOrTime(String(parts[4]))
    }
}
