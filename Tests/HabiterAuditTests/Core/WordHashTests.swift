@testable import AuditBytes
import Testing

/// The hash behind the key-facts cache and the perfect-hash tables spreads keys over the low
/// bits a table index takes, whichever byte they differ in.
@Suite struct WordHashTests {
    /// Calls `body` with the hashes of the 256 keys alike but for one byte, for every position
    /// of keys of 1 to 24 bytes.
    private func forEachByteVariant(_ body: (_ length: Int, _ position: Int, _ hashes: [UInt64]) -> Void) {
        for length in 1...24 {
            for position in 0..<length {
                body(length, position, (0...255).map { byte in
                    var key = [UInt8](repeating: 0x6B, count: length)
                    key[position] = UInt8(byte)
                    return key.withUnsafeBufferPointer { WordHash.hash($0) }
                })
            }
        }
    }

    /// Keys alike but for one byte: their low 9 bits take at least 150 distinct values (about
    /// 200 for a random function; a hash whose low bits never see that byte gives one).
    @Test func keysThatDifferInOneByteSpreadOverTheLowBits() {
        forEachByteVariant { length, position, hashes in
            let lowBits = Set(hashes.map { $0 & 511 })
            #expect(lowBits.count >= 150, "length \(length), byte \(position): \(lowBits.count)")
        }
    }

    /// Every byte of a key enters its hash: keys of one length that differ in one byte, at any
    /// place, never share a hash (below eight bytes the tail is gathered from overlapping loads,
    /// or three bytes, and the finaliser is a bijection).
    @Test func everyByteOfAKeyEntersItsHash() {
        forEachByteVariant { length, position, hashes in
            #expect(Set(hashes).count == 256, "length \(length), byte \(position)")
        }
    }

    /// A string hashes as its UTF-8 bytes do, small (held in the string itself) or not, read in
    /// place or through a copy.
    @Test func aStringHashesAsItsBytes() {
        let texts = ["", "k", "pin", "an empty string", "a 12-character value", "habiter_habits.settings.reminder",
                     "caf\u{E9}", "\u{1F600} emoji and more text", "nul\u{0}inside", String(repeating: "x", count: 1_000)]
        for text in texts + texts.map({ String($0.dropFirst()) }) {
            for seed: UInt64 in [0, 7] {
                let bytes = Array(text.utf8)
                #expect(WordHash.hash(text, seed: seed) == bytes.withUnsafeBufferPointer { WordHash.hash($0, seed: seed) }, "\(text.utf8.count) bytes")
            }
        }
    }

    /// The seed changes the hash, so that a perfect-hash bucket can try another.
    @Test func theSeedChangesTheHash() {
        let key: [UInt8] = Array("habiter_habits".utf8)
        let hashes = Set((0..<64 as Range<UInt64>).map { seed in key.withUnsafeBufferPointer { WordHash.hash($0, seed: seed) } })
        #expect(hashes.count == 64)
    }
}
