/// What a decoder found inside a string value.
public struct DecodedLayer: Sendable {
    /// How to read the decoded bytes.
    public enum Content: Sendable {
        /// A JSON text: read with the JSON reader (keys, values, further layers).
        case json
        /// Plain text (or bytes): offered to the decoders again, else scanned with the pattern
        /// rules as one value.
        case text
        /// Named values (URL query, form body, userinfo, Basic credentials): each value is
        /// judged by its name like an object member, and offered to the decoders.
        case pairs([DecodedPair])
    }

    public var bytes: [UInt8]
    public var content: Content
    /// True when the layer holds everything the value says (JSON text), so the value itself is
    /// not scanned again as text; false when the value is worth scanning as it is too (a JWT is
    /// a credential, and its decoded claims are scanned as well).
    public var replacesValue: Bool

    public init(bytes: [UInt8], content: Content, replacesValue: Bool) {
        self.bytes = bytes
        self.content = content
        self.replacesValue = replacesValue
    }
}

/// One name and value of a `pairs` layer, both decoded (percent-decoding and the like).
public struct DecodedPair: Sendable, Equatable {
    public var name: [UInt8]
    public var value: [UInt8]

    public init(name: [UInt8], value: [UInt8]) {
        self.name = name
        self.value = value
    }
}

/// Opens an embedded layer held in a string value: JSON in a string here; base64, URL queries,
/// form bodies, JWTs and the like plug in the same way. Each decoder must reject a value that
/// is not its kind cheaply, because every string value is offered to every decoder.
public protocol LayerDecoder: Sendable {
    /// The decoder's name in layered paths: `/note!json/apiKey`.
    var name: String { get }
    /// The layer inside `value`, or nil when `value` is not this kind of layer.
    func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer?
}

/// The decoders a scan tries, in order. Every decoder that accepts a value opens a layer; the
/// order only orders the findings. Base64 hands gzip on as bytes, for the gzip decoder.
public enum LayerDecoders {
    public static let standard: [any LayerDecoder] = [
        JSONLayerDecoder(), JWTLayerDecoder(), QueryLayerDecoder(), UserinfoLayerDecoder(), FormLayerDecoder(),
        BasicAuthLayerDecoder(), Base64LayerDecoder(), GzipLayerDecoder(),
    ]
}
