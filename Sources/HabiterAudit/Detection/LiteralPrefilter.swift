/// Finds which of a set of case-insensitive literals (two bytes or longer) occur in a value,
/// with one bitmap probe per byte pair. It gates the regexes: a rule whose keywords do not
/// occur in a value never runs on it.
public final class LiteralPrefilter: @unchecked Sendable {
    /// Lowercased literals.
    public let literals: [[UInt8]]
    /// Bit `b1 << 8 | b0` (two bytes as a little-endian word) is set when some literal starts
    /// with the pair `b0 b1` in any letter case.
    private let bitmap: UnsafeMutablePointer<UInt64>
    /// Literal indices grouped by first (lowercased) byte pair: the literals starting with pair
    /// `p` are `pairMembers[pairStart[p]..<pairStart[p + 1]]`.
    private let pairStart: [Int32]
    private let pairMembers: [Int32]

    public init(literals: [String]) {
        let lowered = literals.map { Array($0.utf8).map(LiteralPrefilter.lower) }
        precondition(lowered.allSatisfy { $0.count >= 2 }, "prefilter literals need two bytes")
        self.literals = lowered
        bitmap = .allocate(capacity: 1024)
        bitmap.initialize(repeating: 0, count: 1024)
        var pairs = [[Int32]](repeating: [], count: 65536)
        func cases(_ b: UInt8) -> [UInt8] { b &- 0x61 < 26 ? [b, b & ~0x20] : [b] }
        for (index, literal) in lowered.enumerated() {
            for first in cases(literal[0]) {
                for second in cases(literal[1]) {
                    let word = Int(second) << 8 | Int(first)
                    bitmap[word >> 6] |= 1 << UInt64(word & 63)
                }
            }
            pairs[Int(literal[0]) << 8 | Int(literal[1])].append(Int32(index))
        }
        var start = [Int32](repeating: 0, count: 65537)
        for pair in 0..<65536 { start[pair + 1] = start[pair] + Int32(pairs[pair].count) }
        pairStart = start
        pairMembers = pairs.flatMap { $0 }
    }

    deinit { bitmap.deallocate() }

    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Whether some literal starts with the byte pair (in any letter case).
    @inline(__always)
    func mayStartLiteral(_ first: UInt8, _ second: UInt8) -> Bool {
        let word = Int(second) << 8 | Int(first)
        return bitmap[word >> 6] & (1 << UInt64(word & 63)) != 0
    }

    /// Calls `found` with the index of each literal that occurs in `bytes` (once per occurrence).
    @inline(__always)
    public func scan(_ bytes: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        let n = bytes.count
        guard n >= 2, let base = bytes.baseAddress else { return }
        let start = base.assumingMemoryBound(to: UInt8.self)
        // Each pair of neighbouring bytes, read as one little-endian word: no case folding here,
        // the bitmap holds every case of each literal's first two bytes.
        var i = 0
        while i &+ 1 < n {
            let word = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
            if bitmap[word &>> 6] & (1 &<< UInt64(word & 63)) != 0 {
                let pair = UInt16(LiteralPrefilter.lower(start[i])) << 8 | UInt16(LiteralPrefilter.lower(start[i &+ 1]))
                verify(pair: pair, at: i, in: start, count: n, found)
            }
            i &+= 1
        }
    }

    private func verify(pair: UInt16, at position: Int, in start: UnsafePointer<UInt8>, count n: Int, _ found: (Int) -> Void) {
        for member in pairStart[Int(pair)]..<pairStart[Int(pair) + 1] {
            let index = Int(pairMembers[Int(member)])
            let literal = literals[index]
            if position + literal.count > n { continue }
            var k = 2
            while k < literal.count && LiteralPrefilter.lower(start[position + k]) == literal[k] { k += 1 }
            if k == literal.count { found(index) }
        }
    }
}
