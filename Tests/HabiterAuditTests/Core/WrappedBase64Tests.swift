import AuditBytes
import Testing

/// `WrappedBase64`: which runs continue a block, and what of the text the whole block is.
@Suite struct WrappedBase64Tests {
    static let full = String(repeating: "QUJD", count: 19)  // 76 symbols

    /// The block's lines are the runs of `text` (16 symbols or more) that continue it.
    static func block(_ text: [UInt8]) -> WrappedBase64 {
        var block = WrappedBase64()
        text.withUnsafeBytes { bytes in
            Base64Runs.forEach(in: bytes, minLength: 16) { run in
                if block.lines.isEmpty || block.continues(with: run, in: bytes) { block.lines.append(run) }
            }
        }
        return block
    }

    static func whole(_ text: String) -> Range<Int>? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { block(bytes).whole(in: $0, minRun: 16) }
    }

    @Test func fullLinesThenAShortOneMakeOneBlock() {
        // LF and CRLF; the short last line, padded, is taken in.
        #expect(Self.whole("\(Self.full)\n\(Self.full)\nQUI=\n") == 0..<158)
        #expect(Self.whole("\(Self.full)\r\n\(Self.full)\r\nQUI=\r\n") == 0..<160)
        // A last line of 16 symbols or more is a run: it continues the block, or is no part of it.
        #expect(Self.whole("\(Self.full)\n\(Self.full)\nQUJDQUJDQUJDQUJD\n") == 0..<170)
        #expect(Self.whole("\(Self.full)\n\(Self.full)\n\(Self.full)QUJD\n") == 0..<153)
        // A full line after the block that did not join it (it starts the next chunk of a text)
        // is left to its own block.
        var block = WrappedBase64()
        block.lines = [0..<76, 77..<153]
        let threeLines = Array("\(Self.full)\n\(Self.full)\n\(Self.full)\n".utf8)
        #expect(threeLines.withUnsafeBytes { block.whole(in: $0, minRun: 16) } == 0..<153)
        // One line, then a short one: a block too.
        #expect(Self.whole("\(Self.full)\nQUJD") == 0..<81)
    }

    @Test func whatIsNoBlock() {
        // One line alone; lines of other widths; a padded line before another; a blank line between.
        #expect(Self.whole("\(Self.full)\n") == nil)
        #expect(Self.whole("\(Self.full)\n\(Self.full)QUJD\n") == nil)
        #expect(Self.whole("\(String(Self.full.dropLast(4)))QUI=\n\(Self.full)\n") == nil)
        #expect(Self.whole("\(Self.full)\n\n\(Self.full)\n") == nil)
        // A short line after a line that is not full (not a multiple of 4) is not taken in.
        #expect(Self.whole("\(String(Self.full.dropLast(1)))\nQUJD\n") == nil)
        // Words after the short line's symbols: no base64 line.
        #expect(Self.whole("\(Self.full)\nQUJD and more\n") == nil)
    }
}
