import AuditCore

/// What `HTTPMessageReader` hands its visitor, part by part in input order, so that memory does
/// not grow with the number of headers, cookies or notes of a message: a text part or a field
/// is judged when it is read; the bodies, which need the whole exchange to be judged (an OAuth
/// token exchange is known by its response), come with the end of the exchange.
public protocol HTTPMessageVisitor {
    /// A part that is text: a note, a comment, the request line's method, target and version,
    /// the status line's version and reason phrase, a chunk extension. `bytes` are valid during
    /// the call only.
    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) throws
    /// A header, a trailer or a REST-client variable. `name` and `value` are valid during the
    /// call only (a folded value is the reader's copy, its lines joined by a space).
    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws
    /// The exchange is complete, or broke off at a syntax error (then only the bodies read
    /// before it are there).
    mutating func exchange(_ exchange: HTTPExchange) throws
}

/// Reads captured exchanges one at a time into a visitor: raw HTTP messages, mitmproxy's flows.
public protocol ExchangeReader {
    /// Reads the next exchange into `visitor`; false at the end of the input. The window is
    /// pinned at the exchange's start; the caller unpins once it has judged the exchange.
    mutating func nextExchange<V: HTTPMessageVisitor>(_ visitor: inout V) throws -> Bool
    /// Set when an exchange was cut short and handed over with what there was: the caller
    /// reports this error and stops.
    var truncation: HTTPSyntaxError? { get }
}

extension ExchangeReader {
    /// A reader that throws at a cut exchange.
    public var truncation: HTTPSyntaxError? { nil }
}

/// The request or the response of an exchange.
public enum HTTPSide {
    case request, response

    var key: String { self == .request ? "request" : "response" }
    /// Where the body sits, as in a HAR entry.
    var bodyPath: [PathToken] { self == .request ? [.key("postData"), .key("text")] : [.key("content"), .key("text")] }
}

/// A text part of an exchange and where it sits. Paths follow a HAR entry's where it has the
/// part (`/entries/<n>/request/url`, `…/response/statusText`).
public struct HTTPText: Equatable {
    public enum Kind: Equatable {
        /// A `curl -v` line starting `* `, `{ ` or `} `.
        case note
        /// A REST-client `###` separator, `#` or `//` comment line, before a message.
        case comment
        case method, url, version, statusText
        /// What follows the size of a chunk, from its `;`.
        case chunkExtension
        /// The host a mitmproxy flow's request went to (its URL is the request target alone).
        case host
        /// Any other text of a mitmproxy flow, where it sits in the flow (`comment`,
        /// `_webSocketMessages/0/data`, `server_conn/sni`).
        case flowValue([PathToken])
    }

    var exchange: Int
    public var kind: Kind
    /// The message, for the parts of one.
    var side: HTTPSide?
    /// The note, comment or chunk number in its exchange or body.
    var index = 0
    /// The first byte, as written.
    public var offset: Int
    var count: Int

    public var range: Range<Int> { offset..<offset + count }

    /// The name a finding in the part is reported under.
    public var key: String {
        switch kind {
        case .note: "note"
        case .comment: "comment"
        case .method: "method"
        case .url: "url"
        case .version: "httpVersion"
        case .statusText: "statusText"
        case .chunkExtension: "chunkExtension"
        case .host: "host"
        case .flowValue(let tokens):
            tokens.reversed().lazy.compactMap { if case .key(let name) = $0 { name } else { nil } }.first ?? "value"
        }
    }

    public func path(under root: LayeredPath) -> LayeredPath {
        var path = root.appending(.key("entries")).appending(.index(exchange))
        if let side { path.append(.key(side.key)) }
        switch kind {
        case .note: path.append(.key("notes")); path.append(.index(index))
        case .comment: path.append(.key("comments")); path.append(.index(index))
        case .chunkExtension: path.append(.key("chunkExtensions")); path.append(.index(index))
        case .flowValue(let tokens): for token in tokens { path.append(token) }
        default: path.append(.key(key))
        }
        return path
    }
}

/// A named value of an exchange: a header or trailer field, or a REST-client `@name = value`
/// variable before a message.
public struct HTTPField: Equatable {
    public enum List: String { case headers, trailers, variables }

    var exchange: Int
    public var list: List
    /// The message of a header or trailer.
    public var side: HTTPSide?
    var index: Int
    public var nameOffset: Int
    var nameCount: Int
    /// The value's first byte (after the blanks that follow the colon).
    public var valueOffset: Int
    /// The bytes the value spans as written: to the end of its line, or of its last obs-fold
    /// continuation line (without trailing blanks).
    public var valueRange: Range<Int>

    public var nameRange: Range<Int> { nameOffset..<nameOffset + nameCount }

    /// `/entries/<n>/request/headers/<i>`, `…/response/trailers/<i>`, `/entries/<n>/variables/<i>`.
    func path(under root: LayeredPath) -> LayeredPath {
        var path = root.appending(.key("entries")).appending(.index(exchange))
        if let side { path.append(.key(side.key)) }
        path.append(.key(list.rawValue))
        path.append(.index(index))
        return path
    }

    public func valuePath(under root: LayeredPath) -> LayeredPath { path(under: root).appending(.key("value")) }
    public func namePath(under root: LayeredPath) -> LayeredPath { path(under: root).appending(.key("name")) }
}

/// The end of an exchange: its bodies, which the reader keeps (in place, or decoded from chunked
/// framing) until then.
public struct HTTPExchange {
    public var index: Int
    public var request: Message?
    public var response: Message?

    public struct Message {
        public var body: Body?
        /// Where each `Content-Length` value of the message stands (the redactor corrects them).
        public var contentLengths: [Range<Int>] = []
    }

    public struct Body {
        public enum Bytes {
            /// The body stands in the input here (no chunked framing): a JSON body can be read
            /// in place, with exact positions.
            case input(Range<Int>)
            /// The chunks' data, joined.
            case decoded([UInt8])
        }

        var side: HTTPSide
        public var bytes: Bytes
        /// The first byte of the body as written (of its first chunk-size line when chunked).
        public var offset: Int
        public var mimeType: String?
        /// The codings `Content-Encoding` (and `Transfer-Encoding`) name that the scan can undo,
        /// each once: the body is still compressed.
        public var codings: [ContentCoding] = []
        /// A content coding named in `Content-Encoding` that the scanner cannot undo
        /// (`compress`, …): the body is not readable as it is, so it fails closed.
        public var unsupportedCoding: String? = nil

        public func path(exchange: Int, under root: LayeredPath) -> LayeredPath {
            var path = root.appending(.key("entries")).appending(.index(exchange)).appending(.key(side.key))
            for token in side.bodyPath { path.append(token) }
            return path
        }

        /// Calls `body` with the bytes; in-place bytes are read from `window`, where the pinned
        /// exchange keeps them.
        public func withBytes<R>(in window: ByteWindow, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            switch bytes {
            case .input(let range): try body(window.bytes(range))
            case .decoded(let decoded): try decoded.withUnsafeBytes(body)
            }
        }
    }

    /// The host of an absolute URL (without user info or port), as written; empty for a request
    /// target without one.
    public static func host(ofURL url: [UInt8]) -> ArraySlice<UInt8> {
        guard let colon = url.indices.dropLast(2).first(where: {
            url[$0] == UInt8(ascii: ":") && url[$0 + 1] == UInt8(ascii: "/") && url[$0 + 2] == UInt8(ascii: "/")
        }) else { return [] }
        let authority = url[(colon + 3)...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let host = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
        return host.prefix { $0 != UInt8(ascii: ":") }
    }

    /// The path of a URL (absolute, or a request target), lowercased.
    public static func path(ofURL url: [UInt8]) -> String {
        guard url.allSatisfy({ $0 < 0x80 }) else { return path(ofUnicodeURL: url) }
        var start = 0
        var end = url.count
        // The first `://` (a generic `firstRange(of:)` costs thousands of instructions here).
        if let colon = url.indices.dropLast(2).first(where: { url[$0] == UInt8(ascii: ":") && url[$0 + 1] == UInt8(ascii: "/") && url[$0 + 2] == UInt8(ascii: "/") }) {
            start = url[(colon + 3)...].firstIndex(of: UInt8(ascii: "/")) ?? end
            if start == end { return "/" }
        }
        if let cut = url[start..<end].firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { end = cut }
        return String(unsafeUninitializedCapacity: end - start) { out in
            for i in start..<end { out[i - start] = url[i] &- 0x41 < 26 ? url[i] | 0x20 : url[i] }
            return end - start
        }
    }

    /// `path(ofURL:)` for a URL with non-ASCII bytes, which lowercase beyond ASCII.
    private static func path(ofUnicodeURL url: [UInt8]) -> String {
        var text = String(decoding: url, as: UTF8.self).lowercased()
        if let schemeEnd = text.range(of: "://") {
            text = String(text[schemeEnd.upperBound...])
            text = text.firstIndex(of: "/").map { String(text[$0...]) } ?? "/"
        }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        return text
    }
}

extension ByteWindow {
    /// The visible bytes of `range`: valid until the window next reads.
    public func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + (range.lowerBound - start), count: range.count)
    }
}

import Foundation
