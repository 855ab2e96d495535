@testable import AuditInputs
import Testing

@Suite struct PercentLayerDecoderTests {
    let decoder = PercentLayerDecoder()

    @Test func aValueEscapedWholeIsDecoded() {
        let layer = LayerTesting.decode(decoder, "%7B%22token%22%3A%22fake-0123456789%22%7D")
        #expect(LayerTesting.isText(layer))
        #expect(LayerTesting.string(layer) == #"{"token":"fake-0123456789"}"#)
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "percent")
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "Bearer%20abc")) == "Bearer abc")
        // `+` is no space; lowercase hex; the component characters as they are.
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "a+b%2fc~d_e.f-g!h$i'j(k)l*m,n;o:p@q/r")) == "a+b/c~d_e.f-g!h$i'j(k)l*m,n;o:p@q/r")
        // Escaped twice: one layer at a time.
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "x%2520y")) == "x%20y")
    }

    @Test(arguments: [
        "no escapes at all",
        "plain",
        "50% off",                              // `%` without two hex digits
        "100%2",                                // cut short at the end
        "%zz",
        "50%25 off",                            // a blank: prose, not an encoded value
        "a%20b=c",                              // a form's: `=`
        "a%20b&c",                              // and `&`
        "/path?q=%20",                          // a query's
        "frag%20ment#x",                        // a fragment's
        "https://example.com/a%20b",            // a URL: its decoders' or its own text's
        "data:,a%20b",                          // the data URL decoder's
        #"{"a": "%20"}"#,                       // JSON and quotes are no URL characters
        "tab%09\there",
        "caf\u{e9}%20",
    ])
    func notOpened(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    /// The gate passes values of 16 bytes or more that hold a `%`: a shorter one cannot hide a
    /// secret the pattern rules find behind an escape.
    @Test func theGateWantsSixteenBytesAndAPercentSign() {
        let set = LayerDecoderSet([decoder])
        func passes(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { set.candidates($0) != 0 } }
        #expect(passes("%7B%22a%22%3A1%7D"))
        #expect(!passes("Bearer%20abcdef"))
        #expect(!passes("Bearer 20abcdefghijklmnop"))
        // A value whose first byte no percent-encoded value starts with: JSON held in a string.
        #expect(!passes(#"{"a": "%7B%22x%22%7D"}"#))
        // The gate's first bytes are exactly those a value the decoder opens may start with:
        // an escape, or a character that may stand before one.
        #expect(passes("%41%20abcdefghijklmn"))
        for byte in UInt8(0x21)...UInt8(0x7E) where byte != UInt8(ascii: "%") {
            let value = [byte] + Array("%20abcdefghijklmn".utf8)
            let opens = value.withUnsafeBytes { PercentLayerDecoder.isPercentEncoded($0) }
            #expect(passes(String(decoding: value, as: UTF8.self)) == opens, "\(UnicodeScalar(byte))")
        }
    }

    /// A value that would decode beyond the base64 decoder's limit is refused as a limit; at
    /// the limit it opens.
    @Test func oversizedValuesAreRefused() {
        let atLimit = "%20" + String(repeating: "a", count: Base64LayerDecoder.maxDecodedBytes - 3)
        #expect(LayerTesting.refusal(decoder, Array(atLimit.utf8)) == nil)
        #expect(LayerTesting.decode(decoder, Array(atLimit.utf8))?.bytes.count == Base64LayerDecoder.maxDecodedBytes - 2)
        #expect(LayerTesting.refusal(decoder, Array((atLimit + "a").utf8))?.kind == .limit)
    }
}
