import AuditBytes

/// A JSON Web Token held in a string (`eyJhbGciOi….eyJzdWIiOi….c2lnbmF0dXJl`, or the same after
/// `Bearer `), opened as one JSON object synthesized from its decoded parts:
/// `{"header": <header JSON>, "claims": <claims JSON>}`, the parts' bytes concatenated as decoded
/// (not re-serialized). A JWE (five segments) gives only its header: the rest is ciphertext.
/// The token itself is a credential and is still scanned by the pattern rules.
///
/// Strict and cheap to reject: the token must start with `e` (base64url of `{`), hold only
/// base64url characters and exactly two or four dots; the header must decode to a JSON object
/// naming an `alg`, the claims to a JSON object; an empty signature only with `"alg": "none"`.
public struct JWTLayerDecoder: LayerDecoder {
    public var name: String { "jwt" }
    public var gate: LayerGate { LayerGate(minimumLength: 20, firstBytes: "eBb", requiredByte: UInt8(ascii: ".")) }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first else { return nil }
        var start = 0
        if first != UInt8(ascii: "e") {
            guard first | 0x20 == UInt8(ascii: "b"), let after = LayerBytes.afterAuthScheme(value, "bearer") else { return nil }
            start = after
        }
        let end = LayerBytes.trimmedEnd(value, from: start)
        guard end - start >= 10, value[start] == UInt8(ascii: "e") else { return nil }
        var dots = (0, 0, 0, 0)
        var dotCount = 0
        for i in start..<end {
            let b = value[i]
            if b == UInt8(ascii: ".") {
                switch dotCount {
                case 0: dots.0 = i
                case 1: dots.1 = i
                case 2: dots.2 = i
                case 3: dots.3 = i
                default: return nil
                }
                dotCount += 1
            } else if Base64.value(b, .url) == nil && b != UInt8(ascii: "=") {
                return nil
            }
        }
        guard dotCount == 2 || dotCount == 4 else { return nil }
        guard let header = Base64.decode(value[start..<dots.0], alphabet: .url),
              JSONSyntaxCheck.firstNonBlank(header) == UInt8(ascii: "{"),
              let headerJSON = try? JSONValue.parse(header),
              let alg = headerJSON.value["alg"]?.stringValue else { return nil }
        if dotCount == 4 {
            return DecodedLayer(bytes: Self.prefixHeader + header + [UInt8(ascii: "}")], content: .json, replacesValue: false)
        }
        guard let claims = Base64.decode(value[(dots.0 + 1)..<dots.1], alphabet: .url),
              JSONSyntaxCheck.firstNonBlank(claims) == UInt8(ascii: "{"),
              JSONSyntaxCheck.isJSON(claims) else { return nil }
        if dots.1 + 1 == end && alg.lowercased() != "none" { return nil }
        return DecodedLayer(bytes: Self.prefixHeader + header + Self.claimsKey + claims + [UInt8(ascii: "}")],
                            content: .json, replacesValue: false)
    }

    private static let prefixHeader = Array(#"{"header":"#.utf8)
    private static let claimsKey = Array(#","claims":"#.utf8)
}
