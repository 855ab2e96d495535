/// One request and its response as a capture records them (a HAR entry, or raw HTTP messages),
/// with where each part sits in the input. Readers build it; `ExchangeScanner` judges it.
struct HTTPExchange {
    /// A named value: a header, a query or form parameter, a cookie.
    struct Field {
        var name: String
        var value: [UInt8]
        /// Offset to report for the value.
        var offset: Int
        var path: LayeredPath
    }

    /// A message body as captured.
    struct Body {
        var bytes: [UInt8]
        var offset: Int
        var path: LayeredPath
        var mimeType: String?
        /// The capture stored the body base64-encoded (HAR `encoding: "base64"`).
        var base64: Bool = false
        /// `Content-Encoding: gzip` and the body still compressed (raw HTTP).
        var gzip: Bool = false
        /// The body's bytes stand in the input exactly here, so a JSON body can be read in place
        /// with exact positions (raw HTTP without transfer or content encoding).
        var inPlace: Range<Int>?
    }

    /// A string that is not a named field (the URL, a redirect target).
    struct Text {
        var bytes: [UInt8]
        var offset: Int
        var path: LayeredPath
    }

    struct Message {
        var headers: [Field] = []
        var cookies: [Field] = []
        /// Form parameters (HAR `postData.params`).
        var params: [Field] = []
        var body: Body?
    }

    var method: String?
    var url: Text?
    /// Query parameters as the capture lists them (HAR `queryString`).
    var queryString: [Field] = []
    var request = Message()
    var response = Message()
    var redirectURL: Text?
    /// WebSocket frames: text frames as text, binary frames base64-encoded.
    var webSocketMessages: [Body] = []
    /// `curl -v` notes about the transfer (`* [HTTP/2] [1] [authorization: …]`).
    var notes: [Text] = []

    /// The request URL's path (no scheme, host, query or fragment), lowercased.
    var urlPath: String { url.map { HTTPExchange.path(ofURL: $0.bytes) } ?? "" }

    /// The path of a URL (absolute, or a request target), lowercased.
    static func path(ofURL url: [UInt8]) -> String {
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

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String, in message: Message) -> String? {
        message.headers.first { $0.name.equalsIgnoringCase(name) }
            .map { String(decoding: $0.value, as: UTF8.self) }
    }
}

extension String {
    /// ASCII case-insensitive equality.
    func equalsIgnoringCase(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
