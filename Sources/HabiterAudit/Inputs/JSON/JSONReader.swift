/// Receives the tokens of a JSON text in document order. String and number bytes are raw slices
/// of the input (valid only during the call); offsets are 0-based byte offsets of the token's
/// first byte in the reader's buffer.
public protocol JSONVisitor {
    mutating func objectStart(at offset: Int) throws
    mutating func objectEnd(at offset: Int) throws
    mutating func arrayStart(at offset: Int) throws
    mutating func arrayEnd(at offset: Int) throws
    /// An object key. `raw` excludes the quotes; `escaped` says whether it holds a backslash.
    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws
    /// A string value. `raw` excludes the quotes; `escaped` says whether it holds a backslash.
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws
    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws
    mutating func literal(_ value: JSONLiteral, at offset: Int) throws
}

public enum JSONLiteral: Sendable {
    case `true`, `false`, null
}

/// A byte-level RFC 8259 reader: iterative (an explicit container stack, never recursion),
/// validating (UTF-8, escapes, surrogate pairs, number grammar) and allocation-free per token.
public struct JSONReader {
    /// Default maximum nesting of arrays and objects.
    public static let defaultMaxDepth = 512

    private let base: UnsafePointer<UInt8>
    private let end: Int
    public let maxDepth: Int
    /// Offset of the next unread byte.
    public private(set) var position: Int

    /// A reader over `bytes[range]`; offsets it reports are offsets into `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil, maxDepth: Int = JSONReader.defaultMaxDepth) {
        let range = range ?? 0..<bytes.count
        if let start = bytes.baseAddress {
            base = start.assumingMemoryBound(to: UInt8.self)
        } else {
            base = emptyByteBase
        }
        end = range.upperBound
        position = range.lowerBound
        self.maxDepth = maxDepth
    }

    /// Reads a whole JSON text: optional UTF-8 BOM, one value, optional whitespace, end.
    public mutating func readText<V: JSONVisitor>(_ visitor: inout V) throws {
        try skipByteOrderMark()
        skipWhitespace()
        if position >= end { throw JSONSyntaxError(.emptyInput, at: position) }
        try readValue(&visitor)
        skipWhitespace()
        if position < end { throw JSONSyntaxError(.trailingContent, at: position) }
    }

    /// Skips a UTF-8 byte-order mark; refuses UTF-16 and UTF-32 ones.
    public mutating func skipByteOrderMark() throws {
        let n = end - position
        if n >= 4, base[position] == 0, base[position + 1] == 0, base[position + 2] == 0xFE, base[position + 3] == 0xFF {
            throw JSONSyntaxError(.unsupportedEncoding("UTF-32"), at: position)
        }
        if n >= 2, (base[position] == 0xFE && base[position + 1] == 0xFF) || (base[position] == 0xFF && base[position + 1] == 0xFE) {
            throw JSONSyntaxError(.unsupportedEncoding(n >= 4 && base[position + 2] == 0 && base[position + 3] == 0 ? "UTF-32" : "UTF-16"), at: position)
        }
        if n >= 3, base[position] == 0xEF, base[position + 1] == 0xBB, base[position + 2] == 0xBF { position += 3 }
    }

    /// Skips JSON whitespace (space, tab, LF, CR).
    @inline(__always)
    public mutating func skipWhitespace() {
        var i = position
        while i < end {
            let b = base[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
        }
        position = i
    }

    /// True when only whitespace remains.
    public var atEnd: Bool { position >= end }

    /// The byte at the current position, if any.
    public var currentByte: UInt8? { position < end ? base[position] : nil }

    /// Reads exactly one value starting at the current position (no leading whitespace allowed
    /// beyond what `skipWhitespace` consumed) and leaves the position just after it.
    public mutating func readValue<V: JSONVisitor>(_ visitor: inout V) throws {
        // The container stack: true for an object, false for an array.
        let stack = UnsafeMutablePointer<Bool>.allocate(capacity: maxDepth + 1)
        defer { stack.deallocate() }
        var depth = 0
        var i = position
        defer { position = i }

        var expect = JSONExpect.value

        while true {
            // Whitespace between tokens.
            while i < end {
                let b = base[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
            }
            if i >= end { throw JSONSyntaxError(.unexpectedEnd, at: i) }
            let b = base[i]

            switch expect {
            case .value, .valueOrArrayEnd:
                switch b {
                case UInt8(ascii: "\""):
                    let (contentEnd, escaped) = try scanString(from: i)
                    try visitor.string(UnsafeBufferPointer(start: base + i + 1, count: contentEnd - i - 1), escaped: escaped, at: i)
                    i = contentEnd + 1
                case UInt8(ascii: "{"):
                    if depth >= maxDepth { throw JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: i) }
                    stack[depth] = true
                    depth += 1
                    try visitor.objectStart(at: i)
                    i += 1
                    expect = .keyOrObjectEnd
                    continue
                case UInt8(ascii: "["):
                    if depth >= maxDepth { throw JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: i) }
                    stack[depth] = false
                    depth += 1
                    try visitor.arrayStart(at: i)
                    i += 1
                    expect = .valueOrArrayEnd
                    continue
                case UInt8(ascii: "]") where expect == .valueOrArrayEnd:
                    depth -= 1
                    try visitor.arrayEnd(at: i)
                    i += 1
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let numberEnd = try scanNumber(from: i)
                    try visitor.number(UnsafeBufferPointer(start: base + i, count: numberEnd - i), at: i)
                    i = numberEnd
                case UInt8(ascii: "t"):
                    try expectLiteral("true", at: i)
                    try visitor.literal(.true, at: i)
                    i += 4
                case UInt8(ascii: "f"):
                    try expectLiteral("false", at: i)
                    try visitor.literal(.false, at: i)
                    i += 5
                case UInt8(ascii: "n"):
                    try expectLiteral("null", at: i)
                    try visitor.literal(.null, at: i)
                    i += 4
                default:
                    throw JSONSyntaxError(expect == .value ? .expectedValue : .unexpectedCharacter(describeByte(b)), at: i)
                }
            case .keyOrObjectEnd, .key:
                if b == UInt8(ascii: "\"") {
                    let (contentEnd, escaped) = try scanString(from: i)
                    try visitor.key(UnsafeBufferPointer(start: base + i + 1, count: contentEnd - i - 1), escaped: escaped, at: i)
                    i = contentEnd + 1
                    while i < end {
                        let c = base[i]
                        if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
                    }
                    if i >= end { throw JSONSyntaxError(.unexpectedEnd, at: i) }
                    if base[i] != UInt8(ascii: ":") { throw JSONSyntaxError(.expectedColon, at: i) }
                    i += 1
                    expect = .value
                    continue
                } else if b == UInt8(ascii: "}") && expect == .keyOrObjectEnd {
                    depth -= 1
                    try visitor.objectEnd(at: i)
                    i += 1
                } else {
                    throw JSONSyntaxError(.expectedKey, at: i)
                }
            case .commaOrEnd:
                let inObject = stack[depth - 1]
                if b == UInt8(ascii: ",") {
                    i += 1
                    expect = inObject ? .key : .value
                    continue
                } else if inObject && b == UInt8(ascii: "}") {
                    depth -= 1
                    try visitor.objectEnd(at: i)
                    i += 1
                } else if !inObject && b == UInt8(ascii: "]") {
                    depth -= 1
                    try visitor.arrayEnd(at: i)
                    i += 1
                } else {
                    throw JSONSyntaxError(.expectedCommaOrEnd(container: inObject ? "object" : "array"), at: i)
                }
            }
            // A value (scalar or container end) was completed.
            if depth == 0 { return }
            expect = .commaOrEnd
        }
    }

    @inline(__always)
    private func expectLiteral(_ word: StaticString, at i: Int) throws {
        let n = word.utf8CodeUnitCount
        if i + n > end {
            throw JSONSyntaxError(.invalidLiteral, at: i)
        }
        let w = word.utf8Start
        for k in 0..<n where base[i + k] != w[k] {
            throw JSONSyntaxError(.invalidLiteral, at: i)
        }
    }

    /// Validates the number at `i`; returns the offset after it.
    @inline(__always)
    private func scanNumber(from start: Int) throws -> Int {
        var i = start
        @inline(__always) func isDigit(_ k: Int) -> Bool { k < end && base[k] &- 0x30 < 10 }
        if base[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end else { throw JSONSyntaxError(.invalidNumber, at: start) }
        if base[i] == UInt8(ascii: "0") {
            i += 1
        } else if isDigit(i) {
            while isDigit(i) { i += 1 }
        } else {
            throw JSONSyntaxError(.invalidNumber, at: start)
        }
        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw JSONSyntaxError(.invalidNumber, at: start) }
            while isDigit(i) { i += 1 }
        }
        if i < end && (base[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { throw JSONSyntaxError(.invalidNumber, at: start) }
            while isDigit(i) { i += 1 }
        }
        return i
    }

    /// Validates the string whose opening quote is at `quote`. Returns the offset of the closing
    /// quote and whether the content holds escapes.
    @inline(__always)
    private func scanString(from quote: Int) throws -> (Int, Bool) {
        var i = quote + 1
        var escaped = false
        while true {
            // Eight bytes at a time while none is a quote, backslash, control or non-ASCII byte.
            while i &+ 8 <= end {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if JSONReader.hasSpecialByte(w) { break }
                i &+= 8
            }
            guard i < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                return (i, escaped)
            } else if b == UInt8(ascii: "\\") {
                escaped = true
                i = try scanEscape(at: i)
            } else if b < 0x20 {
                throw JSONSyntaxError(.controlCharacterInString, at: i)
            } else if b < 0x80 {
                i += 1
            } else {
                i = try scanUTF8Sequence(at: i)
            }
        }
    }

    /// True when a byte of `w` is '"', '\\', below 0x20 or at least 0x80.
    @inline(__always)
    static func hasSpecialByte(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ (ones &* 0x22)
        let s = w ^ (ones &* 0x5C)
        let quote = (q &- ones) & ~q
        let backslash = (s &- ones) & ~s
        let control = (w &- ones &* 0x20) & ~w
        return (quote | backslash | control | w) & highs != 0
    }

    /// Validates the escape at `i` (a backslash); returns the offset after it.
    private func scanEscape(at i: Int) throws -> Int {
        guard i + 1 < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: i + 2, escapeAt: i)
            if unit >= 0xDC00 && unit <= 0xDFFF { throw JSONSyntaxError(.loneSurrogate, at: i) }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 7 < end, base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(.loneSurrogate, at: i)
                }
                let low = try hex4(at: i + 8, escapeAt: i + 6)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw JSONSyntaxError(.loneSurrogate, at: i) }
                return i + 12
            }
            return i + 6
        default:
            throw JSONSyntaxError(.invalidEscape, at: i)
        }
    }

    private func hex4(at i: Int, escapeAt: Int) throws -> UInt32 {
        guard i + 4 <= end else { throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeAt) }
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let digit = hexValue(base[i + k]) else { throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeAt) }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF); returns the offset after it.
    @inline(__always)
    private func scanUTF8Sequence(at i: Int) throws -> Int {
        let length = utf8SequenceLength(base, at: i, end: end)
        if length == 0 { throw JSONSyntaxError(.invalidUTF8, at: i) }
        return i + length
    }
}

/// What the reader accepts next: a value; a value or ']' (after '['); a key or '}' (after '{');
/// a key (after ','); ',' or the container end (after a value).
private enum JSONExpect { case value, valueOrArrayEnd, keyOrObjectEnd, key, commaOrEnd }

/// The value of an ASCII hex digit.
@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// The length of the valid UTF-8 sequence starting at `base[i]` (a byte ≥ 0x80), or 0 when it
/// is invalid or truncated before `end`.
@inline(__always)
func utf8SequenceLength(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
    let b0 = base[i]
    @inline(__always) func cont(_ k: Int) -> Bool { k < end && base[k] & 0xC0 == 0x80 }
    switch b0 {
    case 0xC2...0xDF:
        return cont(i + 1) ? 2 : 0
    case 0xE0...0xEF:
        guard i + 2 < end else { return 0 }
        let b1 = base[i + 1]
        let ok1: Bool
        switch b0 {
        case 0xE0: ok1 = b1 >= 0xA0 && b1 <= 0xBF
        case 0xED: ok1 = b1 >= 0x80 && b1 <= 0x9F
        default: ok1 = b1 & 0xC0 == 0x80
        }
        return ok1 && cont(i + 2) ? 3 : 0
    case 0xF0...0xF4:
        guard i + 3 < end else { return 0 }
        let b1 = base[i + 1]
        let ok1: Bool
        switch b0 {
        case 0xF0: ok1 = b1 >= 0x90 && b1 <= 0xBF
        case 0xF4: ok1 = b1 >= 0x80 && b1 <= 0x8F
        default: ok1 = b1 & 0xC0 == 0x80
        }
        return ok1 && cont(i + 2) && cont(i + 3) ? 4 : 0
    default:
        return 0
    }
}
