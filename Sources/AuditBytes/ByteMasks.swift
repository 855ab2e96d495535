#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Comparisons of 16 bytes, each lane 0x00 or 0xFF, as bit masks (bit i for byte i): how this
/// module's classifiers gather their classes.
///
/// Swift's SIMD types have no movemask, which turns a comparison's 16 bytes into 16 bits. On
/// x86-64 it is `pmovmskb`, from the intrinsics of the clang that the Swift toolchain ships
/// (`_Builtin_intrinsics.intel`). Elsewhere a comparison's bytes are weighted 1, 2, 4 … 128
/// (`portableBits16`) and each eight summed by a multiplication by 0x0101…01, whose top byte is
/// their sum: some 40 instructions for 64 bytes where `pmovmskb` takes 10. (From a lane-by-lane
/// gather LLVM emits `pmovmskb` and then takes its result apart bit by bit again.) Masks are
/// combined as bytes: `SIMDMask`'s own `.&` and `.|` become byte loops.
public enum ByteMasks {
    /// The four 16-byte quarters of the 64 bytes at `block` (which may be unaligned), each as
    /// `classes` makes of it: what every classifier of 64 bytes starts with.
    @inlinable @inline(__always)
    static func quarters<Classes>(_ block: UnsafeRawPointer, _ classes: (SIMD16<UInt8>) -> Classes)
        -> (Classes, Classes, Classes, Classes) {
        (classes(block.loadUnaligned(as: SIMD16<UInt8>.self)), classes(block.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)),
         classes(block.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)), classes(block.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)))
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
