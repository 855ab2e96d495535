/// JSON held in a string: a value whose first non-blank character opens an object or array. The
/// JSON reader decides whether it really is JSON; a string that is not (`"{name} is great"`) is
/// scanned as text.
public struct JSONLayerDecoder: LayerDecoder {
    public let name = "json"
    public let gate = LayerGate(minimumLength: 2, firstBytes: "{[ \t\r\n")

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        for b in value {
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { continue }
            guard b == UInt8(ascii: "{") || b == UInt8(ascii: "[") else { return nil }
            return DecodedLayer(bytes: Array(value), content: .json, replacesValue: true)
        }
        return nil
    }
}
