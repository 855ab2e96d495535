/// Strict base64 decoding (RFC 4648), standard or URL-safe alphabet, padding optional.
public enum Base64 {
    public enum Alphabet: Sendable { case standard, url }

    /// Decodes `text`, or returns nil when it holds a character outside the alphabet, a bad
    /// length, misplaced padding or non-zero trailing bits. `ignoringLineBreaks` skips CR and LF
    /// (MIME and Android's `Base64.DEFAULT` wrap lines).
    public static func decode<C: Collection>(_ text: C, alphabet: Alphabet, ignoringLineBreaks: Bool = false) -> [UInt8]? where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        var symbols = 0
        for c in text {
            if ignoringLineBreaks && (c == 0x0A || c == 0x0D) { continue }
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            if padding > 0 { return nil }
            guard let v = value(c, alphabet) else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            symbols += 1
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        if symbols % 4 == 1 { return nil }
        if padding > 0 && (symbols + padding) % 4 != 0 { return nil }
        if padding > 2 { return nil }
        if accumulator != 0 { return nil }
        return output
    }

    @inline(__always)
    static func value(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "/") where alphabet == .standard: return 63
        case UInt8(ascii: "-") where alphabet == .url: return 62
        case UInt8(ascii: "_") where alphabet == .url: return 63
        default: return nil
        }
    }
}
