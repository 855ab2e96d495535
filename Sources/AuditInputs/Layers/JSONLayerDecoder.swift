/// JSON held in a string: a value whose first non-blank character opens an object or array. The
/// JSON reader decides whether it really is JSON; a string that is not (`"{name} is great"`) is
/// scanned as text.
public struct JSONLayerDecoder: LayerDecoder {
    public var name: String { "json" }
    public var gate: LayerGate { LayerGate(minimumLength: 2, firstBytes: "{[ \t\r\n") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let open = nextNonBlank(value, from: 0), value[open] == UInt8(ascii: "{") || value[open] == UInt8(ascii: "[") else {
            return nil
        }
        // What follows the bracket must be able to continue JSON, or the reader would only fail
        // later: templates and masks (`{{token}}`, `{name}`, `[REDACTED]`) cost no copy and no
        // read. An object goes on with a key or its end, an array with a value or its end.
        guard let next = nextNonBlank(value, from: open + 1) else { return nil }
        let continues = value[open] == UInt8(ascii: "{") ? JSONLayerDecoder.objectContinuations : JSONLayerDecoder.arrayContinuations
        guard continues.utf8.contains(value[next]) else { return nil }
        return DecodedLayer(bytes: [], content: .valueIsJSON, replacesValue: true)
    }

    private static let objectContinuations = "\"}"
    private static let arrayContinuations = "\"{[]-0123456789tfn"

    private func nextNonBlank(_ value: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i < value.count {
            let b = value[i]
            if b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 { return i }
            i += 1
        }
        return nil
    }
}
