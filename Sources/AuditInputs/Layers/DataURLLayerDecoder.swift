/// A `data:` URL (RFC 2397) held in a string: `data:application/json;base64,eyJ0b2tlbiI6…` or
/// `data:text/plain,token%3D…`. Its payload is opened as the decoders open a value of its kind:
/// base64 as the base64 decoder opens it (text or gzip, never other bytes, so an image stays the
/// value's text), percent-encoded text decoded. What it holds is offered to the decoders again
/// (JSON opens as JSON) and scanned; the URL itself is scanned as text too. A token in a data
/// URL was otherwise hidden by its encoding: behind base64, or behind an escape such as `%3D`,
/// which left a letter before the token where its pattern wants a word boundary.
///
/// Strict: `data:` in any case, then a media type and parameters of URL characters without
/// blanks (at most 256 bytes) up to the first `,`; `;base64` as the last parameter says the
/// payload is base64. A payload without a `%` escape is left to the value's own scan; one that
/// would decode beyond the base64 decoder's `maxDecodedBytes` is refused (`decode` throws, and the
/// scan reports a limit), base64 or percent-encoded.
public struct DataURLLayerDecoder: LayerDecoder {
    public var name: String { "data" }
    /// `data:,` and at least one byte of payload.
    public var gate: LayerGate { LayerGate(minimumLength: 7, firstBytes: "dD") }

    /// The longest header (media type and parameters) read: far above real ones.
    static let maxHeaderLength = 256

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        guard let (payload, isBase64) = Self.payload(of: value), !payload.isEmpty else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: value[payload])
        if isBase64 { return try Base64LayerDecoder().decode(bytes) }
        guard LayerBytes.mayPercentDecode(bytes, plusAsSpace: false) else { return nil }
        return try PercentLayerDecoder.decodedText(bytes, refused: "a data URL of \(bytes.count) percent-encoded bytes")
    }

    /// Where the payload of the data URL `value` is, and whether the URL says it is base64; nil
    /// when `value` is no data URL.
    public static func payload(of value: UnsafeRawBufferPointer) -> (range: Range<Int>, isBase64: Bool)? {
        let scheme = "data:".utf8.count
        guard value.count > scheme, LayerBytes.hasPrefixIgnoringCase(value, "data:") else { return nil }
        var comma = scheme
        while comma < value.count && value[comma] != UInt8(ascii: ",") {
            guard comma - scheme < maxHeaderLength, isHeaderCharacter(value[comma]) else { return nil }
            comma += 1
        }
        guard comma < value.count else { return nil }
        let suffix = ";base64".utf8.count
        let isBase64 = comma - scheme >= suffix
            && UnsafeRawBufferPointer(rebasing: value[(comma - suffix)..<comma]).equalsIgnoringASCIICase(";base64")
        return ((comma + 1)..<value.count, isBase64)
    }

    /// Characters of a media type and its parameters as URLs write them: HTTP's token
    /// characters (`%` escapes among them), `/`, `;` and `=`; no blanks, quotes or commas.
    private static func isHeaderCharacter(_ b: UInt8) -> Bool {
        HTTPMessageReader.isTokenByte(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ";") || b == UInt8(ascii: "=")
    }
}
