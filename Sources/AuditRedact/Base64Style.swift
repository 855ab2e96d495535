import AuditBytes

/// How a base64 text was written, so that a redacted payload is encoded the same way: the
/// alphabet (standard or URL-safe), padding, and the line length and line break of MIME or
/// Android's `Base64.DEFAULT` (76 characters, LF, and a final LF).
struct Base64Style: Equatable {
    var alphabet: Base64.Alphabet
    var padded: Bool
    /// Characters per line, when the text is wrapped.
    var lineLength: Int?
    var lineBreak: [UInt8] = [0x0A]
    var finalLineBreak = false

    init(alphabet: Base64.Alphabet = .standard, padded: Bool = true, lineLength: Int? = nil) {
        self.alphabet = alphabet
        self.padded = padded
        self.lineLength = lineLength
    }

    /// The style of `text`. Without `+`, `/`, `-` or `_` the alphabet is standard; without `=`
    /// padding is kept only where the length needed none.
    init<C: BidirectionalCollection>(of text: C) where C.Element == UInt8 {
        var url = false
        var padding = false
        var symbols = 0
        var firstLine: Int?
        var sawCR = false
        for b in text {
            switch b {
            case UInt8(ascii: "-"), UInt8(ascii: "_"): url = true
            case UInt8(ascii: "="): padding = true
            case 0x0D: if firstLine == nil { firstLine = symbols; sawCR = true }
            case 0x0A: if firstLine == nil { firstLine = symbols }
            default: break
            }
            if b != 0x0A && b != 0x0D { symbols += 1 }
        }
        alphabet = url ? .url : .standard
        // Unpadded text whose length needs no padding says nothing: pad the standard alphabet.
        padded = padding || (!url && symbols % 4 == 0)
        if let firstLine, firstLine > 0, firstLine < symbols {
            lineLength = firstLine
            lineBreak = sawCR ? [0x0D, 0x0A] : [0x0A]
        }
        finalLineBreak = text.last == 0x0A
        if finalLineBreak && lineLength == nil { lineBreak = sawCR ? [0x0D, 0x0A] : [0x0A] }
    }

    /// Decodes `text` in this style's alphabet (line breaks ignored).
    func decode<C: Collection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
        Base64.decode(text, alphabet: alphabet, ignoringLineBreaks: true)
            ?? Base64.decode(text, alphabet: alphabet == .standard ? .url : .standard, ignoringLineBreaks: true)
    }

    /// `bytes` encoded in this style.
    func encode(_ bytes: [UInt8]) -> [UInt8] {
        let table = Array((alphabet == .url
            ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
        var symbols: [UInt8] = []
        symbols.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            symbols += [table[Int(v >> 18)], table[Int(v >> 12 & 63)], table[Int(v >> 6 & 63)], table[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            symbols += [table[Int(v >> 18)], table[Int(v >> 12 & 63)]]
            if padded { symbols += [UInt8(ascii: "="), UInt8(ascii: "=")] }
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            symbols += [table[Int(v >> 18)], table[Int(v >> 12 & 63)], table[Int(v >> 6 & 63)]]
            if padded { symbols.append(UInt8(ascii: "=")) }
        }
        guard let lineLength, lineLength > 0 else {
            return finalLineBreak ? symbols + lineBreak : symbols
        }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count + symbols.count / lineLength * lineBreak.count + lineBreak.count)
        var start = 0
        while start < symbols.count {
            let end = min(start + lineLength, symbols.count)
            output += symbols[start..<end]
            if end < symbols.count || finalLineBreak { output += lineBreak }
            start = end
        }
        return output
    }
}
