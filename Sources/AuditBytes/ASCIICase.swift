/// ASCII case folding of one byte, a byte beyond ASCII left as it is, and whether a byte is an
/// ASCII letter or digit. The folding is the one the keyword prefilter, the literals it looks for
/// and a pattern's keyword reach must agree on (a keyword folded otherwise is never found as
/// written).
public enum ASCIICase {
    @inlinable @inline(__always)
    public static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// The upper case of an ASCII letter, any other byte left as it is.
    @inlinable @inline(__always)
    public static func upper(_ b: UInt8) -> UInt8 { b &- 0x61 < 26 ? b & ~0x20 : b }

    /// Whether the byte is an ASCII letter (either case) or digit.
    @inlinable @inline(__always)
    public static func isLetterOrDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 26 }
}
