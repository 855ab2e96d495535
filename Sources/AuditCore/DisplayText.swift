/// Text that came from an input (a key, a header or cookie name, an XML name, a file name, a
/// reason that quotes one) made safe to show on a terminal, in a CI log or on a web page: every
/// character that could move the cursor, recolour or hide text, end a line, or reorder what is
/// shown is written visibly as `\u001B`. Without it, a key such as
/// `"k\n\nNo findings … Gate passed.\n\u{1B}[8m"` forges the summary line and hides the finding.
///
/// Escaped: C0 controls (tab and line breaks included: a name never holds a meaningful one), DEL,
/// C1 controls, the line and paragraph separators U+2028 and U+2029, and the bidirectional
/// marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069; "Trojan Source"). A backslash is left as it is: the escapes only have to be
/// visible, and a literal `\u001B` in a name is as harmless as it looks.
public enum DisplayText {
    public static func escaped(_ text: String) -> String {
        // Most names are printable ASCII: returned as they are after one pass over the bytes.
        if text.utf8AllSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        // Into bytes: a scalar appended to a string took some 300 instructions.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                appendVisible(scalar, to: &out)
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `scalar` written visibly: `\u` and at least four uppercase hex digits (`\u001B`).
    public static func appendVisible(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        var shift = 12
        while shift + 4 < 32 && scalar.value >> (shift + 4) != 0 { shift += 4 }
        while shift >= 0 {
            out.append(digits.utf8Start[Int((scalar.value >> UInt32(shift)) & 15)])
            shift -= 4
        }
    }

    /// As `escaped`, keeping line feeds: for whole messages of several lines (stderr).
    public static func escapedKeepingLines(_ text: String) -> String {
        if text.utf8AllSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
