/// Why a JSON text was rejected. Messages name the kind of the offending input, never its content.
public enum JSONSyntaxReason: Equatable, Sendable {
    case emptyInput
    case unexpectedEnd
    case unexpectedCharacter(String)
    case expectedValue
    case expectedKey
    case expectedColon
    case expectedCommaOrEnd(container: String)
    case trailingContent
    case controlCharacterInString
    case invalidEscape
    case invalidUnicodeEscape
    case loneSurrogate
    case invalidUTF8
    case invalidNumber
    case invalidLiteral
    case nestingTooDeep(limit: Int)
    case unsupportedEncoding(String)
    case documentSpansLines

    public var message: String {
        switch self {
        case .emptyInput: return "empty input: no JSON value"
        case .unexpectedEnd: return "unexpected end of input"
        case .unexpectedCharacter(let kind): return "unexpected \(kind)"
        case .expectedValue: return "expected a value"
        case .expectedKey: return "expected a string key"
        case .expectedColon: return "expected ':' after an object key"
        case .expectedCommaOrEnd(let container): return "expected ',' or the end of the \(container)"
        case .trailingContent: return "unexpected content after the JSON value"
        case .controlCharacterInString: return "unescaped control character in a string"
        case .invalidEscape: return "invalid escape sequence in a string"
        case .invalidUnicodeEscape: return "invalid \\u escape: expected four hex digits"
        case .loneSurrogate: return "lone UTF-16 surrogate in a \\u escape"
        case .invalidUTF8: return "invalid UTF-8"
        case .invalidNumber: return "invalid number"
        case .invalidLiteral: return "invalid literal (expected true, false or null)"
        case .nestingTooDeep(let limit): return "nesting deeper than the limit of \(limit)"
        case .unsupportedEncoding(let name): return "\(name) input is not supported; JSON must be UTF-8"
        case .documentSpansLines: return "NDJSON document continues past the end of its line"
        }
    }
}

/// A JSON syntax error at a byte offset of the text being read.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var reason: JSONSyntaxReason
    /// 0-based byte offset in the buffer given to the reader.
    public var offset: Int

    public init(_ reason: JSONSyntaxReason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}

/// Describes a byte for an error message without echoing input content beyond one
/// structural character.
func describeByte(_ b: UInt8) -> String {
    switch b {
    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
         UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "\""):
        return "'\(Character(Unicode.Scalar(b)))'"
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return "digit"
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return "letter"
    case 0: return "NUL byte"
    case 0x01..<0x20, 0x7F: return "control character"
    case 0x80...: return "non-ASCII byte"
    default: return "character '\(Character(Unicode.Scalar(b)))'"
    }
}
