import AuditBytes

/// HTTP Basic credentials, an `Authorization` value `Basic <base64(user:password)>` (scheme in
/// any case): (`username`, …) and (`password`, …). Either may be empty, not both: an API key sent
/// as the user name with an empty password is the secret. The value itself is still scanned.
///
/// Strict: the `Basic` scheme word and a blank must come first (a one-byte check rejects almost
/// everything), the rest must be base64, and it must decode to UTF-8 text with a `:` and no
/// control characters.
public struct BasicAuthLayerDecoder: LayerDecoder {
    public var name: String { "basic" }
    public var gate: LayerGate { LayerGate(minimumLength: 10, firstBytes: "Bb") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first, first | 0x20 == UInt8(ascii: "b"),
              let start = LayerBytes.afterAuthScheme(value, "basic") else { return nil }
        let end = LayerBytes.trimmedEnd(value, from: start)
        guard end - start >= 4 else { return nil }
        let token = value[start..<end]
        guard let credentials = Base64.decode(token, alphabet: .standard) ?? Base64.decode(token, alphabet: .url),
              credentials.count >= 2,
              let colon = credentials.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var check = TextCheck(expectedBytes: credentials.count)
        for b in credentials {
            guard b >= 0x20, b != 0x7F, check.feed(b) else { return nil }
        }
        guard check.finish(), check.unprintable == 0 else { return nil }
        let pairs = [
            DecodedPair(name: Array("username".utf8), value: Array(credentials[..<colon])),
            DecodedPair(name: Array("password".utf8), value: Array(credentials[(colon + 1)...])),
        ]
        return DecodedLayer(bytes: [], content: .pairs(PairList(pairs)), replacesValue: false)
    }
}
