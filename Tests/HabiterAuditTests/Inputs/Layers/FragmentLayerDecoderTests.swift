@testable import AuditInputs
import Testing

@Suite struct FragmentLayerDecoderTests {
    let decoder = FragmentLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    /// The app's three redirect URIs, with the fragment its server writes (`code=…&state=…`).
    @Test(arguments: [
        "https://mobile.habiter.dev/auth/callback#code=fake-code-0123456789&state=fake-state-0123456789",
        "dev.habiter.app://auth/callback#code=fake-code-0123456789&state=fake-state-0123456789",
        "http://localhost:43823/callback#code=fake-code-0123456789&state=fake-state-0123456789",
    ])
    func callbacksGiveCodeAndState(_ url: String) {
        let layer = LayerTesting.decode(decoder, url)
        #expect(pairs(url) == [["code", "fake-code-0123456789"], ["state", "fake-state-0123456789"]])
        #expect(layer?.replacesValue == false)
        #expect(LayerTesting.encodedPairsText(decoder, url) == "code=fake-code-0123456789&state=fake-state-0123456789")
        #expect(decoder.name == "fragment")
    }

    @Test(arguments: [
        ("/callback#access_token=fake&token_type=Bearer&state=s1", [["access_token", "fake"], ["token_type", "Bearer"], ["state", "s1"]]),
        ("https://host/p?q=1#a=b%2Fc&d=e+f", [["a", "b/c"], ["d", "e f"]]),
        ("wss://host/live#k=v", [["k", "v"]]),
        ("https://host/#a=", [["a", ""]]),
        ("https://host/p#a=b#c", [["a", "b#c"]]),
    ])
    func accepted(_ url: String, _ expected: [[String]]) {
        #expect(pairs(url) == expected)
    }

    @Test(arguments: [
        "https://example.com/page#top",               // an anchor
        "https://example.com/#/settings?tab=2",       // a hash route
        "https://example.com/page#",                  // an empty fragment
        "https://example.com/page",                   // no fragment
        "https://example.com/p#a=1&",                 // a part without a name
        "https://example.com/p#=1",                   // an empty name
        "see https://example.com/#a=1",               // prose
        "https://example.com/p #a=1",                 // a blank
        "#a=1",                                       // no URL
        "Walk #2=done",                               // text
        "mailto:someone@example.com#a=1",             // no `://`
        "https:///p#a=1",                             // no host
    ])
    func rejected(_ text: String) {
        #expect(pairs(text) == nil)
    }
}
