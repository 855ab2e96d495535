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
        let output = [UInt8](unsafeUninitializedCapacity: text.count * 3 / 4 + 1) { out, count in
            // Whole groups of four symbols, three bytes each, while nothing else comes.
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
