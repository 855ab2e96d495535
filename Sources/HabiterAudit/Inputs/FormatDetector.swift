/// Decides an input's format from its content, never from its name.
public enum FormatDetector {
    /// The format of `bytes`, or the reason it cannot be determined. `json` here stands for the
    /// JSON family: the JSON reader tells one document from NDJSON as it reads.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> Result<InputFormat, JSONSyntaxError> {
        var reader = JSONReader(bytes)
        do {
            try reader.skipByteOrderMark()
        } catch {
            return .failure(error as! JSONSyntaxError)
        }
        reader.skipWhitespace()
        guard let first = reader.currentByte else {
            return .failure(JSONSyntaxError(.emptyInput, at: reader.position))
        }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            return .success(.json)
        default:
            return .failure(JSONSyntaxError(.unexpectedCharacter("\(describeByte(first)): the input format cannot be determined (expected JSON or NDJSON)"), at: reader.position))
        }
    }
}
