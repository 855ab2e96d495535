import AuditBytes
import Testing

/// `Indentation.end` finds what a byte loop over the spaces finds: runs of every length, ending
/// in every kind of byte (other whitespace, a token, a byte of 0x80 or more, none) at every
/// place of a word, and stopping at the end it is given.
@Suite struct IndentationTests {
    /// The first byte from `start` on before `end` that is no space, a byte at a time.
    static func plainEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        var i = start
        while i < end && bytes[i] == 0x20 { i += 1 }
        return i
    }

    @Test func findsWhatAByteLoopFinds() {
        var generator = SeededGenerator(seed: 0x1DE_7A7E)
        let stops: [UInt8] = [0x09, 0x0A, 0x0D, UInt8(ascii: "\""), UInt8(ascii: "}"), 0x21, 0x1F, 0x00, 0x80, 0xA0, 0xFF]
        for _ in 0..<2_000 {
            var bytes = (0..<Int.random(in: 1...40, using: &generator)).map { _ in stops.randomElement(using: &generator)! }
            let start = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &generator)
            bytes.insert(contentsOf: [UInt8](repeating: 0x20, count: Int.random(in: 0...33, using: &generator)), at: start)
            if Bool.random(using: &generator) { bytes.append(contentsOf: [UInt8](repeating: 0x20, count: Int.random(in: 1...9, using: &generator))) }
            let end = Int.random(in: start...bytes.count, using: &generator)
            let found = bytes.withUnsafeBufferPointer { Indentation.end(in: $0.baseAddress!, from: start, to: end) }
            #expect(found == Self.plainEnd(bytes, from: start, to: end), "\(bytes) from \(start) to \(end)")
        }
    }
}
