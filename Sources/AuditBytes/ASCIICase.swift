/// ASCII case folding of one byte, a byte beyond ASCII left as it is: the one fold the keyword
/// prefilter, the literals it looks for and a pattern's keyword reach must agree on (a keyword
/// folded otherwise is never found as written).
public enum ASCIICase {
    @inlinable @inline(__always)
    public static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// The upper case of an ASCII letter, any other byte left as it is.
    @inlinable @inline(__always)
    public static func upper(_ b: UInt8) -> UInt8 { b &- 0x61 < 26 ? b & ~0x20 : b }
}
