import AuditCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads raw HTTP/1.x messages: `.http` files (requests separated by `###`, with comments and
/// `@name = value` variables), a proxy's saved request and response, and `curl -v` dumps (`> `
/// request lines, `< ` response lines, `* ` notes, the response body unprefixed). A request and
/// the response after it make one exchange. Bodies end per `Content-Length`, per chunked
/// framing, or at the next message, `###` or the end.
///
/// Every line that can hold text reaches the visitor or is an error: notes, comments, variables,
/// the request line's method, target and version, the status line's version and reason phrase,
/// header names and values (folded ones joined), chunk extensions and trailers. A framing
/// number that is not one (`Content-Length: 1e23`, a chunk size `+5`) is an error at the value,
/// and no arithmetic on a number from the input can overflow.
public struct HTTPMessageReader: ExchangeReader {
    let window: ByteWindow
    private var next: Int
    private var exchangeIndex = 0
    /// What the exchange being read has shown so far, for the visitor at its end.
    private var current = HTTPExchange(index: 0)

    public init(window: ByteWindow, start: Int) {
        self.window = window
        next = start
    }

    /// Set when an exchange's body ended before its `Content-Length`: the exchange is handed over
    /// with what there is, and the caller reports this error and stops.
    public private(set) var truncation: HTTPSyntaxError?

    // MARK: Lines

    /// One line of the input: its content ends before CR LF; `following` is where the next starts.
    private struct Line {
        var start: Int
        var end: Int
        var following: Int
    }

    /// The line starting at `offset`, or nil at the end of the input. Bytes before `offset` may
    /// be dropped, but for a pinned exchange's.
    private func line(at offset: Int) -> Line? {
        var searched = offset
        while true {
            if searched < window.end,
               let lf = memchr(window.base + (searched - window.start), 0x0A, window.end - searched) {
                let lfOffset = window.start + (UnsafePointer(lf.assumingMemoryBound(to: UInt8.self)) - window.base)
                return Line(start: offset, end: trimmingCR(offset, lfOffset), following: lfOffset + 1)
            }
            searched = max(searched, window.end)
            if !window.extend(keeping: offset) {
                guard offset < window.end else { return nil }
                return Line(start: offset, end: trimmingCR(offset, window.end), following: window.end)
            }
        }
    }

    private func trimmingCR(_ start: Int, _ end: Int) -> Int {
        end > start && window[end - 1] == 0x0D ? end - 1 : end
    }

    /// The bytes of `range`, valid until the next `line(at:)` or `ensure`.
    private func view(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: window.base + (range.lowerBound - window.start), count: range.count)
    }

    private func view(_ line: Line) -> UnsafeBufferPointer<UInt8> { view(line.start..<line.end) }

    // MARK: Line shapes

    /// Which side of a `curl -v` dump a line belongs to.
    private enum Prefix { case none, request, response, note }

    private static func prefix(of line: UnsafeBufferPointer<UInt8>) -> Prefix {
        guard let first = line.first, line.count == 1 || line[1] == 0x20 else { return .none }
        switch first {
        case UInt8(ascii: ">"): return .request
        case UInt8(ascii: "<"): return .response
        case UInt8(ascii: "*"), UInt8(ascii: "{"), UInt8(ascii: "}"): return .note
        default: return .none
        }
    }

    /// `###` separators, `#` and `//` comments and `@name = value` variables of REST-client files.
    static func isCommentOrVariable(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        content.hasPrefix("#") || content.hasPrefix("//") || (content.hasPrefix("@") && content.contains(UInt8(ascii: "=")))
    }

    /// `METHOD SP target [SP HTTP/…]`, single spaces: the end of the method and of the target
    /// (the version follows it when there is one).
    private static func requestLine(_ line: UnsafeBufferPointer<UInt8>) -> (methodEnd: Int, targetEnd: Int)? {
        guard let space = line.firstIndex(of: 0x20), space > 0,
              line[..<space].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        let targetEnd = line[(space + 1)...].firstIndex(of: 0x20) ?? line.count
        guard targetEnd > space + 1 else { return nil }
        if targetEnd < line.count {
            let version = UnsafeBufferPointer(rebasing: line[(targetEnd + 1)...])
            guard version.hasPrefix("HTTP/"), !version.contains(0x20) else { return nil }
        }
        return (space, targetEnd)
    }

    /// `withVersion`: only a request line that ends with its `HTTP/…` version.
    static func isRequestLine(_ line: UnsafeBufferPointer<UInt8>, withVersion: Bool = false) -> Bool {
        guard let (_, targetEnd) = requestLine(line) else { return false }
        return !withVersion || targetEnd < line.count
    }

    /// `HTTP/… SP 3DIGIT [SP reason]`: the end of the version, the status code and where the
    /// reason phrase starts.
    private static func statusLine(_ line: UnsafeBufferPointer<UInt8>) -> (versionEnd: Int, code: Int, reasonStart: Int)? {
        guard line.hasPrefix("HTTP/"), let versionEnd = line.firstIndex(of: 0x20) else { return nil }
        var i = versionEnd
        while i < line.count && line[i] == 0x20 { i += 1 }
        guard line.count - i >= 3, i + 3 == line.count || line[i + 3] == 0x20 else { return nil }
        var code = 0
        for k in i..<(i + 3) {
            let digit = line[k] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            code = code * 10 + Int(digit)
        }
        var reason = i + 3
        while reason < line.count && line[reason] == 0x20 { reason += 1 }
        return (versionEnd, code, reason)
    }

    static func isStatusLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool { statusLine(line) != nil }

    /// True when a line begins a request, a response or a curl dump's side of one.
    static func looksLikeHTTP(_ firstLine: UnsafeBufferPointer<UInt8>) -> Bool {
        var line = firstLine
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if prefix(of: line) != .none { line = UnsafeBufferPointer(rebasing: line.dropFirst(2)) }
        return isRequestLine(line) || isStatusLine(line)
    }

    /// The part of `range` without blanks at either end.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound, end = range.upperBound
        while start < end && HTTPFraming.isBlank(window[start]) { start += 1 }
        while end > start && HTTPFraming.isBlank(window[end - 1]) { end -= 1 }
        return start..<end
    }

    // MARK: Exchanges

    /// Reads the next exchange into `visitor`; false at the end of the input. The window is
    /// pinned at the exchange's first line; the caller unpins once it has judged the exchange.
    /// At a syntax error the visitor gets the exchange's end (with the bodies read before it)
    /// before the error is thrown.
    public mutating func nextExchange<V: HTTPMessageVisitor>(_ visitor: inout V) throws -> Bool {
        current = HTTPExchange(index: exchangeIndex)
        do {
            guard try readExchange(&visitor) else { return false }
        } catch let error as HTTPSyntaxError {
            try visitor.exchange(current)
            throw error
        }
        exchangeIndex += 1
        try visitor.exchange(current)
        return true
    }

    private mutating func readExchange<V: HTTPMessageVisitor>(_ visitor: inout V) throws -> Bool {
        // Before a message: blank lines, and what is kept as text of the exchange: curl notes
        // (they may repeat request headers), REST-client separators, comments and variables.
        var pinned = false
        var notes = 0, comments = 0, variables = 0
        func pin(_ offset: Int) {
            if !pinned { window.pin(at: offset) }
            pinned = true
        }
        while let line = line(at: next) {
            let bytes = view(line)
            if Self.prefix(of: bytes) == .note {
                pin(line.start)
                try note(line, index: notes, &visitor)
                notes += 1
                next = line.following
                continue
            }
            let content = trimmed(line.start..<line.end)
            if content.isEmpty {
                next = line.following
                continue
            }
            guard Self.isCommentOrVariable(view(content)) else { break }
            pin(line.start)
            if try !variable(content, index: variables, &visitor) {
                try visitor.text(HTTPText(exchange: exchangeIndex, kind: .comment, index: comments, offset: content.lowerBound,
                                          count: content.count), window.bytes(content))
                comments += 1
            } else {
                variables += 1
            }
            next = line.following
        }
        guard let first = line(at: next) else { return pinned }
        pin(first.start)
        let prefix = Self.prefix(of: view(first))
        let contentStart = first.start + (prefix == .none ? 0 : min(2, first.end - first.start))
        let firstContent = view(contentStart..<first.end)
        if let request = Self.requestLine(firstContent) {
            let method = try readRequest(first, contentStart: contentStart, request, prefix: prefix, &visitor)
            // The response, when one follows (after blank lines or curl notes).
            while let line = line(at: next) {
                let bytes = view(line)
                let linePrefix = Self.prefix(of: bytes)
                if trimmed(line.start..<line.end).isEmpty {
                    next = line.following
                    continue
                }
                if linePrefix == .note {
                    try note(line, index: notes, &visitor)
                    notes += 1
                    next = line.following
                    continue
                }
                let start = line.start + (linePrefix == .none ? 0 : min(2, line.end - line.start))
                if let status = Self.statusLine(view(start..<line.end)) {
                    try readResponse(line, contentStart: start, status, prefix: linePrefix, afterHEAD: method == "HEAD", &visitor)
                }
                break
            }
        } else if let status = Self.statusLine(firstContent) {
            try readResponse(first, contentStart: contentStart, status, prefix: prefix, afterHEAD: false, &visitor)
        } else {
            throw HTTPSyntaxError(reason: "expected an HTTP request line or status line", offset: first.start)
        }
        return true
    }

    private func note<V: HTTPMessageVisitor>(_ line: Line, index: Int, _ visitor: inout V) throws {
        let start = line.start + min(2, line.end - line.start)
        try visitor.text(HTTPText(exchange: exchangeIndex, kind: .note, index: index, offset: start, count: line.end - start),
                         window.bytes(start..<line.end))
    }

    /// A REST-client `@name = value` line as a field; false when it is none (no name).
    private func variable<V: HTTPMessageVisitor>(_ content: Range<Int>, index: Int, _ visitor: inout V) throws -> Bool {
        guard window[content.lowerBound] == UInt8(ascii: "@"),
              let equals = view(content).firstIndex(of: UInt8(ascii: "=")).map({ content.lowerBound + $0 }) else { return false }
        let name = trimmed(content.lowerBound + 1..<equals)
        guard !name.isEmpty else { return false }
        let value = trimmed(equals + 1..<content.upperBound)
        let field = HTTPField(exchange: exchangeIndex, list: .variables, side: nil, index: index, nameOffset: name.lowerBound,
                              nameCount: name.count, valueOffset: value.lowerBound, valueRange: value)
        try visitor.field(field, name: window.bytes(name), value: window.bytes(value))
        return true
    }

    /// The request line's parts, then the request's headers and body. Returns the method.
    private mutating func readRequest<V: HTTPMessageVisitor>(_ line: Line, contentStart: Int, _ parts: (methodEnd: Int, targetEnd: Int),
                                                            prefix: Prefix, _ visitor: inout V) throws -> String {
        let methodEnd = contentStart + parts.methodEnd, targetEnd = contentStart + parts.targetEnd
        let method = String(decoding: view(contentStart..<methodEnd), as: UTF8.self)
        try text(.method, .request, contentStart..<methodEnd, &visitor)
        try text(.url, .request, methodEnd + 1..<targetEnd, &visitor)
        if targetEnd < line.end { try text(.version, .request, targetEnd + 1..<line.end, &visitor) }
        next = line.following
        current.request = try readMessage(.request, prefix: prefix, hasBody: true, &visitor)
        return method
    }

    /// The status line's version and reason phrase (the code is three digits), then the
    /// response's headers and body: none after a HEAD request or with a 1xx, 204 or 304 status
    /// (RFC 9110 §6.4.1), whatever `Content-Length` says.
    private mutating func readResponse<V: HTTPMessageVisitor>(_ line: Line, contentStart: Int, _ status: (versionEnd: Int, code: Int, reasonStart: Int),
                                                             prefix: Prefix, afterHEAD: Bool, _ visitor: inout V) throws {
        try text(.version, .response, contentStart..<contentStart + status.versionEnd, &visitor)
        let reason = trimmed(contentStart + status.reasonStart..<line.end)
        if !reason.isEmpty { try text(.statusText, .response, reason, &visitor) }
        next = line.following
        let hasBody = !afterHEAD && status.code >= 200 && status.code != 204 && status.code != 304
        current.response = try readMessage(.response, prefix: prefix, hasBody: hasBody, &visitor)
    }

    private func text<V: HTTPMessageVisitor>(_ kind: HTTPText.Kind, _ side: HTTPSide, _ range: Range<Int>, _ visitor: inout V) throws {
        try visitor.text(HTTPText(exchange: exchangeIndex, kind: kind, side: side, offset: range.lowerBound, count: range.count),
                         window.bytes(range))
    }

    /// What a message's headers say about its body.
    private struct Framing {
        var contentLength: Int?
        var contentLengths: [Range<Int>] = []
        var chunked = false
        /// Where the first Transfer-Encoding value is, when the message has one.
        var transferEncodingOffset: Int?
        var body = BodyHeaders()

        /// Takes in a header that frames or types the body.
        mutating func observe(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws {
            if name.equalsIgnoringASCIICase("content-length") {
                switch HTTPFraming.contentLength(value) {
                case .success(let length):
                    if let contentLength, contentLength != length {
                        throw HTTPSyntaxError(reason: HTTPFramingError.differing.contentLengthMessage, offset: field.valueOffset)
                    }
                    contentLength = length
                    contentLengths.append(field.valueRange)
                case .failure(let problem):
                    throw HTTPSyntaxError(reason: problem.contentLengthMessage, offset: field.valueOffset)
                }
            } else if name.equalsIgnoringASCIICase("transfer-encoding") {
                // Transfer codings (RFC 9112 §6.1), over every Transfer-Encoding field in order:
                // chunked frames the body and comes last (§6.3: else its length cannot be
                // determined); a coding under it is undone as a content coding is (gzip,
                // deflate, br, zstd); any other is one the body cannot be read without.
                if transferEncodingOffset == nil { transferEncodingOffset = field.valueOffset }
                for coding in ContentCoding.tokens(in: value) {
                    if chunked { throw HTTPSyntaxError(reason: Self.chunkedNotLast, offset: field.valueOffset) }
                    switch coding {
                    case "chunked": chunked = true
                    default: body.observeCoding(coding)
                    }
                }
            } else {
                body.observe(name: name, value: value)
            }
        }

        /// After the last header: a Transfer-Encoding without chunked last leaves the body's
        /// length unknown (a request must be refused, RFC 9112 §6.3; a response would run to the
        /// connection's close, which a capture does not record).
        func check() throws {
            if let transferEncodingOffset, !chunked { throw HTTPSyntaxError(reason: Self.chunkedNotLast, offset: transferEncodingOffset) }
        }

        private static let chunkedNotLast = "Transfer-Encoding does not end with chunked: the body's length cannot be determined"
    }

    /// Headers up to the blank line, then the body.
    private mutating func readMessage<V: HTTPMessageVisitor>(_ side: HTTPSide, prefix: Prefix, hasBody: Bool,
                                                            _ visitor: inout V) throws -> HTTPExchange.Message {
        var framing = Framing()
        guard try readFields(.headers, side: side, prefix: prefix, framing: &framing, &visitor) else {
            // The input or the curl side ended before the blank line: no body.
            return HTTPExchange.Message(contentLengths: framing.contentLengths)
        }
        var message = HTTPExchange.Message(contentLengths: framing.contentLengths)
        guard hasBody else { return message }
        if prefix == .none { try framing.check() }
        let bodyStart = next
        func body(_ bytes: HTTPExchange.Body.Bytes) -> HTTPExchange.Body {
            framing.body.body(side, bytes, offset: bodyStart)
        }
        if framing.chunked && prefix == .none {
            // Chunked framing wins over a Content-Length (RFC 9112 §6.3).
            message.body = body(.decoded(try readChunked(side, &visitor)))
        } else if let length = framing.contentLength, prefix == .none {
            // Clamped: a length beyond the address space is a body shorter than its length.
            let end = length <= Int.max - bodyStart ? bodyStart + length : Int.max
            if length > 0 && !window.ensure(end - 1, keeping: window.start) {
                // What there is of the body is scanned; the reader stops after this exchange.
                truncation = HTTPSyntaxError(reason: "the body is shorter than its Content-Length", offset: window.end)
                message.body = body(.input(bodyStart..<max(bodyStart, window.end)))
                next = max(bodyStart, window.end)
            } else {
                if length > 0 { message.body = body(.input(bodyStart..<end)) }
                next = end
            }
        } else if !(side == .request && prefix != .none) {
            // Up to the next message, `###`, a curl line, or the end; trailing blank lines dropped.
            var end = bodyStart
            while let line = line(at: next) {
                let bytes = view(line)
                let stripped = trimmed(line.start..<line.end)
                let content = view(stripped)
                let linePrefix = Self.prefix(of: bytes)
                if content.hasPrefix("###") || (linePrefix != .none && prefix != .none)
                    || Self.isRequestLine(content) || Self.isStatusLine(content)
                    || (linePrefix != .none && Self.looksLikeHTTP(bytes)) {
                    break
                }
                if !stripped.isEmpty { end = line.end }
                next = line.following
            }
            if end > bodyStart { message.body = body(.input(bodyStart..<end)) }
        }
        return message
    }

    /// Fields up to a blank line (true), or to the end of the input or of the curl side (false):
    /// each handed to the visitor once the next line shows it is not folded further.
    private mutating func readFields<V: HTTPMessageVisitor>(_ list: HTTPField.List, side: HTTPSide, prefix: Prefix,
                                                           framing: inout Framing, _ visitor: inout V) throws -> Bool {
        var pending: HTTPField?
        var valueEnd = 0
        var folded: [UInt8]?
        var index = 0
        func flush() throws {
            guard let field = pending else { return }
            pending = nil
            let name = window.bytes(field.nameRange)
            if let joined = folded {
                try joined.withUnsafeBytes { value in
                    if list == .headers { try framing.observe(field, name: name, value: value) }
                    try visitor.field(field, name: name, value: value)
                }
            } else {
                let value = window.bytes(field.valueOffset..<valueEnd)
                if list == .headers { try framing.observe(field, name: name, value: value) }
                try visitor.field(field, name: name, value: value)
            }
            folded = nil
        }
        let marker = prefix == .request ? UInt8(ascii: ">") : UInt8(ascii: "<")
        while let line = line(at: next) {
            var contentStart = line.start
            if prefix != .none {
                let bytes = view(line)
                guard Self.prefix(of: bytes) == prefix || (bytes.count == 1 && bytes[0] == marker) else {
                    try flush()
                    return false
                }
                contentStart += min(2, line.end - line.start)
            }
            next = line.following
            let content = trimmed(contentStart..<line.end)
            if content.isEmpty {
                try flush()
                return true
            }
            if HTTPFraming.isBlank(window[contentStart]), let field = pending {
                // Obsolete line folding: the line continues the previous field's value.
                if folded == nil { folded = Array(window.bytes(field.valueOffset..<valueEnd)) }
                folded! += [0x20]
                folded! += window.bytes(content)
                pending!.valueRange = field.valueRange.lowerBound..<content.upperBound
                continue
            }
            try flush()
            let bytes = view(contentStart..<line.end)
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                  bytes[..<colon].allSatisfy({ HTTPMessageReader.isTokenByte($0) }) else {
                throw HTTPSyntaxError(reason: "malformed \(list == .trailers ? "trailer" : "header") line (expected 'Name: value')", offset: contentStart)
            }
            let value = trimmed(contentStart + colon + 1..<line.end)
            pending = HTTPField(exchange: exchangeIndex, list: list, side: side, index: index, nameOffset: contentStart, nameCount: colon,
                                valueOffset: value.lowerBound, valueRange: value)
            valueEnd = value.upperBound
            index += 1
        }
        try flush()
        return false
    }

    /// A chunked body: `size [; extensions] CRLF data CRLF` … `0 CRLF`, trailer fields, `CRLF`.
    /// The data must be followed by a line break: a chunk longer than its size is an error, not
    /// bytes skipped. A last chunk without the final blank line ends with the input.
    private mutating func readChunked<V: HTTPMessageVisitor>(_ side: HTTPSide, _ visitor: inout V) throws -> [UInt8] {
        var body: [UInt8] = []
        var chunk = 0
        while true {
            guard let sizeLine = line(at: next) else {
                throw HTTPSyntaxError(reason: "chunked body ends before its last chunk", offset: window.end)
            }
            let size: Int
            switch HTTPFraming.chunkSize(UnsafeRawBufferPointer(view(sizeLine))) {
            case .failure(let problem):
                throw HTTPSyntaxError(reason: problem.chunkSizeMessage, offset: sizeLine.start)
            case .success(let parsed):
                size = parsed.size
                if let extensions = parsed.extensions {
                    try text(.chunkExtension, side, sizeLine.start + extensions..<sizeLine.end, &visitor, index: chunk)
                }
            }
            next = sizeLine.following
            if size == 0 {
                var framing = Framing()
                _ = try readFields(.trailers, side: side, prefix: .none, framing: &framing, &visitor)
                return body
            }
            // Clamped, so that a size beyond the address space fails, at the end of the input,
            // as one past it.
            let end = size <= Int.max - next ? next + size : Int.max
            guard window.ensure(end - 1, keeping: window.start) else {
                throw HTTPSyntaxError(reason: "chunk is shorter than its size", offset: window.end)
            }
            body.append(contentsOf: window.bytes(next..<end))
            next = end
            guard let end = line(at: next) else {
                throw HTTPSyntaxError(reason: "chunked body ends before its last chunk", offset: window.end)
            }
            guard end.end == end.start else {
                throw HTTPSyntaxError(reason: "chunk data is not followed by a line break (longer than its size)", offset: next)
            }
            next = end.following
            chunk += 1
        }
    }

    private func text<V: HTTPMessageVisitor>(_ kind: HTTPText.Kind, _ side: HTTPSide, _ range: Range<Int>, _ visitor: inout V, index: Int) throws {
        try visitor.text(HTTPText(exchange: exchangeIndex, kind: kind, side: side, index: index, offset: range.lowerBound, count: range.count),
                         window.bytes(range))
    }

    public static func isTokenByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
    }
}

extension UnsafeRawBufferPointer {
    /// ASCII case-insensitive equality with a lowercase literal.
    public func equalsIgnoringASCIICase(_ lowercase: StaticString) -> Bool {
        guard count == lowercase.utf8CodeUnitCount else { return false }
        for i in 0..<count where self[i] | (self[i] &- 0x41 < 26 ? 0x20 : 0) != lowercase.utf8Start[i] { return false }
        return true
    }

    /// Whether a lowercase literal occurs in the bytes, ASCII case ignored.
    func containsIgnoringASCIICase(_ lowercase: StaticString) -> Bool {
        let n = lowercase.utf8CodeUnitCount
        guard n <= count else { return false }
        for start in 0...(count - n) {
            if UnsafeRawBufferPointer(rebasing: self[start..<start + n]).equalsIgnoringASCIICase(lowercase) { return true }
        }
        return false
    }
}
