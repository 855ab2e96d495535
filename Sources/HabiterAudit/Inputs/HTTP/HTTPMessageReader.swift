/// Why raw HTTP text was rejected.
struct HTTPSyntaxError: Error, Equatable {
    var reason: String
    var offset: Int
}

/// Reads raw HTTP/1.x messages: `.http` files (requests separated by `###`), a proxy's saved
/// request and response, and `curl -v` dumps (`> ` request lines, `< ` response lines, `* `
/// notes, the response body unprefixed). A request and the response after it make one exchange.
/// Bodies end per `Content-Length`, per chunked framing, or at the next message, `###` or the end.
struct HTTPMessageReader {
    let window: ByteWindow
    private var next: Int
    private var exchangeIndex = 0

    /// The path every exchange's path starts with.
    private let rootPath: LayeredPath

    init(window: ByteWindow, start: Int, rootPath: LayeredPath) {
        self.window = window
        self.rootPath = rootPath
        next = start
    }

    /// One line of the input: its content (without CR LF) and where it starts.
    private struct Line {
        var start: Int
        var end: Int
        var bytes: ArraySlice<UInt8>
        /// Where the line after it starts.
        var following: Int
    }

    /// The line starting at `offset`, or nil at the end of the input. Keeps bytes from `keep`.
    private func line(at offset: Int, keeping keep: Int) -> Line? {
        var i = offset
        while true {
            while i < window.end {
                if window[i] == 0x0A {
                    var end = i
                    if end > offset && window[end - 1] == 0x0D { end -= 1 }
                    return Line(start: offset, end: end, bytes: bytes(offset..<end), following: i + 1)
                }
                i += 1
            }
            if !window.extend(keeping: keep) {
                guard offset < window.end else { return nil }
                var end = window.end
                if end > offset && window[end - 1] == 0x0D { end -= 1 }
                return Line(start: offset, end: end, bytes: bytes(offset..<end), following: window.end)
            }
        }
    }

    private func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        ArraySlice(UnsafeBufferPointer(start: window.base + (range.lowerBound - window.start), count: range.count))
    }

    /// Which side of a `curl -v` dump a line belongs to.
    private enum Prefix { case none, request, response, note }

    private static func prefix(of line: ArraySlice<UInt8>) -> Prefix {
        guard let first = line.first, line.count == 1 || line[line.startIndex + 1] == 0x20 else { return .none }
        switch first {
        case UInt8(ascii: ">"): return .request
        case UInt8(ascii: "<"): return .response
        case UInt8(ascii: "*"), UInt8(ascii: "{"), UInt8(ascii: "}"): return .note
        default: return .none
        }
    }

    /// `###` separators, `#` and `//` comments and `@name = value` variables of REST-client files.
    static func isCommentOrVariable(_ content: ArraySlice<UInt8>) -> Bool {
        content.starts(with: "#".utf8) || content.starts(with: "//".utf8)
            || (content.starts(with: "@".utf8) && content.contains(UInt8(ascii: "=")))
    }

    static func isRequestLine(_ line: ArraySlice<UInt8>) -> Bool {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let method = parts.first, !method.isEmpty,
              method.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }), !parts[1].isEmpty else { return false }
        return parts.count == 2 || parts[2].starts(with: "HTTP/".utf8)
    }

    static func isStatusLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.starts(with: "HTTP/".utf8) else { return false }
        let parts = line.split(separator: 0x20, maxSplits: 2)
        return parts.count >= 2 && parts[1].count == 3 && parts[1].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// True when the text at `start` begins with a request line, a status line or a curl dump.
    static func looksLikeHTTP(_ firstLine: ArraySlice<UInt8>) -> Bool {
        var line = firstLine
        if line.last == 0x0D { line = line.dropLast() }
        if prefix(of: line) != .none { line = line.dropFirst(2) }
        return isRequestLine(line) || isStatusLine(line)
    }

    /// Set when an exchange's body ended before its `Content-Length`: the exchange is returned
    /// with what there is, and the caller reports this error and stops.
    private(set) var truncation: HTTPSyntaxError?

    /// The next exchange, or nil at the end. The window is pinned at the exchange's start; the
    /// caller unpins once it has scanned the exchange.
    mutating func nextExchange() throws(HTTPSyntaxError) -> HTTPExchange? {
        // Before a message: blank lines, `###` separators, REST-client comments and variables,
        // and curl notes, which are kept (they may repeat request headers).
        let base = rootPath.appending(.key("entries")).appending(.index(exchangeIndex))
        var notes: [HTTPExchange.Text] = []
        var pinned = false
        while let line = line(at: next, keeping: pinned ? window.start : next) {
            let content = trimmed(line.bytes)
            if HTTPMessageReader.prefix(of: line.bytes) == .note {
                if !pinned {
                    window.pin(at: line.start)
                    pinned = true
                }
                notes.append(HTTPExchange.Text(bytes: Array(line.bytes.dropFirst(2)), offset: line.start + min(2, line.bytes.count),
                                               path: base.appending(.key("notes")).appending(.index(notes.count))))
                next = line.following
                continue
            }
            if content.isEmpty || HTTPMessageReader.isCommentOrVariable(content) {
                next = line.following
                continue
            }
            break
        }
        guard let first = line(at: next, keeping: window.start) else {
            if notes.isEmpty { return nil }
            var trailing = HTTPExchange()
            trailing.notes = notes
            exchangeIndex += 1
            return trailing
        }
        if !pinned { window.pin(at: first.start) }
        var exchange = HTTPExchange()
        exchange.notes = notes
        exchangeIndex += 1
        let prefix = HTTPMessageReader.prefix(of: first.bytes)
        let firstContent = prefix == .none ? first.bytes : first.bytes.dropFirst(2)
        if HTTPMessageReader.isRequestLine(firstContent) {
            try readRequest(into: &exchange, path: base.appending(.key("request")), prefix: prefix)
            // The response, when one follows (after blank lines or curl notes).
            while let line = line(at: next, keeping: window.start) {
                let content = trimmed(line.bytes)
                let linePrefix = HTTPMessageReader.prefix(of: line.bytes)
                if content.isEmpty || linePrefix == .note {
                    next = line.following
                    continue
                }
                let body = linePrefix == .none ? line.bytes : line.bytes.dropFirst(2)
                if HTTPMessageReader.isStatusLine(body) {
                    try readResponse(into: &exchange, path: base.appending(.key("response")), prefix: linePrefix)
                }
                break
            }
        } else if HTTPMessageReader.isStatusLine(firstContent) {
            try readResponse(into: &exchange, path: base.appending(.key("response")), prefix: prefix)
        } else {
            throw HTTPSyntaxError(reason: "expected an HTTP request line or status line", offset: first.start)
        }
        return exchange
    }

    private func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return s
    }

    private mutating func readRequest(into exchange: inout HTTPExchange, path: LayeredPath, prefix: Prefix) throws(HTTPSyntaxError) {
        let line = self.line(at: next, keeping: window.start)!
        let content = prefix == .none ? line.bytes : line.bytes.dropFirst(2)
        let parts = content.split(separator: 0x20, omittingEmptySubsequences: false)
        exchange.method = String(decoding: parts[0], as: UTF8.self)
        let targetStart = line.start + (prefix == .none ? 0 : 2) + parts[0].count + 1
        exchange.url = HTTPExchange.Text(bytes: Array(parts[1]), offset: targetStart, path: path.appending(.key("url")))
        next = line.following
        exchange.request = try readMessage(path: path, prefix: prefix, bodyKey: "postData", isRequest: true)
    }

    private mutating func readResponse(into exchange: inout HTTPExchange, path: LayeredPath, prefix: Prefix) throws(HTTPSyntaxError) {
        let line = self.line(at: next, keeping: window.start)!
        next = line.following
        exchange.response = try readMessage(path: path, prefix: prefix, bodyKey: "content", isRequest: false)
    }

    /// Headers up to the blank line, then the body.
    private mutating func readMessage(path: LayeredPath, prefix: Prefix, bodyKey: String, isRequest: Bool) throws(HTTPSyntaxError) -> HTTPExchange.Message {
        var message = HTTPExchange.Message()
        let headersPath = path.appending(.key("headers"))
        while true {
            guard let line = line(at: next, keeping: window.start) else { return message }
            var content = line.bytes
            var contentStart = line.start
            if prefix != .none {
                guard HTTPMessageReader.prefix(of: line.bytes) == prefix || (line.bytes.count == 1 && line.bytes.first == (prefix == .request ? UInt8(ascii: ">") : UInt8(ascii: "<"))) else {
                    return message
                }
                content = content.dropFirst(min(2, content.count))
                contentStart += min(2, line.bytes.count)
            }
            next = line.following
            if trimmed(content).isEmpty { break }
            if let first = content.first, first == 0x20 || first == 0x09, !message.headers.isEmpty {
                // Obsolete line folding: the line continues the previous header's value.
                message.headers[message.headers.count - 1].value += [0x20] + Array(trimmed(content))
                continue
            }
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")), colon > content.startIndex,
                  content[content.startIndex..<colon].allSatisfy({ HTTPMessageReader.isTokenByte($0) }) else {
                throw HTTPSyntaxError(reason: "malformed header line (expected 'Name: value')", offset: contentStart)
            }
            var valueStart = colon + 1
            while valueStart < content.endIndex && (content[valueStart] == 0x20 || content[valueStart] == 0x09) { valueStart += 1 }
            var valueEnd = content.endIndex
            while valueEnd > valueStart && (content[valueEnd - 1] == 0x20 || content[valueEnd - 1] == 0x09) { valueEnd -= 1 }
            message.headers.append(HTTPExchange.Field(
                name: String(decoding: content[content.startIndex..<colon], as: UTF8.self),
                value: Array(content[valueStart..<valueEnd]),
                offset: contentStart + (valueStart - content.startIndex),
                path: headersPath.appending(.index(message.headers.count)).appending(.key("value"))))
        }
        let bodyPath = path.appending(.key(bodyKey)).appending(.key("text"))
        let mime = header("content-type", message)
        let gzip = header("content-encoding", message)?.lowercased().containsText("gzip") ?? false
        let bodyStart = next
        if let length = header("content-length", message).flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), prefix == .none {
            if length > 0 && !window.ensure(bodyStart + length - 1, keeping: window.start) {
                // What there is of the body is scanned; the reader stops after this exchange.
                truncation = HTTPSyntaxError(reason: "the body is shorter than its Content-Length", offset: window.end)
                let available = bodyStart..<max(bodyStart, window.end)
                message.body = HTTPExchange.Body(bytes: Array(bytes(available)), offset: bodyStart, path: bodyPath,
                                                 mimeType: mime, gzip: gzip, inPlace: gzip ? nil : available)
                next = available.upperBound
            } else {
                if length > 0 {
                    message.body = HTTPExchange.Body(bytes: Array(bytes(bodyStart..<bodyStart + length)), offset: bodyStart, path: bodyPath,
                                                     mimeType: mime, gzip: gzip, inPlace: gzip ? nil : bodyStart..<bodyStart + length)
                }
                next = bodyStart + length
            }
        } else if header("transfer-encoding", message)?.lowercased().containsText("chunked") == true && prefix == .none {
            let decoded = try readChunked()
            message.body = HTTPExchange.Body(bytes: decoded, offset: bodyStart, path: bodyPath, mimeType: mime, gzip: gzip)
        } else if !(isRequest && prefix != .none) {
            // Up to the next message, `###`, a curl line, or the end; trailing blank lines dropped.
            var end = bodyStart
            while let line = line(at: next, keeping: window.start) {
                let stripped = trimmed(line.bytes)
                let linePrefix = HTTPMessageReader.prefix(of: line.bytes)
                if stripped.starts(with: "###".utf8) || (linePrefix != .none && prefix != .none)
                    || HTTPMessageReader.isRequestLine(stripped) || HTTPMessageReader.isStatusLine(stripped)
                    || (linePrefix != .none && HTTPMessageReader.looksLikeHTTP(line.bytes)) {
                    break
                }
                if !stripped.isEmpty { end = line.end }
                next = line.following
            }
            if end > bodyStart {
                message.body = HTTPExchange.Body(bytes: Array(bytes(bodyStart..<end)), offset: bodyStart, path: bodyPath,
                                                 mimeType: mime, gzip: gzip, inPlace: gzip ? nil : bodyStart..<end)
            }
        }
        return message
    }

    /// A chunked body: `size CRLF data CRLF` … `0 CRLF CRLF`.
    private mutating func readChunked() throws(HTTPSyntaxError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = line(at: next, keeping: window.start) else {
                throw HTTPSyntaxError(reason: "chunked body ends before its last chunk", offset: window.end)
            }
            let sizeText = String(decoding: sizeLine.bytes.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw HTTPSyntaxError(reason: "malformed chunk size", offset: sizeLine.start)
            }
            next = sizeLine.following
            if size == 0 {
                // Trailers up to the blank line.
                while let trailer = line(at: next, keeping: window.start) {
                    next = trailer.following
                    if trimmed(trailer.bytes).isEmpty { break }
                }
                return body
            }
            guard window.ensure(next + size - 1, keeping: window.start) else {
                throw HTTPSyntaxError(reason: "chunk is shorter than its size", offset: window.end)
            }
            body += bytes(next..<next + size)
            next += size
            if let end = line(at: next, keeping: window.start) { next = end.following }
        }
    }

    private func header(_ name: String, _ message: HTTPExchange.Message) -> String? {
        message.headers.first { $0.name.equalsIgnoringCase(name) }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
    }
}

import Foundation
