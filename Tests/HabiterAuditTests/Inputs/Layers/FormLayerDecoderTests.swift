@testable import AuditInputs
import Testing

@Suite struct FormLayerDecoderTests {
    let decoder = FormLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    @Test func tokenRequestBody() {
        let body = "grant_type=refresh_token&refresh_token=fake-refresh-0123&client_id=habiter"
        let layer = LayerTesting.decode(decoder, body)
        #expect(LayerTesting.encodedPairsText(decoder, body) == body)
        #expect(pairs(body) == [["grant_type", "refresh_token"], ["refresh_token", "fake-refresh-0123"], ["client_id", "habiter"]])
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "form")
    }

    @Test(arguments: [
        ("redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=openid+profile", [["redirect_uri", "https://app.example/cb"], ["scope", "openid profile"]]),
        ("next=https://app.example/cb?x=1&token=abc==", [["next", "https://app.example/cb?x=1"], ["token", "abc=="]]),
        ("a=&b=1", [["a", ""], ["b", "1"]]),
        ("a=1&a=2", [["a", "1"], ["a", "2"]]),
        ("password=fake-pass-0123", [["password", "fake-pass-0123"]]),
        ("scope[]=read", [["scope[]", "read"]]),
        ("user.api-key=v", [["user.api-key", "v"]]),
        ("x%5By%5D=1&z+w=2", [["x[y]", "1"], ["z w", "2"]]),
        ("q=%E2%9C%93&r=%zz&s=50%", [["q", "✓"], ["r", "%zz"], ["s", "50%"]]),  // invalid escapes kept
    ])
    func accepted(_ body: String, _ expected: [[String]]) {
        #expect(pairs(body) == expected)
    }

    @Test(arguments: [
        "hello world=1",                     // blank
        "a=1&b",                             // a part without `=`
        "a=1&&b=2",                          // empty part
        "a=1&",
        "=value",                            // empty name
        "a==b",                              // value starting with `=`
        "dGVzdGluZzEyMw==",                  // base64 padding is not a form
        "YWJjZGU=",
        "YWJjZGVm==&x=1",
        "eyJuZXh0Q3Vyc29yIjpudWxsfQ==",       // a base64 body, padded with two
        "eyJuZXh0Q3Vyc29yIjpudWxsLCJ4IjoxfQ=",  // and with one
        "x&a=1",                             // `&` before the first `=`
        "a=",
        "token=",                            // a lone pair needs a value
        "a%20b=1",                           // a lone pair needs a plain name
        "123=456",                           // with a letter
        "https://example.com/?a=1",          // URLs are the query decoder's
        "/callback?a=1",
        "?a=1",
        "a=1\nb=2",
        #"x={"a":1}"#,
        "a=<b>",
        "k=v&k2=v w",
        "name=café",                         // ASCII only
        "note: a=b",
        "x=1|2",
        "just some words",
        "",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    /// Padded base64 (what the base64 decoder opens) is never a form.
    @Test func base64IsNotAForm() {
        var generator = SeededGenerator(seed: 11)
        for i in 0..<5_000 {
            let bytes = (0..<Int.random(in: 1...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = LayerTesting.base64(bytes, url: i % 2 == 0)
            #expect(LayerTesting.decode(decoder, text) == nil, "\(text)")
        }
    }
}
