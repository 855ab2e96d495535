/// Finds which of a set of case-insensitive literals (two bytes or longer) occur in a value,
/// with one bitmap probe per byte pair. It gates the regexes: a rule whose keywords do not
/// occur in a value never runs on it.
public final class LiteralPrefilter: @unchecked Sendable {
    /// Lowercased literals.
    public let literals: [[UInt8]]
    /// Bit `b0 << 8 | b1` is set when some literal starts with the (lowercased) pair.
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
        for (index, literal) in lowered.enumerated() {
            let pair = UInt16(literal[0]) << 8 | UInt16(literal[1])
            bitmap[Int(pair >> 6)] |= 1 << UInt64(pair & 63)
            pairs[Int(pair)].append(Int32(index))
        }
        var start = [Int32](repeating: 0, count: 65537)
        for pair in 0..<65536 { start[pair + 1] = start[pair] + Int32(pairs[pair].count) }
        pairStart = start
        pairMembers = pairs.flatMap { $0 }
    }

    deinit {
        bitmap.deallocate()
        lowercase.deallocate()
    }

    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// `lower` of every byte, looked up in the scan loop.
    private let lowercase: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = lower(UInt8(b)) }
        return table
    }()

    /// Whether some literal starts with the (lowercased) byte pair.
    @inline(__always)
    func mayStartLiteral(_ first: UInt8, _ second: UInt8) -> Bool {
        let pair = UInt16(first) << 8 | UInt16(second)
        return bitmap[Int(pair >> 6)] & (1 << UInt64(pair & 63)) != 0
    }

    /// Calls `found` with the index of each literal that occurs in `bytes` (once per occurrence).
    @inline(__always)
    public func scan(_ bytes: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        let n = bytes.count
        guard n >= 2, let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var previous = UInt(LiteralPrefilter.lower(start[0]))
        var i = 1
        while i < n {
            let current = UInt(lowercase[Int(start[i])])
            let pair = previous &<< 8 | current
            if bitmap[Int(pair &>> 6)] & (1 &<< UInt64(pair & 63)) != 0 {
                verify(pair: UInt16(pair), at: i - 1, in: start, count: n, found)
            }
            previous = current
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
