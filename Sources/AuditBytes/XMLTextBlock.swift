/// The character data of an XML export in blocks of 64 bytes: where the bytes lie that the prefs
/// reader looks at one by one ('&', '<', ']', a control byte, a byte outside ASCII), one bit
/// each, so that the runs between them are passed without a loop over words. JSON held in a
/// value has `&quot;` every 16 bytes or so, where a search for the next special byte stops at
/// every reference and starts again after it.
public enum XMLTextBlock {
    public static let size = 64

    /// Bit k set when byte k of the 64 bytes at `block` (which may be unaligned) is '&', '<',
    /// ']', below 0x20 or at least 0x80.
    @inlinable @inline(__always)
    public static func specials(_ block: UnsafeRawPointer) -> UInt64 {
        let (c0, c1, c2, c3) = ByteMasks.quarters(block, specials16)
        return ByteMasks.bits(c0, c1, c2, c3)
    }

    /// The special bytes of 16: below 0x20 or from 0x80 are the signed bytes less than 0x20 (one
    /// comparison, where SSE2 has none for unsigned bytes).
    @inlinable @inline(__always)
    static func specials16(_ v: SIMD16<UInt8>) -> SIMD16<UInt8> {
        ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "&"))) | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "<")))
            | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "]")))
            | ByteMasks.bytes(unsafeBitCast(v, to: SIMD16<Int8>.self) .< SIMD16(repeating: 0x20))
    }
}
