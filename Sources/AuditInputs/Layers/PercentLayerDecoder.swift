import AuditBytes

/// A value percent-encoded whole, as `encodeURIComponent` and cookie libraries write one:
/// `%7B%22token%22%3A%22…%22%7D` (JSON in a cookie or a storage dump), `Bearer%20…`,
/// `x%22…%22`. Decoded, it is offered to the decoders again (JSON opens as JSON, URL-encoded
/// base64 as base64) and scanned; the value itself is scanned as text too. Otherwise a token
/// right after an escape was missed: the escape's hex digit stood where its pattern wants a
/// word boundary, and JSON escaped whole was no JSON.
///
/// Strict, and only where no other decoder reads the escapes: at least one `%` and every `%`
/// followed by two hex digits; nothing but a URL component's characters (letters, digits,
/// `-._~!$'()*+,;:@/` and the escapes), so prose, JSON and blanks are left alone; none of `=`,
/// `&`, `?` and `#`, and no `://` or `data:`, which make a form, a query or a URL for their own
/// decoders. `+` stays `+` (form encoding is the form decoder's). A value that would decode
/// beyond the base64 decoder's `maxDecodedBytes` is refused as a limit.
public struct PercentLayerDecoder: LayerDecoder {
    public var name: String { "percent" }
    /// The shortest value a secret can hide in: the pattern rules' shortest examples, escaped,
    /// take 20 bytes or more (a credential in prose of 14 characters with three blanks, an AWS
    /// access key id of 20 behind an escape 23), percent-encoded JSON (`%7B%22a%22%3A1%7D`) 18.
    /// A shorter value is left to its own scan, which spares the search for a `%` in the many
    /// short values (two thirds of a JSON export's).
    /// The first byte is a component character or an escape: JSON held in a string (`{`, `[`)
    /// is never searched for a `%`.
    public var gate: LayerGate {
        LayerGate(minimumLength: 16, firstBytes: "%ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;:@/",
                  requiredByte: UInt8(ascii: "%"))
    }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        guard Self.isPercentEncoded(value) else { return nil }
        return try Self.decodedText(value, refused: "a percent-encoded value of \(value.count) bytes")
    }

    /// `bytes` percent-decoded as a text layer that leaves the value to be scanned as well (this
    /// decoder's, and a data URL's percent-encoded payload). A decoded copy as large as the
    /// base64 decoder allows, within the memory a scan may take beyond its input; beyond it,
    /// refused as a limit, the refusal naming the value as `refused` does.
    static func decodedText(_ bytes: UnsafeRawBufferPointer, refused: @autoclosure () -> String) throws(LayerRefusal) -> DecodedLayer {
        guard bytes.count <= Base64LayerDecoder.maxDecodedBytes else {
            throw LayerRefusal(.limit, "\(refused()), over the limit of \(Base64LayerDecoder.maxDecodedBytes) bytes a layer may decode to; what it holds is not checked")
        }
        return DecodedLayer(bytes: LayerBytes.percentDecode(bytes, plusAsSpace: false), content: .text, replacesValue: false)
    }

    /// Whether `value` is percent-encoded as `decode` opens it.
    public static func isPercentEncoded(_ value: UnsafeRawBufferPointer) -> Bool {
        var escapes = 0
        var i = 0
        while i < value.count {
            let b = value[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < value.count, LayerBytes.hexValue(value[i + 1]) != nil, LayerBytes.hexValue(value[i + 2]) != nil else { return false }
                escapes += 1
                i += 3
                continue
            }
            guard componentCharacters[Int(b)] else { return false }
            i += 1
        }
        return escapes > 0 && !value.containsBytes("://") && !LayerBytes.hasPrefixIgnoringCase(value, "data:")
    }

    /// A URL component's characters as encoders leave them: RFC 3986's unreserved characters
    /// and its sub-delimiters, `:`, `@` and `/`, but for `=` and `&` (a form's). The gate's first
    /// bytes are these and `%`.
    private static let componentCharacters: [Bool] = (0..<256).map { b in
        let byte = UInt8(b)
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~!$'()*+,;:@/".utf8.contains(byte)
    }
}
