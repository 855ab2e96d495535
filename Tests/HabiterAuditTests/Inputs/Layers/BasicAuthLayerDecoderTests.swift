@testable import AuditInputs
import Testing

@Suite struct BasicAuthLayerDecoderTests {
    let decoder = BasicAuthLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    @Test func basicCredentials() {
        let value = "Basic " + LayerTesting.base64("habiter-user:fake-pass-0123")
        #expect(value == "Basic aGFiaXRlci11c2VyOmZha2UtcGFzcy0wMTIz")
        let layer = LayerTesting.decode(decoder, value)
        #expect(pairs(value) == [["username", "habiter-user"], ["password", "fake-pass-0123"]])
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "basic")
    }

    @Test(arguments: [
        ("basic " + LayerTesting.base64("u:p"), ["u", "p"]),
        ("BASIC\t" + LayerTesting.base64("u:p", padded: false), ["u", "p"]),
        ("Basic   " + LayerTesting.base64("u:p:q") + "  ", ["u", "p:q"]),  // the first `:` splits
        ("Basic " + LayerTesting.base64("sk_test_fakefakefake:"), ["sk_test_fakefakefake", ""]),  // API key as user
        ("Basic " + LayerTesting.base64(":fake-only-password"), ["", "fake-only-password"]),
        ("Basic " + LayerTesting.base64("jürgen:pässwörd"), ["jürgen", "pässwörd"]),
    ])
    func accepted(_ value: String, _ expected: [String]) {
        #expect(pairs(value) == [["username", expected[0]], ["password", expected[1]]])
    }

    @Test(arguments: [
        "Basic",
        "Basic ",
        "Basic !!!!",
        "BasicdTpw",                                           // no blank after the scheme
        "Basic " + LayerTesting.base64("no-colon-here"),
        "Basic " + LayerTesting.base64(":"),                   // both empty
        "Basic " + LayerTesting.base64("user:pa\nss"),         // control character
        "Basic " + LayerTesting.base64([0xFF, 0x3A, 0x01, 0x02]),  // binary
        "Basic dXNlcjpwYXNz x",                                // more after the token
        "Bearer " + LayerTesting.base64("user:pass"),
        "Digest username=\"u\"",
        LayerTesting.base64("user:pass"),                       // no scheme
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }
}
