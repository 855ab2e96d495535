@testable import AuditInputs
import Testing

@Suite struct JWTLayerDecoderTests {
    let decoder = JWTLayerDecoder()
    static let header = #"{"alg":"HS256","typ":"JWT"}"#
    static let claims = #"{"sub":"user-0123","api_key":"fake-api-key-0123","iat":1700000000}"#
    static let signature = "ZmFrZS1zaWduYXR1cmUtbm90LXJlYWw"

    static func segment(_ text: String) -> String { LayerTesting.base64(text, url: true, padded: false) }
    static func token(_ header: String = header, _ claims: String = claims, _ signature: String = signature) -> String {
        segment(header) + "." + segment(claims) + "." + signature
    }

    @Test func tokenOpensAsHeaderAndClaims() {
        let layer = LayerTesting.decode(decoder, Self.token())
        #expect(LayerTesting.isJSON(layer))
        #expect(LayerTesting.string(layer) == #"{"header":{"alg":"HS256","typ":"JWT"},"claims":{"sub":"user-0123","api_key":"fake-api-key-0123","iat":1700000000}}"#)
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "jwt")
        // The synthesized bytes are one JSON text.
        let parsed = try? JSONValue.parse(layer!.bytes)
        #expect(parsed?.value["claims"]?["api_key"]?.stringValue == "fake-api-key-0123")
    }

    /// The parts are concatenated as decoded, blanks and key order kept.
    @Test func partsAreNotReserialized() {
        let layer = LayerTesting.decode(decoder, Self.token("{ \"typ\": \"JWT\",\n \"alg\": \"RS256\" }", #"{"b":1, "a":[2]}"#))
        #expect(LayerTesting.string(layer) == "{\"header\":{ \"typ\": \"JWT\",\n \"alg\": \"RS256\" },\"claims\":{\"b\":1, \"a\":[2]}}")
    }

    @Test(arguments: ["Bearer ", "bearer ", "BEARER\t", "Bearer   "])
    func bearerValues(_ scheme: String) {
        #expect(LayerTesting.isJSON(LayerTesting.decode(decoder, scheme + Self.token() + "\n")))
    }

    @Test func unsignedTokenNeedsAlgNone() {
        #expect(LayerTesting.isJSON(LayerTesting.decode(decoder, Self.token(#"{"alg":"none"}"#, #"{"sub":"x"}"#, ""))))
        #expect(LayerTesting.decode(decoder, Self.token(#"{"alg":"HS256"}"#, #"{"sub":"x"}"#, "")) == nil)
    }

    @Test func jweGivesOnlyItsHeader() {
        let jwe = Self.segment(#"{"alg":"RSA-OAEP","enc":"A256GCM"}"#) + ".ZmFrZWtleQ.ZmFrZWl2.ZmFrZWNpcGhlcnRleHQ.ZmFrZXRhZw"
        let layer = LayerTesting.decode(decoder, jwe)
        #expect(LayerTesting.string(layer) == #"{"header":{"alg":"RSA-OAEP","enc":"A256GCM"}}"#)
    }

    @Test func paddedSegmentsAreTolerated() {
        let token = LayerTesting.base64(#"{"alg":"HS256"}"#, url: true) + "." + LayerTesting.base64(#"{"a":"bc"}"#, url: true) + ".c2ln"
        #expect(LayerTesting.isJSON(LayerTesting.decode(decoder, token)))
    }

    @Test(arguments: [
        segment(header) + ".!!!!." + signature,                                   // garbage claims characters
        segment(header) + ".eyJzdWIiOiJ4Ig.sig+/",                                // standard-alphabet signature
        segment(header) + "." + segment("not json at all") + "." + signature,
        segment(header) + "." + segment(#"{"sub":"x""#) + "." + signature,         // truncated claims
        segment(header) + "." + segment("[1,2]") + "." + signature,                // claims not an object
        segment(header) + ".eyJzdWIiOiJ4In0=x." + signature,                      // data after padding
        segment(header) + ".eyJzdWIiOiJ4In1." + signature,                        // non-zero trailing bits
        segment(#"{"typ":"JWT"}"#) + "." + segment(claims) + "." + signature,     // header without alg
        segment(#"{"alg":5}"#) + "." + segment(claims) + "." + signature,         // alg not a string
        segment("{broken") + "." + segment(claims) + "." + signature,
        segment(header) + "." + segment(claims),                                  // two segments
        segment(header) + "." + segment(claims) + "." + signature + ".x",         // four segments
        token() + ".a.b.c",                                                       // six segments
        "eyJ.eyJ.eyJ",
        "e1.2.3-beta.4",
        "example.com.au",
        "Bearer",
        "Bearer abc.def.ghi",
        "Bearer" + token(),                                                       // no blank
        "Token " + token(),
        "x" + token(),
        "",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    /// Random base64url segments shaped like a JWT never open.
    @Test func randomSegmentsAreRejected() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        func random(_ count: Int) -> String {
            String(decoding: (0..<count).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
        }
        var accepted = 0
        for _ in 0..<2_000 {
            let token = "eyJ" + random(Int.random(in: 10...60, using: &generator)) + "." + random(40) + "." + random(43)
            if LayerTesting.decode(decoder, token) != nil { accepted += 1 }
        }
        #expect(accepted == 0)
    }
}
