import AuditBytes
import Testing

/// `Base64Runs.forEach`, 16 bytes at a time, against the plain scan it stands for.
@Suite struct Base64RunsTests {
    /// Every maximal run of symbols with up to two `=` after it, byte by byte.
    static func plainRuns(_ text: [UInt8], minLength: Int) -> [Range<Int>] {
        let values = Base64.values(in: nil)
        var runs: [Range<Int>] = []
        var i = 0
        while i < text.count {
            guard values[Int(text[i])] != 0xFF else {
                i += 1
                continue
            }
            let start = i
            while i < text.count && values[Int(text[i])] != 0xFF { i += 1 }
            var end = i
            while end < text.count && end - i < 2 && text[end] == UInt8(ascii: "=") { end += 1 }
            if end - start >= minLength { runs.append(start..<end) }
            i = end
        }
        return runs
    }

    static func runs(_ text: [UInt8], minLength: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        text.withUnsafeBytes { Base64Runs.forEach(in: $0, minLength: minLength) { runs.append($0) } }
        return runs
    }

    @Test func findsTheRunsThePlainScanFinds() {
        // Symbols of both alphabets, padding and separators, in runs of every length around 16.
        let pieces = ["A", "z", "9", "+", "/", "-", "_", "=", " ", ".", "\n", "é", "\"", "QUJDREVGR0g", "eyJhIjoxfQ==", "x="]
        var generator = SeededGenerator(seed: 0xB64)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...120, using: &generator)
            let text = Array((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
            for minLength in [10, 16, 24] {
                #expect(Self.runs(text, minLength: minLength) == Self.plainRuns(text, minLength: minLength), "\(text) \(minLength)")
            }
        }
    }

    @Test func aRunAtEitherEndAndRunsOfExactlyTheLength() {
        let run = Array("QUJDREVGR0hJSktMTU5P".utf8)
        #expect(Self.runs(run, minLength: 16) == [0..<20])
        #expect(Self.runs(Array("  ".utf8) + run + Array("== x".utf8), minLength: 16) == [2..<24])
        #expect(Self.runs(Array(" abcdefghijklmno ".utf8), minLength: 16).isEmpty)
        #expect(Self.runs(Array(" abcdefghijklmnop ".utf8), minLength: 16) == [1..<17])
        #expect(Self.runs(Array(" abcdefghijklmn== ".utf8), minLength: 16) == [1..<17])
    }
}
