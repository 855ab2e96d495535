import AuditBytes

/// Finds which of a set of case-insensitive literals (two bytes or longer) occur in a value,
/// with one bitmap probe per byte pair. It gates the regexes: a rule whose keywords do not
/// occur in a value never runs on it.
///
/// When every literal has three bytes or more, only every other offset is probed, with its three
/// bytes: a literal starting there has its bytes 0 to 2 there, one starting a byte before its
/// bytes 1 to 3 or, with three bytes, its last two (`probes`, `shortLiteralEnds`), and a hit is
/// verified at both offsets. The probe is one branch, which passes about one offset in ten on
/// real values: a bitmap of byte pairs before it passed a third of them, a branch the processor
/// could not foretell.
///
/// A candidate literal is compared with the value eight bytes at a time (`prefixWords`).
public final class LiteralPrefilter: @unchecked Sendable {
    /// Lowercased literals.
    public let literals: [[UInt8]]
    /// Bit `b1 << 8 | b0` (two bytes as a little-endian word) is set when some literal starts
    /// with the pair `b0 b1` in any letter case. Probed at every offset with `probeStep` 1.
    private let bitmap: UnsafeMutablePointer<UInt64>
    /// Literal indices grouped by first (lowercased) byte pair (`PairGroups`).
    private let firstPairs: PairGroups
    /// The same by second byte pair (bytes 1 and 2), for `probeStep` 2.
    private let secondPairs: PairGroups
    /// The literals' bytes one after another: literal `i` is
    /// `literalBytes[literalStart[i]..<literalStart[i + 1]]`. Raw memory, like the tables above,
    /// so that probing a value takes no reference counting.
    private let literalBytes: UnsafeMutablePointer<UInt8>
    private let literalStart: UnsafeMutablePointer<Int32>
    /// Each literal's first eight bytes (fewer when it is shorter) as a little-endian word, the
    /// bytes past its end zero; `prefixLetters` has 0x20 in the bytes that are letters and
    /// `prefixMasks` 0xFF in the bytes it has. Eight bytes of a value `w` start with the
    /// literal's first bytes in any case when `(w | letters) & mask == word`: a value byte `b`
    /// has `b | 0x20` equal to a lowercase letter only when `b` is that letter in either case.
    private let prefixWords: UnsafeMutablePointer<UInt64>
    private let prefixLetters: UnsafeMutablePointer<UInt64>
    private let prefixMasks: UnsafeMutablePointer<UInt64>
    /// 2 when every literal has three bytes or more, else 1.
    private let probeStep: Int
    /// With `probeStep` 2, a bit per hash (`trigramHash`) of each literal's first three bytes:
    /// checked before the literals of a pair are, at the offset they would start at.
    private let trigrams: UnsafeMutablePointer<UInt64>
    /// With `probeStep` 2, the probe of an offset: a bit per hash of each literal's bytes 0 to 2
    /// and (four bytes or more) 1 to 3, and the pairs that the three-byte literals end with, in
    /// every letter case.
    private let probes: UnsafeMutablePointer<UInt64>
    private let shortLiteralEnds: UnsafeMutablePointer<UInt64>

    public init(literals: [String]) {
        let lowered = literals.map { Array($0.utf8).map(ASCIICase.lower) }
        precondition(lowered.allSatisfy { $0.count >= 2 }, "prefilter literals need two bytes")
        self.literals = lowered
        let probeStep = lowered.allSatisfy { $0.count >= 3 } ? 2 : 1
        /// A bitmap of 65,536 bits, all clear; freed by `deinit`.
        func bits() -> UnsafeMutablePointer<UInt64> {
            let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1024)
            bits.initialize(repeating: 0, count: 1024)
            return bits
        }
        let bitmap = bits()
        func set(_ bit: Int, in bitmap: UnsafeMutablePointer<UInt64>) { bitmap[bit >> 6] |= 1 << UInt64(bit & 63) }
        func upper(_ b: UInt8) -> UInt8 { b &- 0x61 < 26 ? b & ~0x20 : b }
        /// The pair in every letter case (a byte that is no letter counts twice, alike).
        func setBits(_ b0: UInt8, _ b1: UInt8, in bitmap: UnsafeMutablePointer<UInt64>) {
            for first in [b0, upper(b0)] {
                set(Int(b1) << 8 | Int(first), in: bitmap)
                set(Int(upper(b1)) << 8 | Int(first), in: bitmap)
            }
        }
        func setTrigram(_ literal: [UInt8], from start: Int, in bitmap: UnsafeMutablePointer<UInt64>) {
            set(LiteralPrefilter.trigramHash(UInt32(literal[start]) | UInt32(literal[start + 1]) << 8 | UInt32(literal[start + 2]) << 16), in: bitmap)
        }
        for literal in lowered { setBits(literal[0], literal[1], in: bitmap) }
        /// A copy of `values` in raw memory, freed by `deinit`.
        func raw<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
            pointer.initialize(from: values, count: values.count)
            return pointer
        }
        firstPairs = PairGroups(lowered.map { ($0[0], $0[1]) })
        secondPairs = PairGroups(probeStep == 2 ? lowered.map { ($0[1], $0[2]) } : [])
        literalBytes = raw(lowered.flatMap { $0 })
        literalStart = raw(lowered.reduce(into: [Int32(0)]) { starts, literal in starts.append(starts.last! + Int32(literal.count)) })
        /// The first eight bytes of each literal, shifted to their places, where `byte` maps them.
        func prefixes(_ byte: (UInt8) -> UInt8) -> UnsafeMutablePointer<UInt64> {
            raw(lowered.map { literal in
                literal.prefix(8).enumerated().reduce(UInt64(0)) { word, place in word | UInt64(byte(place.element)) << (8 * UInt64(place.offset)) }
            })
        }
        prefixWords = prefixes { $0 }
        prefixLetters = prefixes { $0 &- 0x61 < 26 ? 0x20 : 0 }
        prefixMasks = prefixes { _ in 0xFF }
        self.bitmap = bitmap
        self.probeStep = probeStep
        (trigrams, probes, shortLiteralEnds) = (bits(), bits(), bits())
        if probeStep == 2 {
            for literal in lowered {
                setTrigram(literal, from: 0, in: trigrams)
                setTrigram(literal, from: 0, in: probes)
                if literal.count >= 4 { setTrigram(literal, from: 1, in: probes) } else { setBits(literal[1], literal[2], in: shortLiteralEnds) }
            }
        }
    }

    deinit {
        bitmap.deallocate()
        firstPairs.deallocate()
        secondPairs.deallocate()
        literalBytes.deallocate()
        literalStart.deallocate()
        prefixWords.deallocate()
        prefixLetters.deallocate()
        prefixMasks.deallocate()
        trigrams.deallocate()
        probes.deallocate()
        shortLiteralEnds.deallocate()
    }

    /// Whether some literal starts with the byte pair (in any letter case).
    @inline(__always)
    func mayStartLiteral(_ first: UInt8, _ second: UInt8) -> Bool {
        LiteralPrefilter.has(Int(second) << 8 | Int(first), in: bitmap)
    }

    /// Whether bit `bit` (below 65,536) of `bitmap` is set.
    @inline(__always)
    private static func has(_ bit: Int, in bitmap: UnsafeMutablePointer<UInt64>) -> Bool {
        bitmap[bit &>> 6] & (1 &<< UInt64(bit & 63)) != 0
    }

    /// Bit `bit` of `bitmap` as 0 or 1, to be combined with another without a branch.
    @inline(__always)
    private static func bit(_ bit: Int, in bitmap: UnsafeMutablePointer<UInt64>) -> UInt64 {
        bitmap[bit &>> 6] &>> UInt64(bit & 63) & 1
    }

    /// Calls `found` with the index and offset of each literal that occurs in `bytes` (once per
    /// occurrence), in order of where the occurrences start, then of the literals.
    @inline(__always)
    public func scan(_ bytes: UnsafeRawBufferPointer, _ found: (_ literal: Int, _ offset: Int) -> Void) {
        let n = bytes.count
        guard n >= 2, let base = bytes.baseAddress else { return }
        let start = base.assumingMemoryBound(to: UInt8.self)
        guard probeStep == 2 else {
            // Every pair of neighbouring bytes, read as one little-endian word: no case folding
            // here, the bitmap holds every case of the literals' first pairs.
            for i in 0..<(n &- 1) {
                let word = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
                if LiteralPrefilter.has(word, in: bitmap) {
                    let (first, second) = (ASCIICase.lower(start[i]), ASCIICase.lower(start[i &+ 1]))
                    verify(firstPairs.members, firstPairs.group(first, second), at: i, in: start, count: n, found)
                }
            }
            return
        }
        // Four bytes at a time while there are four; then the last offset with three bytes.
        var i = 0
        while i &+ 4 <= n {
            let bytes = UnsafeRawPointer(start + i).loadUnaligned(as: UInt32.self).littleEndian
            let here = LiteralPrefilter.trigramHash(bytes & 0xFF_FFFF)
            if LiteralPrefilter.bit(here, in: probes) | LiteralPrefilter.bit(Int(bytes & 0xFFFF), in: shortLiteralEnds) != 0 {
                verifyCandidates(at: i, here: here, in: start, count: n, found)
            }
            i &+= 2
        }
        if i &+ 2 < n {
            let here = trigramHash(at: i, in: start, count: n)
            let word = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
            if LiteralPrefilter.has(here, in: probes) || LiteralPrefilter.has(word, in: shortLiteralEnds) {
                verifyCandidates(at: i, here: here, in: start, count: n, found)
            }
            i &+= 2
        }
        // The last pair, when the count is even: only a three-byte literal one byte back ends in it.
        if i &+ 1 < n {
            let word = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
            if LiteralPrefilter.has(word, in: shortLiteralEnds) { verifyCandidates(at: i, here: -1, in: start, count: n, found) }
        }
    }

    /// Reports the literals that start one byte before `i`, then those that start at `i`, once
    /// the three bytes at each pass the filter of first trigrams. `here` is the hash of the three
    /// bytes at `i` (-1: fewer are left).
    @inline(__always)
    private func verifyCandidates(at i: Int, here: Int, in start: UnsafePointer<UInt8>, count n: Int, _ found: (Int, Int) -> Void) {
        let (first, second) = (ASCIICase.lower(start[i]), ASCIICase.lower(start[i &+ 1]))
        if i > 0 && LiteralPrefilter.has(trigramHash(at: i &- 1, in: start, count: n), in: trigrams) {
            verify(secondPairs.members, secondPairs.group(first, second), at: i - 1, in: start, count: n, found)
        }
        if here >= 0 && LiteralPrefilter.has(here, in: trigrams) {
            verify(firstPairs.members, firstPairs.group(first, second), at: i, in: start, count: n, found)
        }
    }

    /// A hash of three bytes (the first in the lowest byte of `bytes`) with bit 5 of each set:
    /// that maps both cases of a letter to one byte, so a literal's bytes and any case of them
    /// hash alike (other bytes it merges only cost a probe that finds nothing).
    @inline(__always)
    private static func trigramHash(_ bytes: UInt32) -> Int {
        Int(((bytes | 0x20_2020) &* 0x9E37_79B1) &>> 16)
    }

    /// The hash of the three bytes at `position` (before `count`).
    @inline(__always)
    private func trigramHash(at position: Int, in start: UnsafePointer<UInt8>, count: Int) -> Int {
        // One load of four bytes where there are four, the fourth masked off.
        let bytes = position &+ 4 <= count
            ? UnsafeRawPointer(start + position).loadUnaligned(as: UInt32.self).littleEndian & 0xFF_FFFF
            : UInt32(start[position]) | UInt32(start[position &+ 1]) << 8 | UInt32(start[position &+ 2]) << 16
        return LiteralPrefilter.trigramHash(bytes)
    }

    /// Reports each literal of `members[range]` that occurs at `position`: by its first eight
    /// bytes in one comparison where the value has eight bytes there, then byte by byte.
    @inline(__always)
    private func verify(_ members: UnsafeMutablePointer<Int32>, _ range: Range<Int>, at position: Int, in start: UnsafePointer<UInt8>,
                        count n: Int, _ found: (Int, Int) -> Void) {
        let wordFits = position &+ 8 <= n
        let word = wordFits ? UnsafeRawPointer(start + position).loadUnaligned(as: UInt64.self).littleEndian : 0
        for m in range {
            let index = Int(members[m])
            let literal = Int(literalStart[index])
            let length = Int(literalStart[index + 1]) - literal
            if position + length > n { continue }
            var k = 0
            if wordFits {
                if (word | prefixLetters[index]) & prefixMasks[index] != prefixWords[index] { continue }
                k = min(length, 8)
            }
            while k < length && ASCIICase.lower(start[position + k]) == literalBytes[literal + k] { k += 1 }
            if k == length { found(index, position) }
        }
    }
}

/// The literals of a prefilter grouped by a pair of their (lowercased) bytes, in index order: the
/// literals with pair `first second` are `members[group(first, second)]`. The groups' starts are
/// laid out one row of 256 for each first byte some pair has, after one row for the others, which
/// holds only empty groups (`rows` gives each first byte's row); each group ends where the next
/// place's begins. One table of 65,537 starts took 256 KiB, and its page faults a quarter of a
/// millisecond of start-up for the four tables of a pack's two prefilters. Raw memory, freed by
/// `deallocate`, so that probing takes no reference counting.
struct PairGroups {
    /// Where each first byte's row starts in `starts`.
    private let rows: UnsafeMutablePointer<Int32>
    private let starts: UnsafeMutablePointer<Int32>
    let members: UnsafeMutablePointer<Int32>

    /// The groups of `pairs`, the pair of literal `i` at `i`.
    init(_ pairs: [(UInt8, UInt8)]) {
        rows = .allocate(capacity: 256)
        rows.initialize(repeating: 0, count: 256)
        var rowCount = 1
        for (first, _) in pairs where rows[Int(first)] == 0 {
            rows[Int(first)] = Int32(rowCount * 256)
            rowCount += 1
        }
        // Counted, summed, then placed, the sums one place up (`cursor`): summed, each place
        // holds where its group starts and is the cursor that places it, and ends where the next
        // group starts, which is where `starts`, one place down, wants it.
        let count = rowCount * 256 + 2
        starts = .allocate(capacity: count)
        starts.initialize(repeating: 0, count: count)
        let cursor = starts + 1
        for (first, second) in pairs { cursor[Int(rows[Int(first)]) + Int(second) + 1] += 1 }
        for place in 0..<(count - 2) { cursor[place + 1] += cursor[place] }
        members = .allocate(capacity: max(1, pairs.count))
        for (index, (first, second)) in pairs.enumerated() {
            let place = Int(rows[Int(first)]) + Int(second)
            (members + Int(cursor[place])).initialize(to: Int32(index))
            cursor[place] += 1
        }
    }

    /// The places in `members` of the literals with the pair `first second`.
    @inline(__always)
    func group(_ first: UInt8, _ second: UInt8) -> Range<Int> {
        let place = Int(rows[Int(first)]) &+ Int(second)
        return Int(starts[place])..<Int(starts[place &+ 1])
    }

    func deallocate() {
        rows.deallocate()
        starts.deallocate()
        members.deallocate()
    }
}
