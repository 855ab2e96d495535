/// The content of a JSON string in blocks: its end searched for 16 bytes at a time
/// (`firstSpecialByte(in16:)`), and once the string has had an escape, its content validated 64
/// bytes at a time (`step`). JSON held in a string (a HAR body, a sync payload in a log) has `\"`
/// every few bytes, where a search for the next special byte stops every few bytes, at places a
/// branch predictor cannot learn.
///
/// A block passes only when it is plainly valid: up to its closing quote (or its end) it holds no
/// control byte, no byte outside ASCII and no escape but `\" \\ \/ \b \f \n \r \t`. Anything else
/// (`\u`, UTF-8, an error) is left to the byte loop of the caller, which validates it and knows
/// where an error lies.
public enum JSONStringBlock {
    public static let size = 64

    public enum Step: Equatable, Sendable {
        /// The string's closing quote is this many bytes into the block; the bytes before it are valid.
        case closed(at: Int)
        /// This many bytes (63 or 64) are valid and the string goes on; the next block starts at
        /// a character, never at the character an escape's backslash stands before.
        case passed(Int)
        /// The block holds a byte the caller's byte loop must read.
        case bytewise
    }

    /// Where the steps from `start` stop, in the string content at `base` whose visible bytes
    /// end at `end`: at the closing quote (`closed`), at a block the caller's byte loop must read
    /// (`bytewise`), or where fewer than 64 bytes are left. Not inlined: the caller's loop for
    /// strings without escapes keeps its registers.
    @inline(never)
    public static func scan(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> (offset: Int, closed: Bool, bytewise: Bool) {
        var i = start
        while i &+ size <= end {
            switch step(base + i) {
            case .closed(let at):
                return (i &+ at, true, false)
            case .passed(let count):
                i &+= count
            case .bytewise:
                return (i, false, true)
            }
        }
        return (i, false, false)
    }

    /// The step at `block` (which may be unaligned), 64 bytes of string content whose first
    /// byte is a character of its own: not the one an escape's backslash stands before.
    @inlinable @inline(__always)
    public static func step(_ block: UnsafeRawPointer) -> Step {
        let (c0, c1, c2, c3) = ByteMasks.quarters(block, classes16)
        let quotes = ByteMasks.bits(c0.quotes, c1.quotes, c2.quotes, c3.quotes)
        let backslashes = ByteMasks.bits(c0.backslashes, c1.backslashes, c2.backslashes, c3.backslashes)
        // Gathered only when there is one: compact JSON held in a string has none.
        let anyIrregular = unsafeBitCast(c0.irregular | c1.irregular | c2.irregular | c3.irregular, to: SIMD2<UInt64>.self)
        let irregular = anyIrregular[0] | anyIrregular[1] == 0 ? 0
            : ByteMasks.bits(c0.irregular, c1.irregular, c2.irregular, c3.irregular)
        let (escaped, escapes) = JSONStructuralScanner.escapes(backslashes: backslashes, carry: 0)
        let closing = quotes & ~escaped
        let count: Int
        if closing != 0 {
            count = closing.trailingZeroBitCount
        } else {
            // A backslash in the last byte escapes the next block's first: it starts that block.
            count = 64 &- Int(truncatingIfNeeded: escapes &>> 63)
        }
        let valid: UInt64 = count == 64 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: count)) &- 1
        if irregular & valid != 0 { return .bytewise }
        var otherEscaped = escaped & valid & ~(quotes | backslashes)
        while otherEscaped != 0 {
            let k = otherEscaped.trailingZeroBitCount
            otherEscaped &= otherEscaped &- 1
            switch block.load(fromByteOffset: k, as: UInt8.self) {
            case UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            default:
                return .bytewise
            }
        }
        return closing != 0 ? .closed(at: count) : .passed(count)
    }

    /// The offset of the first of the 16 bytes at `bytes` (which may be unaligned) that string
    /// content cannot simply pass: a quote, a backslash, a byte below 0x20 or from 0x80; nil when
    /// none is. The search for the end of a string, before any escape.
    @inlinable @inline(__always)
    public static func firstSpecialByte(in16 bytes: UnsafeRawPointer) -> Int? {
        let classes = classes16(bytes.loadUnaligned(as: SIMD16<UInt8>.self))
        let mask = ByteMasks.bits16(classes.quotes | classes.backslashes | classes.irregular)
        return mask == 0 ? nil : mask.trailingZeroBitCount
    }

    /// The offset of the first backslash of the 16 bytes at `bytes` (which may be unaligned);
    /// nil when none is. The search for the next escape while unescaping.
    @inlinable @inline(__always)
    public static func firstBackslash(in16 bytes: UnsafeRawPointer) -> Int? {
        let v = bytes.loadUnaligned(as: SIMD16<UInt8>.self)
        let mask = ByteMasks.bits16(ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\\"))))
        return mask == 0 ? nil : mask.trailingZeroBitCount
    }

    @usableFromInline
    struct Classes16 {
        @usableFromInline var quotes, backslashes, irregular: SIMD16<UInt8>

        @inlinable @inline(__always)
        init(quotes: SIMD16<UInt8>, backslashes: SIMD16<UInt8>, irregular: SIMD16<UInt8>) {
            self.quotes = quotes
            self.backslashes = backslashes
            self.irregular = irregular
        }
    }

    /// Quotes, backslashes, and bytes below 0x20 or from 0x80: as signed bytes, the ones less
    /// than 0x20 (one comparison, where SSE2 has none for unsigned bytes).
    @inlinable @inline(__always)
    static func classes16(_ v: SIMD16<UInt8>) -> Classes16 {
        Classes16(
            quotes: ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\""))),
            backslashes: ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\\"))),
            irregular: ByteMasks.bytes(unsafeBitCast(v, to: SIMD16<Int8>.self) .< SIMD16(repeating: 0x20)))
    }
}
