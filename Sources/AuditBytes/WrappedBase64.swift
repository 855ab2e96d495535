/// A block of base64 wrapped into lines (`base64`'s and MIME's 76 symbols a line, PEM's and
/// OpenSSL's 64), collected from its runs (`Base64Runs`) one line at a time: every line but the
/// last as long as the first, a multiple of 4 and unpadded, each right after the line break (LF
/// or CRLF) of the one before, the last no longer than the first.
public struct WrappedBase64 {
    /// The runs of the block so far.
    public var lines: [Range<Int>] = []

    public init() {}

    /// Whether `run` is the block's next line.
    public func continues(with run: Range<Int>, in text: UnsafeRawBufferPointer) -> Bool {
        guard let last = lines.last, isFull(last, in: text), run.count <= lines[0].count else { return false }
        return lineBreakEnd(after: last.upperBound, in: text) == run.lowerBound
    }

    /// The whole block, its line breaks in it, when it has more than one line. A last line too
    /// short to be a run of its own (fewer than `minRun` symbols, and nothing else on the line:
    /// `Base64Runs` reports none) is taken in when the line before it is full; a longer one is a
    /// run, and another block's when it did not continue this one (it starts another chunk of a
    /// text, or is too long).
    public func whole(in text: UnsafeRawBufferPointer, minRun: Int) -> Range<Int>? {
        guard let first = lines.first, let last = lines.last else { return nil }
        var end = last.upperBound
        if isFull(last, in: text), let start = lineBreakEnd(after: end, in: text) {
            let values = Base64.values(in: nil)
            var i = start
            while i < text.count && i - start < minRun && values[Int(text[i])] != 0xFF { i += 1 }
            let symbols = i - start
            while i < text.count && i - start < symbols + 2 && text[i] == UInt8(ascii: "=") { i += 1 }
            if symbols > 0 && symbols < minRun && (i == text.count || text[i] == 0x0A || text[i] == 0x0D) { end = i }
        }
        return end > last.upperBound || lines.count > 1 ? first.lowerBound..<end : nil
    }

    /// A line as long as the first, a multiple of 4, without padding: another may follow.
    private func isFull(_ line: Range<Int>, in text: UnsafeRawBufferPointer) -> Bool {
        line.count == lines[0].count && line.count % 4 == 0 && text[line.upperBound - 1] != UInt8(ascii: "=")
    }

    /// Where the next line starts, when a line break (LF or CRLF) is at `offset`.
    private func lineBreakEnd(after offset: Int, in text: UnsafeRawBufferPointer) -> Int? {
        if offset < text.count && text[offset] == 0x0A { return offset + 1 }
        if offset + 1 < text.count && text[offset] == 0x0D && text[offset + 1] == 0x0A { return offset + 2 }
        return nil
    }
}
