import AuditBytes

/// The numbers that frame an HTTP/1.1 body, read strictly (RFC 9110 §8.6, RFC 9112 §7.1): a
/// `Content-Length` is decimal digits, a chunk size hex digits, and a number too large for an
/// `Int` is an error, never a trap. A lax read (`+5`, `1e23`, `5abc`) would frame the body
/// otherwise than the sender did, and bytes could escape the scan; an ignored one would too.
public enum HTTPFraming {
    /// A `Content-Length` value (blanks around it already trimmed): `1*DIGIT`, or a list of
    /// identical ones (`5, 5`), which RFC 9112 §6.3 lets a recipient take as one; differing
    /// values are an error. Returns the length or why the value is refused.
    static func contentLength(_ value: UnsafeRawBufferPointer) -> Result<Int, HTTPFramingError> {
        var length: Int?
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last && isBlank(value[first]) { first += 1 }
            while last > first && isBlank(value[last - 1]) { last -= 1 }
            guard first < last else { return .failure(.notDecimal) }
            var number = 0
            for i in first..<last {
                let digit = Int(value[i] &- UInt8(ascii: "0"))
                guard digit < 10 else { return .failure(.notDecimal) }
                let (times, overflow) = number.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(digit)
                guard !overflow && !carry else { return .failure(.tooLarge) }
                number = sum
            }
            if let length, length != number { return .failure(.differing) }
            length = number
            start = end + 1
        }
        return .success(length!)
    }

    /// A chunk-size line: `1*HEXDIG`, blanks, then nothing or a `;` and chunk extensions (any
    /// bytes to the end of the line, scanned as text). Returns the size and where the
    /// extensions start (the `;`), or why the line is refused.
    public static func chunkSize(_ line: UnsafeRawBufferPointer) -> Result<(size: Int, extensions: Int?), HTTPFramingError> {
        var size = 0
        var i = 0
        while i < line.count, let digit = hexValue(line[i]) {
            guard size <= (Int.max - digit) / 16 else { return .failure(.tooLarge) }
            size = size * 16 + digit
            i += 1
        }
        guard i > 0 else { return .failure(.notHex) }
        while i < line.count && isBlank(line[i]) { i += 1 }
        if i == line.count { return .success((size, nil)) }
        guard line[i] == UInt8(ascii: ";") else { return .failure(.notHex) }
        return .success((size, i))
    }

    /// Optional whitespace (RFC 9110 OWS): a space or a tab.
    static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    private static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// Why a framing number was refused.
public enum HTTPFramingError: Error, Equatable {
    case notDecimal, notHex, tooLarge, differing

    /// The message for a Content-Length value.
    var contentLengthMessage: String {
        switch self {
        case .notDecimal, .notHex: "Content-Length is not a decimal number"
        case .tooLarge: "Content-Length is too large to represent"
        case .differing: "Content-Length values differ"
        }
    }

    /// The message for a chunk-size line.
    var chunkSizeMessage: String {
        switch self {
        case .tooLarge: "chunk size is too large to represent"
        default: "malformed chunk size (hex digits, then an optional ';' extension)"
        }
    }
}
