/// The classes of 64 bytes of JSON that a structural index is built from (simdjson's stage 1),
/// one bit per byte: bit i is byte i of the block. They say nothing of strings yet:
/// `JSONStructuralScanner` works out which quotes are escaped and which bytes lie in strings.
public struct JSONByteClasses: Equatable, Sendable {
    /// `"`, escaped or not.
    public var quotes: UInt64
    /// `\`.
    public var backslashes: UInt64
    /// `{ } [ ] , :`, in strings too.
    public var structurals: UInt64
    /// `\n`, in strings too.
    public var lineFeeds: UInt64

    @inlinable
    public init(quotes: UInt64, backslashes: UInt64, structurals: UInt64, lineFeeds: UInt64) {
        self.quotes = quotes
        self.backslashes = backslashes
        self.structurals = structurals
        self.lineFeeds = lineFeeds
    }
}

/// Classifies 64 bytes at a time with SSE2-wide vectors (`SIMD16<UInt8>`), or a byte at a time
/// (`classifyScalar`, the reference the tests hold the vector code to).
///
/// The toolchain's default x86-64 target is baseline SSE2, and Swift has no per-function target
/// attribute, so 32-byte AVX2 lanes would take unsafe flags; and some `SIMD32`/`SIMD64`
/// operations (`&`, `replacing`) still become byte loops where `SIMD16` ones do not. The
/// comparisons become bit masks through `ByteMasks`.
public enum StructuralClassifier {
    public static let blockSize = 64

    /// The classes of the 64 bytes at `block` (which may be unaligned).
    @inlinable @inline(__always)
    public static func classify(_ block: UnsafeRawPointer) -> JSONByteClasses {
        let (c0, c1, c2, c3) = ByteMasks.quarters(block, classes16)
        return JSONByteClasses(
            quotes: ByteMasks.bits(c0.quotes, c1.quotes, c2.quotes, c3.quotes),
            backslashes: ByteMasks.bits(c0.backslashes, c1.backslashes, c2.backslashes, c3.backslashes),
            structurals: ByteMasks.bits(c0.structurals, c1.structurals, c2.structurals, c3.structurals),
            lineFeeds: ByteMasks.bits(c0.lineFeeds, c1.lineFeeds, c2.lineFeeds, c3.lineFeeds)
        )
    }

    /// The classes of fewer than 64 bytes, as if spaces (no class) followed them to 64.
    @inlinable
    public static func classify(partial bytes: UnsafeRawBufferPointer) -> JSONByteClasses {
        precondition(bytes.count <= blockSize, "a partial block holds at most 64 bytes")
        var padded = SIMD64<UInt8>(repeating: UInt8(ascii: " "))
        return withUnsafeMutableBytes(of: &padded) { block in
            if bytes.count > 0 { block.copyMemory(from: bytes) }
            return classify(UnsafeRawPointer(block.baseAddress!))
        }
    }

    /// The same classes, a byte at a time.
    @inlinable
    public static func classifyScalar(_ block: UnsafeRawPointer) -> JSONByteClasses {
        var classes = JSONByteClasses(quotes: 0, backslashes: 0, structurals: 0, lineFeeds: 0)
        for i in 0..<blockSize {
            let bit: UInt64 = 1 &<< UInt64(i)
            switch block.load(fromByteOffset: i, as: UInt8.self) {
            case UInt8(ascii: "\""): classes.quotes |= bit
            case UInt8(ascii: "\\"): classes.backslashes |= bit
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
                classes.structurals |= bit
            case UInt8(ascii: "\n"): classes.lineFeeds |= bit
            default: break
            }
        }
        return classes
    }

    /// The classes of 16 bytes as comparison results: 0xFF for a byte of the class, else 0x00.
    /// `[` and `]` are `{` and `}` without bit 5, so setting it folds four brackets into two
    /// comparisons; no other byte becomes `{` or `}` that way.
    @usableFromInline
    struct Classes16 {
        @usableFromInline var quotes, backslashes, structurals, lineFeeds: SIMD16<UInt8>

        @inlinable @inline(__always)
        init(quotes: SIMD16<UInt8>, backslashes: SIMD16<UInt8>, structurals: SIMD16<UInt8>, lineFeeds: SIMD16<UInt8>) {
            self.quotes = quotes
            self.backslashes = backslashes
            self.structurals = structurals
            self.lineFeeds = lineFeeds
        }
    }

    // Comparisons with a splatted vector, never with a scalar: `v .== 0x22` takes the generic
    // scalar overload, which the optimiser leaves as a byte loop.
    @inlinable @inline(__always)
    static func classes16(_ v: SIMD16<UInt8>) -> Classes16 {
        let folded = v | SIMD16(repeating: 0x20)
        let structurals = ByteMasks.bytes(folded .== SIMD16(repeating: UInt8(ascii: "{")))
            | ByteMasks.bytes(folded .== SIMD16(repeating: UInt8(ascii: "}")))
            | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: ",")))
            | ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: ":")))
        return Classes16(
            quotes: ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\""))),
            backslashes: ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\\"))),
            structurals: structurals,
            lineFeeds: ByteMasks.bytes(v .== SIMD16(repeating: UInt8(ascii: "\n")))
        )
    }
}
