@testable import AuditInputs
import Testing

@Suite struct QueryLayerDecoderTests {
    let decoder = QueryLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    @Test func absoluteURLGivesItsQueryInOrder() {
        let url = "https://api.example.com/v1/sync?access_token=fake-token-0123&page=2#section?x=1"
        let layer = LayerTesting.decode(decoder, url)
        #expect(pairs(url) == [["access_token", "fake-token-0123"], ["page", "2"]])
        #expect(layer?.replacesValue == false)
        #expect(LayerTesting.encodedPairsText(decoder, url) == "access_token=fake-token-0123&page=2")
        #expect(decoder.name == "query")
    }

    @Test(arguments: [
        ("http://example.com?a=1", [["a", "1"]]),
        ("HTTPS://Example.COM/p?a=1", [["a", "1"]]),
        ("ws://localhost:8080/socket?token=fake-ws-token", [["token", "fake-ws-token"]]),
        ("wss://stream.example.com/live?key=fake&key=again", [["key", "fake"], ["key", "again"]]),
        ("/oauth/callback?code=fake%2Fcode%3D&state=a+b", [["code", "fake/code="], ["state", "a b"]]),
        ("/?debug&x=1", [["debug", ""], ["x", "1"]]),
        ("/p?&a=1&&b=&", [["a", "1"], ["b", ""]]),
        ("/p?sig=abc==&=orphan", [["sig", "abc=="], ["", "orphan"]]),
        ("/p?next=/a?b=c", [["next", "/a?b=c"]]),
        ("/p?na%6De=%C3%A9t%C3%A9", [["name", "été"]]),
        ("/p?a+b=c%2Bd", [["a b", "c+d"]]),
    ])
    func accepted(_ url: String, _ expected: [[String]]) {
        #expect(pairs(url) == expected)
    }

    /// An invalid escape is kept as written, as browsers do, and the rest still decodes.
    @Test func invalidPercentEscapesAreKept() {
        #expect(pairs("/p?q=100%zz&r=%4&s=%&t=%41") == [["q", "100%zz"], ["r", "%4"], ["s", "%"], ["t", "A"]])
    }

    @Test(arguments: [
        "https://example.com/path",           // no query
        "https://example.com/path?",          // empty query
        "https://example.com/?&&",            // only empty parts
        "https://example.com/#frag?a=1",      // the `?` is in the fragment
        "https:///?a=1",                      // no host
        "ftp://example.com/?a=1",             // not a web scheme
        "mailto:someone@example.com?subject=hi",
        "see https://example.com/?a=1",       // prose mentioning a URL
        "https://example.com/?a=1 and more",  // blanks
        "https://example.com/?a=1\n",
        "?a=1",
        "a=1&b=2",
        "hxxps://example.com/?a=1",
        "",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }
}
