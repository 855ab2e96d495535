/// An HTTP/1.x message held in a string: what a proxy exports of a request or a response (Burp
/// Suite's `<request base64="true">` items, base64 or as they are), a raw request in a log or a
/// ticket. A value whose first line is a status line or a request line with its version (`POST
/// /login HTTP/1.1`), and which goes on past it. Read as a `.http` file is (`HTTPMessageReader`):
/// each header judged by its name, each body by its type and content coding, so that an
/// `X-Api-Key` header and a gzip body are checked, where the value as text gave the pattern rules
/// alone.
public struct HTTPLayerDecoder: LayerDecoder {
    public var name: String { "http" }
    /// `GET / HTTP/1.1` and a line break; a method is upper case, as a status line's `HTTP/` is.
    public var gate: LayerGate { LayerGate(minimumLength: 15, firstBytes: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", requiredByte: 0x0A) }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        let bytes = value.assumingMemoryBound(to: UInt8.self)
        guard let lineFeed = bytes.firstIndex(of: 0x0A), Self.isStartLine(UnsafeBufferPointer(rebasing: bytes[..<lineFeed])) else { return nil }
        return DecodedLayer(bytes: [], content: .valueIsHTTP, replacesValue: true)
    }

    /// A status line, or a request line with its version (a method and a target alone are as
    /// likely a note's first words). A CR before the line feed is allowed.
    static func isStartLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let line = line.last == 0x0D ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
        return HTTPMessageReader.isStatusLine(line) || HTTPMessageReader.isRequestLine(line, withVersion: true)
    }
}
