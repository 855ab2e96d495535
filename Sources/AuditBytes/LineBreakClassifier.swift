/// Which of 64 bytes are line feeds (one bit per byte, bit i for byte i), and whether the block
/// holds a byte that a line cursor must take one at a time: a CR (which pairs with a following
/// LF) or a byte outside ASCII (a column counts characters, not bytes). With SSE2-wide vectors,
/// as `StructuralClassifier`, whose mask gathering it shares.
public enum LineBreakClassifier {
    public struct Block: Equatable {
        public var lineFeeds: UInt64
        public var needsBytewise: Bool

        @inlinable
        public init(lineFeeds: UInt64, needsBytewise: Bool) {
            self.lineFeeds = lineFeeds
            self.needsBytewise = needsBytewise
        }
    }

    /// The 64 bytes at `block` (which may be unaligned).
    @inlinable @inline(__always)
    public static func classify(_ block: UnsafeRawPointer) -> Block {
        let (v0, v1, v2, v3) = ByteMasks.quarters(block) { $0 }
        // A CR compares to 0xFF, so the high bit of some byte marks either case.
        let carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        let special = v0 | v1 | v2 | v3
            | ByteMasks.bytes(v0 .== carriageReturn) | ByteMasks.bytes(v1 .== carriageReturn)
            | ByteMasks.bytes(v2 .== carriageReturn) | ByteMasks.bytes(v3 .== carriageReturn)
        let halves = unsafeBitCast(special, to: SIMD2<UInt64>.self)
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A)
        let l0 = ByteMasks.bytes(v0 .== lineFeed), l1 = ByteMasks.bytes(v1 .== lineFeed)
        let l2 = ByteMasks.bytes(v2 .== lineFeed), l3 = ByteMasks.bytes(v3 .== lineFeed)
        // The mask is gathered only when there is an LF: a long line's blocks have none.
        let anyLineFeed = unsafeBitCast(l0 | l1 | l2 | l3, to: SIMD2<UInt64>.self)
        return Block(
            lineFeeds: anyLineFeed[0] | anyLineFeed[1] == 0 ? 0 : ByteMasks.bits(l0, l1, l2, l3),
            needsBytewise: (halves[0] | halves[1]) & 0x8080_8080_8080_8080 != 0)
    }

    /// The whole 64-byte blocks from `start`, at most `limit`, up to the first that holds a CR
    /// or a byte from 0x80: how many, how many LFs they hold, and the offset from `start` of the
    /// last one (-1 for none). The LFs are summed lane by lane in bytes (a lane gains at most
    /// four a block) and the lanes added up every 63 blocks: counting each block's mask took a
    /// population count, which baseline x86-64 does in a dozen instructions, and the column
    /// after its last LF. Only the last block with an LF has its mask gathered.
    @inlinable
    public static func countPlainBlocks(_ start: UnsafeRawPointer, limit: Int) -> (blocks: Int, lineFeeds: Int, lastLineFeed: Int) {
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A), carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        var blocks = 0, lineFeeds = 0, lastBlockWithLineFeed = -1
        // Each lane counts the LFs at its place, as 0 - (0xFF per LF), wrapping.
        var lanes = SIMD16<UInt8>()
        var blocksInLanes = 0
        while blocks < limit {
            let (v0, v1, v2, v3) = ByteMasks.quarters(start + blocks &* 64) { $0 }
            let special = v0 | v1 | v2 | v3
                | ByteMasks.bytes(v0 .== carriageReturn) | ByteMasks.bytes(v1 .== carriageReturn)
                | ByteMasks.bytes(v2 .== carriageReturn) | ByteMasks.bytes(v3 .== carriageReturn)
            let halves = unsafeBitCast(special, to: SIMD2<UInt64>.self)
            if (halves[0] | halves[1]) & 0x8080_8080_8080_8080 != 0 { break }
            // Up to four 0xFF a lane: 0xFC at least, never 0 when the block has an LF.
            let found = ByteMasks.bytes(v0 .== lineFeed) &+ ByteMasks.bytes(v1 .== lineFeed)
                &+ ByteMasks.bytes(v2 .== lineFeed) &+ ByteMasks.bytes(v3 .== lineFeed)
            lanes &-= found
            let any = unsafeBitCast(found, to: SIMD2<UInt64>.self)
            if any[0] | any[1] != 0 { lastBlockWithLineFeed = blocks }
            blocks &+= 1
            blocksInLanes &+= 1
            if blocksInLanes == 63 {
                lineFeeds &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
                lanes = SIMD16<UInt8>()
                blocksInLanes = 0
            }
        }
        lineFeeds &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        guard lastBlockWithLineFeed >= 0 else { return (blocks, lineFeeds, -1) }
        let mask = classify(start + lastBlockWithLineFeed &* 64).lineFeeds
        return (blocks, lineFeeds, lastBlockWithLineFeed &* 64 &+ 63 &- mask.leadingZeroBitCount)
    }

    /// The same, a byte at a time: the reference the tests hold the vector code to.
    @inlinable
    public static func classifyScalar(_ block: UnsafeRawPointer) -> Block {
        var result = Block(lineFeeds: 0, needsBytewise: false)
        for i in 0..<64 {
            let byte = block.load(fromByteOffset: i, as: UInt8.self)
            if byte == 0x0A { result.lineFeeds |= 1 &<< UInt64(i) }
            if byte == 0x0D || byte >= 0x80 { result.needsBytewise = true }
        }
        return result
    }
}
