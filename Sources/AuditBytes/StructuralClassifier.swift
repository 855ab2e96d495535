#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

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
/// operations (`&`, `replacing`) still become byte loops where `SIMD16` ones do not.
///
/// Swift's SIMD types have no movemask, which turns a comparison's 16 bytes into 16 bits. On
/// x86-64 it is `pmovmskb`, from the intrinsics of the clang that the Swift toolchain ships
/// (`_Builtin_intrinsics.intel`). Elsewhere a comparison's 0x00/0xFF bytes are weighted 1, 2,
/// 4 … 128 (`portableBits16`) and each eight summed by a multiplication by 0x0101…01, whose top
/// byte is their sum: some 40 instructions for 64 bytes where `pmovmskb` takes 10. (From a
/// lane-by-lane gather LLVM emits `pmovmskb` and then takes its result apart bit by bit again.)
public enum StructuralClassifier {
    public static let blockSize = 64

    /// The classes of the 64 bytes at `block` (which may be unaligned).
    @inlinable @inline(__always)
    public static func classify(_ block: UnsafeRawPointer) -> JSONByteClasses {
        let c0 = classes16(block.loadUnaligned(as: SIMD16<UInt8>.self))
        let c1 = classes16(block.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self))
        let c2 = classes16(block.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self))
        let c3 = classes16(block.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self))
        return JSONByteClasses(
            quotes: bits(c0.quotes, c1.quotes, c2.quotes, c3.quotes),
            backslashes: bits(c0.backslashes, c1.backslashes, c2.backslashes, c3.backslashes),
            structurals: bits(c0.structurals, c1.structurals, c2.structurals, c3.structurals),
            lineFeeds: bits(c0.lineFeeds, c1.lineFeeds, c2.lineFeeds, c3.lineFeeds)
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
        let structurals = bytes(folded .== SIMD16(repeating: UInt8(ascii: "{")))
            | bytes(folded .== SIMD16(repeating: UInt8(ascii: "}")))
            | bytes(v .== SIMD16(repeating: UInt8(ascii: ",")))
            | bytes(v .== SIMD16(repeating: UInt8(ascii: ":")))
        return Classes16(
            quotes: bytes(v .== SIMD16(repeating: UInt8(ascii: "\""))),
            backslashes: bytes(v .== SIMD16(repeating: UInt8(ascii: "\\"))),
            structurals: structurals,
            lineFeeds: bytes(v .== SIMD16(repeating: UInt8(ascii: "\n")))
        )
    }

    /// A comparison's lanes as bytes (a mask is stored as 0x00/0xFF bytes).
    @inlinable @inline(__always)
    static func bytes(_ mask: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> {
        unsafeBitCast(mask, to: SIMD16<UInt8>.self)
    }

    /// Four comparisons of 16 bytes as 64 bits, bit i for byte i.
    @inlinable @inline(__always)
    static func bits(_ m0: SIMD16<UInt8>, _ m1: SIMD16<UInt8>, _ m2: SIMD16<UInt8>, _ m3: SIMD16<UInt8>) -> UInt64 {
        bits16(m0) | bits16(m1) &<< 16 | bits16(m2) &<< 32 | bits16(m3) &<< 48
    }

    /// A comparison's 16 bytes, each 0x00 or 0xFF, as 16 bits: `pmovmskb` on x86-64.
    @inlinable @inline(__always)
    static func bits16(_ mask: SIMD16<UInt8>) -> UInt64 {
        #if arch(x86_64)
        UInt64(UInt32(bitPattern: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self))))
        #else
        portableBits16(mask)
        #endif
    }

    /// `bits16` without a movemask: each eight bytes weighted 1, 2 … 128 and summed.
    @inlinable @inline(__always)
    static func portableBits16(_ mask: SIMD16<UInt8>) -> UInt64 {
        let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let halves = unsafeBitCast(mask & weights, to: SIMD2<UInt64>.self)
        return UInt64(sum8(halves[0])) | UInt64(sum8(halves[1])) &<< 8
    }

    /// The sum of the eight bytes of `word`, when it is below 256 (here: distinct bits).
    @inlinable @inline(__always)
    static func sum8(_ word: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: (word &* 0x0101_0101_0101_0101) &>> 56)
    }
}
