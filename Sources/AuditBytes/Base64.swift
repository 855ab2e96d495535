#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Strict base64 decoding (RFC 4648), standard or URL-safe alphabet, padding optional.
public enum Base64 {
    public enum Alphabet: Sendable { case standard, url }

    /// Decodes `text`, or returns nil when it holds a character outside the alphabet, a bad
    /// length, misplaced padding or non-zero trailing bits. `ignoringLineBreaks` skips CR and LF
    /// (MIME and Android's `Base64.DEFAULT` wrap lines).
    public static func decode<C: Collection>(_ text: C, alphabet: Alphabet, ignoringLineBreaks: Bool = false) -> [UInt8]? where C.Element == UInt8 {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0), alphabet: alphabet, ignoringLineBreaks: ignoringLineBreaks) }) {
            return decoded
        }
        return Array(text).withUnsafeBytes { decode($0, alphabet: alphabet, ignoringLineBreaks: ignoringLineBreaks) }
    }

    /// The same, on bytes in memory: a table lookup per character, the output written in place.
    public static func decode(_ text: UnsafeRawBufferPointer, alphabet: Alphabet, ignoringLineBreaks: Bool = false) -> [UInt8]? {
        var padding = 0
        var symbols = 0
        var bits = BitAccumulator()
        var valid = true
        let values = values(in: alphabet)
        let output = [UInt8](uninitializedCapacity: text.count * 3 / 4 + 1) { out in
            // Whole groups of four symbols, three bytes each, while nothing else comes.
            var count = 0
            var i = 0
            decodeGroups(text, values, from: &i, into: out, count: &count)
            symbols = i
            for c in UnsafeRawBufferPointer(rebasing: text[i...]) {
                let v = values[Int(c)]
                if v < 64 {
                    if padding > 0 { valid = false; break }
                    symbols += 1
                    if let byte = bits.add(v) {
                        out[count] = byte
                        count += 1
                    }
                } else if c == UInt8(ascii: "=") {
                    padding += 1
                } else if !(ignoringLineBreaks && (c == 0x0A || c == 0x0D)) {
                    valid = false
                    break
                }
            }
            return count
        }
        guard valid, symbols % 4 != 1, padding <= 2, padding == 0 || (symbols + padding) % 4 == 0, bits.leftoverIsZero else { return nil }
        return output
    }

    /// Decodes the symbols of `text` into `out` until it is full or the text ends, skipping
    /// every other byte (padding, line breaks); returns the number of bytes written. For text
    /// already checked: it validates nothing.
    public static func decodePrefix(_ text: UnsafeRawBufferPointer, alphabet: Alphabet, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let values = values(in: alphabet)
        var count = 0
        var i = 0
        decodeGroups(text, values, from: &i, into: out, count: &count)
        var bits = BitAccumulator()
        while i < text.count && count < out.count {
            let v = values[Int(text[i])]
            i &+= 1
            guard v < 64, let byte = bits.add(v) else { continue }
            out[count] = byte
            count += 1
        }
        return count
    }

    /// Symbols' six bits gathered into bytes, one symbol at a time (where whole groups of four
    /// cannot be decoded at once).
    public struct BitAccumulator {
        private var pending: UInt32 = 0
        private var count: UInt32 = 0

        public init() {}

        /// Adds the six bits of symbol value `v` (below 64); returns the byte they complete, if any.
        @inline(__always)
        public mutating func add(_ v: UInt8) -> UInt8? {
            pending = pending << 6 | UInt32(v)
            count += 6
            guard count >= 8 else { return nil }
            count -= 8
            let byte = UInt8(truncatingIfNeeded: pending >> count)
            pending &= (1 << count) - 1
            return byte
        }

        /// Whether the bits left over, that complete no byte, are all zero (canonical base64).
        var leftoverIsZero: Bool { pending == 0 }
    }

    /// Decodes whole groups of four symbols of `text` from `i` into `out` from `count`, three
    /// bytes each, while the next four bytes are symbols and their three bytes fit; moves `i` and
    /// `count` past them.
    @inline(__always)
    private static func decodeGroups(_ text: UnsafeRawBufferPointer, _ values: UnsafeBufferPointer<UInt8>, from i: inout Int,
                                     into out: UnsafeMutableBufferPointer<UInt8>, count: inout Int) {
        // Sixteen symbols at a time while they are all symbols and 16 bytes fit (the last of the
        // four stores writes one byte past the twelve).
        let (c62, c63) = values[Int(UInt8(ascii: "+"))] == 62 ? (UInt8(ascii: "+"), UInt8(ascii: "/")) : (UInt8(ascii: "-"), UInt8(ascii: "_"))
        while i &+ 16 <= text.count && count &+ 16 <= out.count,
              decodeBlock16(text.baseAddress! + i, sixtyTwo: c62, sixtyThree: c63, into: UnsafeMutableRawPointer(out.baseAddress! + count)) {
            i &+= 16
            count &+= 12
        }
        while i &+ 4 <= text.count && count &+ 3 <= out.count {
            let a = values[Int(text[i])], b = values[Int(text[i &+ 1])]
            let c = values[Int(text[i &+ 2])], d = values[Int(text[i &+ 3])]
            guard (a | b | c | d) < 64 else { break }
            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            out[count] = UInt8(truncatingIfNeeded: group >> 16)
            out[count &+ 1] = UInt8(truncatingIfNeeded: group >> 8)
            out[count &+ 2] = UInt8(truncatingIfNeeded: group)
            count &+= 3
            i &+= 4
        }
    }

    /// Decodes the 16 symbols at `text` into 12 bytes at `out` (writing 13: the last is scratch),
    /// or returns false, writing nothing, when one of them is not a symbol of the alphabet whose
    /// values 62 and 63 are `c62` and `c63` (`+ /` or `- _`). SSE2-wide, without SSSE3's byte
    /// shuffle: each symbol's value from its range; pairs of values joined by shifts of 16-bit
    /// lanes and pairs of those by `pmaddwd` (shifts of 32-bit lanes through Swift's SIMD types
    /// became scalar code); each group's three bytes put in order and stored by an overlapping
    /// 32-bit store. A table lookup a symbol took about six instructions. Elsewhere than x86-64
    /// it declines, and the groups of four decode the text.
    @inline(__always)
    static func decodeBlock16(_ text: UnsafeRawPointer, sixtyTwo c62: UInt8, sixtyThree c63: UInt8, into out: UnsafeMutableRawPointer) -> Bool {
        #if arch(x86_64)
        let v = text.loadUnaligned(as: SIMD16<UInt8>.self)
        // Signed: the bytes from 0x80 are negative, below every range here.
        let signed = unsafeBitCast(v, to: SIMD16<Int8>.self)
        let upper = ByteMasks.bytes(signed .> SIMD16(repeating: 0x40)) & ByteMasks.bytes(signed .< SIMD16(repeating: 0x5B))
        let lower = ByteMasks.bytes(signed .> SIMD16(repeating: 0x60)) & ByteMasks.bytes(signed .< SIMD16(repeating: 0x7B))
        let digit = ByteMasks.bytes(signed .> SIMD16(repeating: 0x2F)) & ByteMasks.bytes(signed .< SIMD16(repeating: 0x3A))
        let sixtyTwo = ByteMasks.bytes(v .== SIMD16(repeating: c62)), sixtyThree = ByteMasks.bytes(v .== SIMD16(repeating: c63))
        guard ByteMasks.bits16(upper | lower | digit | sixtyTwo | sixtyThree) == 0xFFFF else { return false }
        let value = (upper & (v &- 65)) | (lower & (v &- 71)) | (digit & (v &+ 4))
            | (sixtyTwo & SIMD16(repeating: 62)) | (sixtyThree & SIMD16(repeating: 63))
        // Two values in each 16-bit lane (the first in the low byte) as 12 bits, the first on top;
        // two of those in each 32-bit lane as 24, multiplied by 4096 and 1 and added.
        let pairs = unsafeBitCast(value, to: SIMD8<UInt16>.self)
        let twelve = (pairs & 0x00FF) &<< 6 | pairs &>> 8
        let group = _mm_madd_epi16(unsafeBitCast(twelve, to: __m128i.self), _mm_set1_epi32(0x0001_1000))
        // Its three bytes in order, the first in the low byte: the outer two swapped.
        let low = _mm_set1_epi32(0xFF)
        let ordered = _mm_or_si128(_mm_or_si128(_mm_and_si128(_mm_srli_epi32(group, 16), low), _mm_and_si128(group, _mm_set1_epi32(0xFF00))),
                                   _mm_slli_epi32(_mm_and_si128(group, low), 16))
        let bytes = unsafeBitCast(ordered, to: SIMD4<UInt32>.self)
        out.storeBytes(of: bytes[0], as: UInt32.self)
        out.storeBytes(of: bytes[1], toByteOffset: 3, as: UInt32.self)
        out.storeBytes(of: bytes[2], toByteOffset: 6, as: UInt32.self)
        out.storeBytes(of: bytes[3], toByteOffset: 9, as: UInt32.self)
        return true
        #else
        return false
        #endif
    }

    /// The symbols among the 16 bytes at `bytes` (which may be unaligned), one bit a byte (bit i
    /// for byte i): `symbols` of either alphabet, and of those the ones only `standard` has
    /// (`+ /`) and only `url` has (`- _`). A first pass over long text, 16 bytes at a time.
    @inlinable @inline(__always)
    public static func symbolMasks16(_ bytes: UnsafeRawPointer) -> (symbols: UInt64, standardOnly: UInt64, urlOnly: UInt64) {
        let v = bytes.loadUnaligned(as: SIMD16<UInt8>.self)
        // Signed: the bytes from 0x80 are negative, below every range here.
        let signed = unsafeBitCast(v, to: SIMD16<Int8>.self)
        let letter = unsafeBitCast(v | SIMD16(repeating: 0x20), to: SIMD16<Int8>.self)
        let letters = ByteMasks.bytes(letter .> SIMD16(repeating: 0x60)) & ByteMasks.bytes(letter .< SIMD16(repeating: 0x7B))
        let digits = ByteMasks.bytes(signed .> SIMD16(repeating: 0x2F)) & ByteMasks.bytes(signed .< SIMD16(repeating: 0x3A))
        let standardOnly = ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "+")))
            | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "/")))
        let urlOnly = ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "-")))
            | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "_")))
        let symbols = letters | digits | standardOnly | urlOnly
        return (ByteMasks.bits16(symbols), ByteMasks.bits16(standardOnly), ByteMasks.bits16(urlOnly))
    }

    /// Each byte's value in `alphabet` (in either alphabet when it is nil), or 0xFF.
    @inline(__always)
    public static func values(in alphabet: Alphabet?) -> UnsafeBufferPointer<UInt8> {
        switch alphabet {
        case .standard?: standardValues.bytes
        case .url?: urlValues.bytes
        case nil: eitherValues.bytes
        }
    }

    private static let standardValues = ConstantByteTable((0...255).map { value(UInt8($0), .standard) ?? 0xFF })
    private static let urlValues = ConstantByteTable((0...255).map { value(UInt8($0), .url) ?? 0xFF })
    private static let eitherValues = ConstantByteTable((0...255).map { value(UInt8($0), .standard) ?? value(UInt8($0), .url) ?? 0xFF })

    @inline(__always)
    public static func value(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
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
