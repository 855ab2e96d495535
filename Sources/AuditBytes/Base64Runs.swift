/// The runs of base64 symbols (of either alphabet) in a text, each with the `=` padding after it
/// (two at most): where base64 may stand in prose, code or a log line.
public enum Base64Runs {
    /// Calls `body` with each run of `minLength` bytes or more, in order. Reads 16 bytes at a
    /// time as a mask of symbols, and stops only where the mask changes (a run starts or ends):
    /// on 4 MB of JavaScript, whose identifiers are runs every few bytes, some 31 M instructions
    /// against 41 M byte by byte (callgrind, BENCHMARKS.md). `Base64RunsTests` checks it against
    /// the plain scan.
    public static func forEach(in text: UnsafeRawBufferPointer, minLength: Int, _ body: (Range<Int>) -> Void) {
        // The start of the run open, or -1.
        var runStart = -1
        // The run open ends at `end`, the first byte after it.
        func close(_ end: Int) {
            var padded = end
            while padded < text.count && padded - end < 2 && text[padded] == UInt8(ascii: "=") { padded += 1 }
            if padded - runStart >= minLength { body(runStart..<padded) }
            runStart = -1
        }
        var block = 0
        while block + 16 <= text.count {
            let symbols = Base64.symbolMasks16(text.baseAddress! + block).symbols
            // A bit at each byte whose symbol-ness differs from the byte's before it.
            var changes = (symbols ^ (symbols << 1 | (runStart >= 0 ? 1 : 0))) & 0xFFFF
            while changes != 0 {
                let at = block + changes.trailingZeroBitCount
                changes &= changes - 1
                if runStart < 0 { runStart = at } else { close(at) }
            }
            block += 16
        }
        // The last bytes, fewer than 16, one by one.
        let values = Base64.values(in: nil)
        for i in block..<text.count {
            let isSymbol = values[Int(text[i])] != 0xFF
            if isSymbol && runStart < 0 { runStart = i } else if !isSymbol && runStart >= 0 { close(i) }
        }
        if runStart >= 0 { close(text.count) }
    }
}
