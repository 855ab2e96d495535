/// Decides an input's format from its content, never from its name.
public enum FormatDetector {
    /// The format of the input in `window`, or why it cannot be determined. `json` stands for
    /// the JSON family: the JSON reader tells one document from NDJSON as it reads. On success,
    /// `start` is the absolute offset of the first byte after a byte-order mark and whitespace.
    public static func detect(_ window: ByteWindow) -> Result<(format: InputFormat, start: Int), JSONSyntaxError> {
        var reader = JSONReader(window: window)
        do {
            try reader.skipByteOrderMark()
            try reader.skipWhitespace()
        } catch {
            return .failure(error as! JSONSyntaxError)
        }
        guard let first = reader.currentByte else {
            return .failure(JSONSyntaxError(.emptyInput, at: reader.position))
        }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            return .success((.json, reader.position))
        default:
            return .failure(JSONSyntaxError(.unexpectedCharacter("\(describeByte(first)): the input format cannot be determined (expected JSON or NDJSON)"), at: reader.position))
        }
    }
}
