/// Byte tests on eight bytes at once ("SIMD within a register"). Each returns a word whose high
/// bit is set in some byte when, and only when, some byte of `w` passes the test (bits above the
/// first passing byte may be set spuriously, so use the result only as "any byte passes" or, with
/// `firstMarked`, "which byte passes first").
public enum SWAR {
    /// The index (in memory order, little-endian) of the first byte whose high bit is set in
    /// `marks`, or nil when none is: exact for the tests below, whose spurious bits lie only
    /// above a byte that truly passes.
    @inline(__always)
    public static func firstMarked(_ marks: UInt64) -> Int? {
        marks == 0 ? nil : marks.trailingZeroBitCount &>> 3
    }

    public static let ones: UInt64 = 0x0101_0101_0101_0101
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A byte of `w` equals `byte`.
    @inline(__always)
    public static func bytesEqual(_ w: UInt64, _ byte: UInt8) -> UInt64 {
        let x = w ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x
    }

    /// The high bit of exactly the bytes of `w` (all below 0x80) that equal `byte`, so that
    /// `nonzeroBitCount` counts them.
    @inline(__always)
    public static func exactBytesEqual(_ w: UInt64, _ byte: UInt8) -> UInt64 {
        let x = w ^ (ones &* UInt64(byte))
        let low7 = ones &* 0x7F
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// The high bit of exactly the bytes of `w` that are ASCII hex digits (`0-9`, `a-f`, `A-F`).
    @inline(__always)
    public static func hexDigits(_ w: UInt64) -> UInt64 {
        let low7 = w & (ones &* 0x7F)
        let lower = low7 | (ones &* 0x20)
        return (exactInRange(low7, 0x30, 0x39) | exactInRange(lower, 0x61, 0x66)) & ~w & highBits
    }

    /// The high bit of exactly the bytes of `x` (all below 0x80) from `low` to `high`: adding
    /// `0x80 - low` sets a byte's high bit when it is at least `low`, adding `0x7F - high` when it
    /// is above `high`, and neither sum carries into the next byte.
    @inline(__always)
    public static func exactInRange(_ x: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        (x &+ ones &* UInt64(0x80 - low)) & ~(x &+ ones &* UInt64(0x7F - high)) & highBits
    }

    /// A byte of `w` is below `limit` (at most 0x80), counting only bytes below 0x80.
    @inline(__always)
    public static func bytesBelow(_ w: UInt64, _ limit: UInt8) -> UInt64 {
        (w &- ones &* UInt64(limit)) & ~w
    }
}
