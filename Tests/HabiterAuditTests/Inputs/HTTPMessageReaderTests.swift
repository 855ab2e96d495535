@testable import AuditCore
@testable import AuditInputs
import Testing

/// What the raw HTTP reader hands its visitor, as parts with their paths (the scanner's) and
/// offsets: texts and fields as they come, bodies at the end of their exchange.
struct HTTPPartRecorder: HTTPMessageVisitor {
    struct Part: Equatable, CustomStringConvertible {
        var path: String
        /// `note`, `url`, … for texts, the lowercased name for a field's value, `name` for a
        /// field's name, `body` for a body.
        var name: String
        var offset: Int
        var value: [UInt8]

        var description: String { "\(path) \(name) @\(offset) \(String(decoding: value, as: UTF8.self))" }
    }

    let window: ByteWindow
    var parts: [Part] = []

    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) {
        parts.append(Part(path: text.path(under: LayeredPath()).description, name: text.key, offset: text.offset, value: Array(bytes)))
    }

    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        parts.append(Part(path: field.namePath(under: LayeredPath()).description, name: "name", offset: field.nameOffset, value: Array(name)))
        parts.append(Part(path: field.valuePath(under: LayeredPath()).description, name: String(decoding: name, as: UTF8.self).lowercased(),
                          offset: field.valueOffset, value: Array(value)))
    }

    mutating func exchange(_ exchange: HTTPExchange) {
        for body in [exchange.request?.body, exchange.response?.body].compactMap({ $0 }) {
            parts.append(Part(path: body.path(exchange: exchange.index, under: LayeredPath()).description, name: "body",
                              offset: body.offset, value: body.withBytes(in: window) { Array($0) }))
        }
    }

    /// Every part of every exchange of `bytes`, read whole.
    static func parts(_ bytes: [UInt8]) throws -> [Part] {
        try bytes.withUnsafeBytes { buffer in
            let window = ByteWindow(whole: buffer)
            var reader = HTTPMessageReader(window: window, start: 0)
            var recorder = HTTPPartRecorder(window: window)
            while try reader.nextExchange(&recorder) {
                if let truncation = reader.truncation { throw truncation }
                window.unpin()
            }
            return recorder.parts
        }
    }

    /// The error reading `text` stops at, if any.
    static func error(_ text: String) -> HTTPSyntaxError? {
        do {
            _ = try parts(Array(text.utf8))
            return nil
        } catch {
            return error as? HTTPSyntaxError
        }
    }
}

/// The raw HTTP reader: every byte that can hold text reaches the visitor, and framing numbers
/// are read strictly (issue 18).
@Suite struct HTTPMessageReaderTests {
    @Test func everyTextPartReachesTheVisitorAtItsOffset() throws {
        let text = "### title\n@apiKey = v1\n* note\nPOST /p?q=1 HTTP/1.1\nX-A: one\n  two\nContent-Length: 2\n\nab\n"
            + "* between\nHTTP/1.1 200 Fine Thanks\nTransfer-Encoding: chunked\n\n3;sig=x1\nabc\n0\nX-T: tail\n\n"
        let parts = try HTTPPartRecorder.parts(Array(text.utf8)).map(\.description)
        #expect(parts == [
            "/entries/0/comments/0 comment @0 ### title",
            "/entries/0/variables/0/name name @11 apiKey",
            "/entries/0/variables/0/value apikey @20 v1",
            "/entries/0/notes/0 note @25 note",
            "/entries/0/request/method method @30 POST",
            "/entries/0/request/url url @35 /p?q=1",
            "/entries/0/request/httpVersion httpVersion @42 HTTP/1.1",
            "/entries/0/request/headers/0/name name @51 X-A",
            "/entries/0/request/headers/0/value x-a @56 one two",
            "/entries/0/request/headers/1/name name @66 Content-Length",
            "/entries/0/request/headers/1/value content-length @82 2",
            "/entries/0/notes/1 note @90 between",
            "/entries/0/response/httpVersion httpVersion @98 HTTP/1.1",
            "/entries/0/response/statusText statusText @111 Fine Thanks",
            "/entries/0/response/headers/0/name name @123 Transfer-Encoding",
            "/entries/0/response/headers/0/value transfer-encoding @142 chunked",
            "/entries/0/response/chunkExtensions/0 chunkExtension @152 ;sig=x1",
            "/entries/0/response/trailers/0/name name @166 X-T",
            "/entries/0/response/trailers/0/value x-t @171 tail",
            "/entries/0/request/postData/text body @85 ab",
            "/entries/0/response/content/text body @151 abc",
        ])
    }

    @Test(arguments: ["1e23", "abc", "5, 500", "+5", "-1", "", "5abc", "0x10", "5,", "5 5", "٥"])
    func aContentLengthThatIsNoDecimalNumberIsAnErrorAtTheValue(_ value: String) throws {
        let text = "POST /x HTTP/1.1\nContent-Length: \(value)\n\nhello"
        let error = try #require(HTTPPartRecorder.error(text))
        #expect(error.reason == (value == "5, 500" ? "Content-Length values differ" : "Content-Length is not a decimal number"))
        #expect(error.offset == 33)
    }

    @Test func identicalContentLengthsAreOneLength() throws {
        for headers in ["Content-Length: 5, 5", "Content-Length: 5\ncontent-length: 5"] {
            let parts = try HTTPPartRecorder.parts(Array("POST /x HTTP/1.1\n\(headers)\n\nhelloHTTP/1.1 204 No Content\n\n".utf8))
            #expect(parts.filter { $0.name == "body" }.map { String(decoding: $0.value, as: UTF8.self) } == ["hello"])
        }
        #expect(HTTPPartRecorder.error("POST /x HTTP/1.1\nContent-Length: 5\nContent-Length: 6\n\nhello")
                == HTTPSyntaxError(reason: "Content-Length values differ", offset: 51))
    }

    @Test(arguments: [
        ("9223372036854775807", "the body is shorter than its Content-Length"),
        ("9223372036854775808", "Content-Length is too large to represent"),
        ("18446744073709551615", "Content-Length is too large to represent"),
        ("99999999999999999999999999999999", "Content-Length is too large to represent"),
    ])
    func aHugeContentLengthIsAnErrorNotATrap(_ value: String, _ reason: String) {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\nx"
        let offset = reason.hasPrefix("the body") ? text.utf8.count : 33
        #expect(HTTPPartRecorder.error(text) == HTTPSyntaxError(reason: reason, offset: offset))
    }

    @Test(arguments: [
        ("7FFFFFFFFFFFFFFF", "chunk is shorter than its size"),
        ("8000000000000000", "chunk size is too large to represent"),
        ("FFFFFFFFFFFFFFFFF", "chunk size is too large to represent"),
        ("+5", "malformed chunk size (hex digits, then an optional ';' extension)"),
        ("-1", "malformed chunk size (hex digits, then an optional ';' extension)"),
        (" 5", "malformed chunk size (hex digits, then an optional ';' extension)"),
        ("5x", "malformed chunk size (hex digits, then an optional ';' extension)"),
        ("0x5", "malformed chunk size (hex digits, then an optional ';' extension)"),
        ("", "malformed chunk size (hex digits, then an optional ';' extension)"),
    ])
    func aChunkSizeIsHexDigitsThatFit(_ size: String, _ reason: String) {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nx\r\n"
        let offset = reason.hasPrefix("chunk is shorter") ? text.utf8.count : 47
        #expect(HTTPPartRecorder.error(text) == HTTPSyntaxError(reason: reason, offset: offset))
    }

    @Test func chunkDataLongerThanItsSizeIsAnErrorNotSkipped() {
        let text = "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nabcdef\n0\n\n"
        #expect(HTTPPartRecorder.error(text) == HTTPSyntaxError(reason: "chunk data is not followed by a line break (longer than its size)", offset: 48))
    }

    @Test func aMalformedTrailerIsAnError() {
        let text = "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n0\nnot a field\n\n"
        #expect(HTTPPartRecorder.error(text) == HTTPSyntaxError(reason: "malformed trailer line (expected 'Name: value')", offset: 46))
    }

    @Test(arguments: [
        "HEAD /x HTTP/1.1\n\nHTTP/1.1 200 OK\nContent-Length: 900\n\n",
        "GET /x HTTP/1.1\n\nHTTP/1.1 304 Not Modified\nContent-Length: 900\n\n",
        "GET /x HTTP/1.1\n\nHTTP/1.1 204 No Content\nContent-Length: 900\n\n",
    ])
    func responsesWithoutABodyTakeNoBytesOfTheNextMessage(_ exchange: String) throws {
        let parts = try HTTPPartRecorder.parts(Array((exchange + "GET /next HTTP/1.1\n\n").utf8))
        #expect(!parts.contains { $0.name == "body" })
        #expect(parts.filter { $0.name == "url" }.map { String(decoding: $0.value, as: UTF8.self) } == ["/x", "/next"])
    }

    @Test func aSyntaxErrorStillHandsOverTheBodiesReadBeforeIt() throws {
        let bytes = Array("POST /x HTTP/1.1\nContent-Length: 5\n\nhello\nHTTP/1.1 200 OK\nbroken\n\n".utf8)
        var bodies: [String] = []
        bytes.withUnsafeBytes { buffer in
            let window = ByteWindow(whole: buffer)
            var reader = HTTPMessageReader(window: window, start: 0)
            var recorder = HTTPPartRecorder(window: window)
            #expect(throws: HTTPSyntaxError.self) { _ = try reader.nextExchange(&recorder) }
            bodies = recorder.parts.filter { $0.name == "body" }.map { String(decoding: $0.value, as: UTF8.self) }
        }
        #expect(bodies == ["hello"])
    }

    @Test func framingNumbers() throws {
        func length(_ text: String) -> Result<Int, HTTPFramingError> {
            Array(text.utf8).withUnsafeBytes { HTTPFraming.contentLength($0) }
        }
        func chunk(_ text: String) -> Result<(size: Int, extensions: Int?), HTTPFramingError> {
            Array(text.utf8).withUnsafeBytes { HTTPFraming.chunkSize($0) }
        }
        #expect(length("0") == .success(0))
        #expect(length("9223372036854775807") == .success(Int.max))
        #expect(length("007, 7") == .success(7))
        #expect(try chunk("1a;name=value").get() == (26, 2))
        #expect(try chunk("FF \t").get() == (255, nil))
        #expect(try chunk("7fffffffffffffff").get() == (Int.max, nil))
    }
}
