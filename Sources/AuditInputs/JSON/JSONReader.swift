import AuditBytes

/// Receives the tokens of a JSON text in document order. String and number bytes are raw slices
/// of the input (valid only during the call); offsets are absolute byte offsets of the token's
/// first byte.
public protocol JSONVisitor {
    mutating func objectStart(at offset: Int) throws
    mutating func objectEnd(at offset: Int) throws
    mutating func arrayStart(at offset: Int) throws
    mutating func arrayEnd(at offset: Int) throws
    /// An object key. `raw` excludes the quotes; `escaped` says whether it holds a backslash.
    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws
    /// A string value. `raw` excludes the quotes; `escaped` says whether it holds a backslash.
    /// A reader given `longStringBytes` hands a long escaped value unescaped instead (with
    /// `escaped` false), in a buffer of its own: `offset` is then all that says where it is.
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws
    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws
    mutating func literal(_ value: JSONLiteral, at offset: Int) throws
    /// Whether the value about to be read, whose first byte `firstByte` is at `offset`, is to be
    /// skipped: read past with no event (a part of the input another worker of a parallel scan
    /// visits). Nil: it is read. Else the absolute offset of the value to skip: `offset`, or the
    /// start of a later value of the same array, when the values before it are passed unread
    /// (another worker has begun that one: `ScanShare`). A visitor that skips accounts for the
    /// values itself. Never asked for an array's closing bracket.
    mutating func skipsValue(at offset: Int, firstByte: UInt8) -> Int?
}

extension JSONVisitor {
    /// Visitors visit every value.
    @inline(__always)
    public mutating func skipsValue(at offset: Int, firstByte: UInt8) -> Int? { nil }
}

public enum JSONLiteral: Sendable {
    case `true`, `false`, null
}

/// A byte-level RFC 8259 reader: iterative (an explicit container stack, never recursion),
/// validating (UTF-8, escapes, surrogate pairs, number grammar), allocation-free per token, and
/// streaming: it reads through a `ByteWindow`, asking for more bytes only at the end of the
/// visible ones, so memory is bounded by the largest token.
public struct JSONReader {
    /// Default maximum nesting of arrays and objects.
    public static let defaultMaxDepth = 512

    public let window: ByteWindow
    public let maxDepth: Int
    /// An escaped string value this long (raw) is unescaped as it is read from then on, when
    /// the window is not pinned: the window keeps only what is not yet unescaped, so a 100 MB
    /// string costs its unescaped copy, not that and its raw bytes too. Nil: strings are handed
    /// raw, where they stand in the window.
    public let longStringBytes: Int?
    /// The `longStringBytes` of the scan's JSON inputs.
    public static let defaultLongStringBytes = 8 << 20
    /// Absolute offset the reader may not read past (an NDJSON line end), if any.
    private let limit: Int?
    /// Window-relative view, refreshed after every `extend`.
    private var base: UnsafePointer<UInt8>
    private var windowStart: Int
    private var end: Int
    /// Relative offset of the next unread byte.
    private var next: Int

    /// Absolute offset of the next unread byte.
    public var position: Int { windowStart + next }

    /// A reader over `window` from absolute offset `start`, not reading past `limit`.
    public init(window: ByteWindow, start: Int? = nil, limit: Int? = nil, maxDepth: Int = JSONReader.defaultMaxDepth,
                longStringBytes: Int? = nil) {
        self.window = window
        self.limit = limit
        self.maxDepth = maxDepth
        self.longStringBytes = longStringBytes
        base = window.base
        windowStart = window.start
        end = 0
        next = (start ?? window.start) - window.start
        end = visibleEnd()
    }

    /// A reader over a whole buffer (offsets are offsets into `bytes`).
    public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONReader.defaultMaxDepth) {
        self.init(window: ByteWindow(whole: bytes), maxDepth: maxDepth)
    }

    @inline(__always)
    private func visibleEnd() -> Int {
        let absolute = limit.map { min($0, window.end) } ?? window.end
        return absolute - windowStart
    }

    /// Makes more bytes visible, keeping those from relative offset `keep`. The window may move
    /// even when nothing more can be read, so `next` is rebased here and callers holding other
    /// relative offsets rebase them through absolute offsets. Returns false when no more bytes
    /// exist.
    @inline(never)
    private mutating func refill(keeping keep: Int) -> Bool {
        if let limit, window.end >= limit { return false }
        let absoluteNext = windowStart + next
        let more = window.extend(keeping: windowStart + keep)
        takeWindowBounds()
        next = absoluteNext - windowStart
        return more
    }

    /// Takes the window's bytes as they are after it moved.
    private mutating func takeWindowBounds() {
        base = window.base
        windowStart = window.start
        end = visibleEnd()
    }

    /// True when no byte can follow the visible ones.
    private var isFinal: Bool {
        if let limit, window.end >= limit { return true }
        return window.isComplete
    }

    /// Reads a whole JSON text: optional UTF-8 BOM, one value, optional whitespace, end.
    public mutating func readText<V: JSONVisitor>(_ visitor: inout V) throws {
        try skipByteOrderMark()
        try skipWhitespace()
        if atEnd { throw JSONSyntaxError(.emptyInput, at: position) }
        try readValue(&visitor)
        try skipWhitespace()
        if !atEnd { throw JSONSyntaxError(.trailingContent, at: position) }
    }

    /// Skips a UTF-8 byte-order mark; refuses UTF-16 and UTF-32 ones.
    public mutating func skipByteOrderMark() throws {
        while end - next < 4 && refill(keeping: next) {}
        let n = end - next
        let p = base + next
        if n >= 4, p[0] == 0, p[1] == 0, p[2] == 0xFE, p[3] == 0xFF {
            throw JSONSyntaxError(.unsupportedEncoding("UTF-32"), at: position)
        }
        if n >= 2, (p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE) {
            throw JSONSyntaxError(.unsupportedEncoding(n >= 4 && p[2] == 0 && p[3] == 0 ? "UTF-32" : "UTF-16"), at: position)
        }
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { next += 3 }
    }

    /// Skips JSON whitespace (space, tab, LF, CR). Fails only when the input cannot be read.
    public mutating func skipWhitespace() throws {
        while true {
            while next < end {
                let b = base[next]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { next += 1 } else { return }
            }
            if !refill(keeping: next) { return }
        }
    }

    /// Reads the end of a JSONP call after its value (`JSONPWrapper`): whitespace, `)`, then an
    /// optional `;` and whitespace.
    public mutating func skipJSONPClosing() throws {
        try skipWhitespace()
        guard currentByte == UInt8(ascii: ")") else { throw JSONSyntaxError(atEnd ? .unexpectedEnd : .trailingContent, at: position) }
        next += 1
        try skipWhitespace()
        if currentByte == UInt8(ascii: ";") { next += 1 }
        try skipWhitespace()
    }

    /// True when no byte is left (call after `skipWhitespace`).
    public var atEnd: Bool { next >= end }

    /// The byte at the current position, if any is visible.
    public var currentByte: UInt8? { next < end ? base[next] : nil }

    /// Reads exactly one value starting at the current position and leaves the position just
    /// after it.
    public mutating func readValue<V: JSONVisitor>(_ visitor: inout V) throws {
        // The container stack: true for an object, false for an array.
        let stack = UnsafeMutablePointer<Bool>.allocate(capacity: maxDepth + 1)
        defer { stack.deallocate() }
        var depth = 0
        var expect = JSONExpect.value

        while true {
            // Whitespace between tokens; a line's indentation, after its line feed, eight bytes
            // at a time.
            while true {
                while next < end {
                    let c = base[next]
                    if c == 0x0A {
                        next = Indentation.end(in: base, from: next &+ 1, to: end)
                    } else if c == 0x20 || c == 0x0D || c == 0x09 {
                        next += 1
                    } else {
                        break
                    }
                }
                if next < end { break }
                if !refill(keeping: next) { throw JSONSyntaxError(.unexpectedEnd, at: position) }
            }
            let b = base[next]

            switch expect {
            case .value, .valueOrArrayEnd:
                if expect == .value || b != UInt8(ascii: "]"), let skipped = visitor.skipsValue(at: position, firstByte: b) {
                    if skipped != position { try moveForward(to: skipped) }
                    try skipValue()
                } else {
                    switch b {
                    case UInt8(ascii: "\""):
                        let (contentEnd, escaped, unescaped) = try stringValue()
                        if let unescaped {
                            try unescaped.withBytes { try visitor.string($0, escaped: false, at: position) }
                        } else {
                            try visitor.string(UnsafeBufferPointer(start: base + next + 1, count: contentEnd - next - 1), escaped: escaped, at: position)
                        }
                        next = contentEnd + 1
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        if depth >= maxDepth { throw JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: position) }
                        let isObject = b == UInt8(ascii: "{")
                        stack[depth] = isObject
                        depth += 1
                        if isObject { try visitor.objectStart(at: position) } else { try visitor.arrayStart(at: position) }
                        next += 1
                        expect = isObject ? .keyOrObjectEnd : .valueOrArrayEnd
                        continue
                    case UInt8(ascii: "]") where expect == .valueOrArrayEnd:
                        depth -= 1
                        try visitor.arrayEnd(at: position)
                        next += 1
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        let numberEnd = try number()
                        try visitor.number(UnsafeBufferPointer(start: base + next, count: numberEnd - next), at: position)
                        next = numberEnd
                    case UInt8(ascii: "t"):
                        try literal("true")
                        try visitor.literal(.true, at: position)
                        next += 4
                    case UInt8(ascii: "f"):
                        try literal("false")
                        try visitor.literal(.false, at: position)
                        next += 5
                    case UInt8(ascii: "n"):
                        try literal("null")
                        try visitor.literal(.null, at: position)
                        next += 4
                    default:
                        throw JSONSyntaxError(expect == .value ? .expectedValue : .unexpectedCharacter(describeByte(b)), at: position)
                    }
                }
            case .keyOrObjectEnd, .key:
                if b == UInt8(ascii: "\"") {
                    let (contentEnd, escaped) = try string()
                    try visitor.key(UnsafeBufferPointer(start: base + next + 1, count: contentEnd - next - 1), escaped: escaped, at: position)
                    next = contentEnd + 1
                    while true {
                        while next < end {
                            let c = base[next]
                            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { next += 1 } else { break }
                        }
                        if next < end { break }
                        if !refill(keeping: next) { throw JSONSyntaxError(.unexpectedEnd, at: position) }
                    }
                    if base[next] != UInt8(ascii: ":") { throw JSONSyntaxError(.expectedColon, at: position) }
                    next += 1
                    expect = .value
                    continue
                } else if b == UInt8(ascii: "}") && expect == .keyOrObjectEnd {
                    depth -= 1
                    try visitor.objectEnd(at: position)
                    next += 1
                } else {
                    throw JSONSyntaxError(.expectedKey, at: position)
                }
            case .commaOrEnd:
                let inObject = stack[depth - 1]
                if b == UInt8(ascii: ",") {
                    next += 1
                    expect = inObject ? .key : .value
                    continue
                } else if inObject && b == UInt8(ascii: "}") {
                    depth -= 1
                    try visitor.objectEnd(at: position)
                    next += 1
                } else if !inObject && b == UInt8(ascii: "]") {
                    depth -= 1
                    try visitor.arrayEnd(at: position)
                    next += 1
                } else {
                    throw JSONSyntaxError(.expectedCommaOrEnd(container: inObject ? "object" : "array"), at: position)
                }
            }
            // A value (scalar or container end) was completed.
            if depth == 0 { return }
            expect = .commaOrEnd
        }
    }

    /// Moves past the value that starts at the current position, with no event. An object or
    /// array is not validated: strings are followed (a bracket inside one is text) and brackets
    /// counted, nothing else, for a part of the input that another reader validates (a worker of
    /// a parallel scan skips what another one visits); on valid JSON it ends where `readValue`
    /// would. A string, number or literal is read as `readValue` reads it.
    public mutating func skipValue() throws {
        switch base[next] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipContainer()
        case UInt8(ascii: "\""):
            next = try string().0 + 1
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            next = try number()
        case UInt8(ascii: "t"):
            try literal("true")
            next += 4
        case UInt8(ascii: "f"):
            try literal("false")
            next += 5
        case UInt8(ascii: "n"):
            try literal("null")
            next += 4
        default:
            throw JSONSyntaxError(.expectedValue, at: position)
        }
    }

    /// Moves to absolute `offset`, ahead of the next byte, without reading what lies between:
    /// a part of the input another reader reads (`JSONVisitor.skipsValue`). The window drops
    /// those bytes; their lines are the visitor's to account for (`ByteWindow.adoptCursor`).
    private mutating func moveForward(to offset: Int) throws {
        precondition(offset > windowStart + next, "forward only")
        // Past the visible bytes: unread, where the window can (a reader bounded to a line
        // never moves past it).
        if offset > windowStart + end, limit == nil, window.passUnread(to: offset) { takeWindowBounds() }
        while offset >= windowStart + end {
            if !refill(keeping: end) { throw JSONSyntaxError(.unexpectedEnd, at: windowStart + end) }
        }
        next = offset - windowStart
    }

    /// `skipValue` for an object or array: 64 bytes at a time through the structural index
    /// (`JSONStructuralScanner`), looking only at the brackets outside strings.
    private mutating func skipContainer() throws {
        var scanner = JSONStructuralScanner()
        var depth = 0
        var i = next
        while true {
            let count = min(end - i, StructuralClassifier.blockSize)
            if count < StructuralClassifier.blockSize && !isFinal {
                // Bytes the scanner has not read are kept; it goes on with them after the refill.
                next = i
                _ = refill(keeping: next)
                i = next
                continue
            }
            if count == 0 { throw JSONSyntaxError(.unexpectedEnd, at: windowStart + i) }
            let masks = count == StructuralClassifier.blockSize ? scanner.next(block: base + i)
                : scanner.next(partial: UnsafeBufferPointer(start: base + i, count: count))
            var structural = masks.structuralOutsideStrings
            while structural != 0 {
                let at = i &+ structural.trailingZeroBitCount
                structural &= structural &- 1
                switch base[at] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        next = at &+ 1
                        return
                    }
                default:
                    break
                }
            }
            i &+= count
        }
    }

    /// Validates the literal at `next`, reading more when it is cut off.
    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        while end - next < n {
            if !refill(keeping: next) { throw JSONSyntaxError(.invalidLiteral, at: position) }
        }
        let w = word.utf8Start
        for k in 0..<n where base[next + k] != w[k] {
            throw JSONSyntaxError(.invalidLiteral, at: position)
        }
    }

    /// Validates the number at `next`; returns the relative offset after it.
    private mutating func number() throws -> Int {
        while true {
            if let numberEnd = try scanNumber(from: next, final: isFinal) { return numberEnd }
            _ = refill(keeping: next)  // More bytes, or the input is now known to be complete.
        }
    }

    /// Validates the string whose opening quote is at `next`. Returns the relative offset of the
    /// closing quote and whether the content holds escapes.
    @inline(__always)
    private mutating func string() throws -> (Int, Bool) {
        var i = next + 1
        var escaped = false
        while true {
            if try scanString(&i, escaped: &escaped) { return (i, escaped) }
            // Cut off by the window at a character boundary: read more and go on from there.
            let resume = windowStart + i
            _ = refill(keeping: next)  // More bytes, or the input is now known to be complete.
            i = resume - windowStart
        }
    }

    /// As `string()`, for a value: an escaped one as long as `longStringBytes` is returned
    /// unescaped, unescaped a window at a time (`scanString` stops only between characters and
    /// escapes, so every piece unescapes on its own).
    private mutating func stringValue() throws -> (contentEnd: Int, escaped: Bool, unescaped: UnescapedString?) {
        guard let longStringBytes else {
            let (contentEnd, escaped) = try string()
            return (contentEnd, escaped, nil)
        }
        var i = next + 1
        var escaped = false
        var unescaped: UnescapedString?
        var pending = i  // the first byte not unescaped yet
        while true {
            let closed = try scanString(&i, escaped: &escaped)
            if unescaped == nil && escaped && i - pending >= longStringBytes && !window.isPinned {
                unescaped = UnescapedString()
                window.holdPosition(at: position)  // where its findings are reported
            }
            if let unescaped {
                unescaped.append(unescaping: UnsafeBufferPointer(start: base + pending, count: i - pending))
                pending = i
            }
            if closed { return (i, escaped, unescaped) }
            let resume = windowStart + i, resumePending = windowStart + pending
            _ = refill(keeping: unescaped == nil ? next : pending)  // More bytes, or the input is now known to be complete.
            i = resume - windowStart
            pending = resumePending - windowStart
        }
    }

    /// Scans string content from `i`. Returns true with `i` at the closing quote, or false with
    /// `i` at the character where the visible bytes ran out (more may follow). Throws on invalid
    /// content or a string the input ends inside.
    ///
    /// Mutating although it changes nothing: called as a non-mutating method from `string()` and
    /// `stringValue()`, it had the whole reader copied onto the stack first, 16 bytes at a time,
    /// across the store that had just moved `next`, which the processor cannot forward (a third
    /// of the samples of both on that load, 3 % of the JSON input's time).
    @inline(__always)
    private mutating func scanString(_ i: inout Int, escaped: inout Bool) throws -> Bool {
        // Blocks before this offset hold a byte the block step leaves to the loop below.
        var bytewiseUntil = 0
        while true {
            // Sixteen bytes at a time while none is a quote, backslash, control or non-ASCII byte.
            while i &+ 16 <= end {
                if let first = JSONStringBlock.firstSpecialByte(in16: UnsafeRawPointer(base + i)) {
                    i &+= first
                    break
                }
                i &+= 16
            }
            guard i < end else {
                if isFinal { throw JSONSyntaxError(.unexpectedEnd, at: windowStart + end) }
                return false
            }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                return true
            } else if b == UInt8(ascii: "\\") {
                escaped = true
                // `\"` and `\\` here (JSON held in a string has one every few bytes), the rest in
                // `scanEscape`.
                if i &+ 1 < end, base[i &+ 1] == UInt8(ascii: "\"") || base[i &+ 1] == UInt8(ascii: "\\") {
                    i &+= 2
                } else {
                    guard let after = try scanEscape(at: i, final: isFinal) else { return false }
                    i = after
                }
                // After an escape, 64 bytes at a time (`JSONStringBlock`).
                guard i >= bytewiseUntil else { continue }
                let blocks = JSONStringBlock.scan(base, from: i, end: end)
                i = blocks.offset
                if blocks.closed { return true }
                if blocks.bytewise { bytewiseUntil = i &+ JSONStringBlock.size }
            } else if b < 0x20 {
                throw JSONSyntaxError(.controlCharacterInString, at: windowStart + i)
            } else if b < 0x80 {
                i += 1
            } else {
                let length = utf8SequenceLength(base, at: i, end: end)
                if length == 0 {
                    // A sequence the window cuts off is not (yet) invalid.
                    if !isFinal && end - i < expectedUTF8Length(b) { return false }
                    throw JSONSyntaxError(.invalidUTF8, at: windowStart + i)
                }
                i += length
            }
        }
    }

    /// The length a UTF-8 sequence with this lead byte has.
    private func expectedUTF8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 1
        }
    }

    /// Validates the escape at `i` (a backslash); returns the offset after it, or nil when the
    /// visible bytes end inside it and more may follow.
    private func scanEscape(at i: Int, final: Bool) throws -> Int? {
        @inline(__always) func need(_ n: Int) throws -> Bool {
            if i + n <= end { return true }
            if final { throw JSONSyntaxError(.unexpectedEnd, at: windowStart + end) }
            return false
        }
        guard try need(2) else { return nil }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            guard try need(6) else { return nil }
            let unit = try hex4(at: i + 2, escapeAt: i)
            if unit >= 0xDC00 && unit <= 0xDFFF { throw JSONSyntaxError(.loneSurrogate, at: windowStart + i) }
            if unit >= 0xD800 && unit <= 0xDBFF {
                if i + 8 > end && !final { return nil }
                guard i + 7 < end, base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(.loneSurrogate, at: windowStart + i)
                }
                if i + 12 > end {
                    if final { throw JSONSyntaxError(.invalidUnicodeEscape, at: windowStart + i + 6) }
                    return nil
                }
                let low = try hex4(at: i + 8, escapeAt: i + 6)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw JSONSyntaxError(.loneSurrogate, at: windowStart + i) }
                return i + 12
            }
            return i + 6
        default:
            throw JSONSyntaxError(.invalidEscape, at: windowStart + i)
        }
    }

    private func hex4(at i: Int, escapeAt: Int) throws -> UInt32 {
        guard i + 4 <= end else { throw JSONSyntaxError(.invalidUnicodeEscape, at: windowStart + escapeAt) }
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let digit = hexValue(base[i + k]) else { throw JSONSyntaxError(.invalidUnicodeEscape, at: windowStart + escapeAt) }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Validates the number at `start`; returns the offset after it, or nil when the visible
    /// bytes end inside it and more may follow.
    @inline(__always)
    private func scanNumber(from start: Int, final: Bool) throws -> Int? {
        var i = start
        @inline(__always) func isDigit(_ k: Int) -> Bool { k < end && base[k] &- 0x30 < 10 }
        if base[i] == UInt8(ascii: "-") { i += 1 }
        if i >= end { if final { throw JSONSyntaxError(.invalidNumber, at: windowStart + start) }; return nil }
        if base[i] == UInt8(ascii: "0") {
            i += 1
        } else if isDigit(i) {
            while isDigit(i) { i += 1 }
        } else {
            throw JSONSyntaxError(.invalidNumber, at: windowStart + start)
        }
        if i >= end && !final { return nil }
        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            if i >= end && !final { return nil }
            guard isDigit(i) else { throw JSONSyntaxError(.invalidNumber, at: windowStart + start) }
            while isDigit(i) { i += 1 }
            if i >= end && !final { return nil }
        }
        if i < end && (base[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            if i >= end && !final { return nil }
            guard isDigit(i) else { throw JSONSyntaxError(.invalidNumber, at: windowStart + start) }
            while isDigit(i) { i += 1 }
            if i >= end && !final { return nil }
        }
        return i
    }
}

/// What the reader accepts next: a value; a value or ']' (after '['); a key or '}' (after '{');
/// a key (after ','); ',' or the container end (after a value).
private enum JSONExpect { case value, valueOrArrayEnd, keyOrObjectEnd, key, commaOrEnd }

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
