@testable import AuditInputs
import Foundation
import Testing

@Suite struct DataURLLayerDecoderTests {
    let decoder = DataURLLayerDecoder()

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test func base64PayloadOpensAsTheBase64DecoderOpensIt() {
        let json = #"{"apiKey": "fake-key-0123456789"}"#
        let layer = LayerTesting.decode(decoder, "data:application/json;base64,\(Self.base64(json))")
        #expect(LayerTesting.isText(layer))
        #expect(LayerTesting.string(layer) == json)
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "data")
        // The media type and `;base64` in any case, parameters before it.
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "DATA:Text/Plain;charset=UTF-8;BASE64,\(Self.base64("hello there, reader"))")) == "hello there, reader")
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "data:;base64,\(Self.base64("no media type at all"))")) == "no media type at all")
    }

    @Test func percentEncodedPayloadIsDecoded() {
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "data:text/plain,token%3Dfake%20value")) == "token=fake value")
        #expect(LayerTesting.string(LayerTesting.decode(decoder, "data:,a%2Bb+c")) == "a+b+c")  // `+` is no space here
    }

    @Test(arguments: [
        "data:text/plain,plain text without escapes",          // the value's own scan reads it
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",  // bytes, not text
        "data:text/plain;base64,not base64 at all!",
        "data:text/plain",                                      // no comma
        "data:text plain,a%20b",                                // a blank in the header
        "data:text/plain;name=\"a\",a%20b",                     // a quote in the header
        "data:,",
        "date:2026-01-23,a%20b",
        "https://example.com/data:,a%20b",
        "data:" + String(repeating: "x", count: 257) + ",a%20b",  // a header over 256 bytes
    ])
    func notOpened(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    @Test func payloadRange() {
        let url = Array("data:application/json;charset=utf-8;base64,eyJ9".utf8)
        let found = url.withUnsafeBytes { DataURLLayerDecoder.payload(of: $0) }
        #expect(found?.range == 43..<url.count)
        #expect(found?.isBase64 == true)
        #expect(Array("data:text/plain;base64x,abc".utf8).withUnsafeBytes { DataURLLayerDecoder.payload(of: $0)?.isBase64 } == false)
    }

    /// Base64 over the base64 decoder's limit is refused, as it is anywhere else, and so is
    /// percent-encoded text over it; at the limit it opens.
    @Test func oversizedPayloadsAreRefused() {
        let text = String(repeating: "a", count: Base64LayerDecoder.maxDecodedBytes + 3)
        #expect(LayerTesting.refusal(decoder, Array("data:text/plain;base64,\(Self.base64(text))".utf8))?.kind == .limit)
        let escaped = "%20" + String(repeating: "a", count: Base64LayerDecoder.maxDecodedBytes - 3)
        #expect(LayerTesting.decode(decoder, Array("data:,\(escaped)".utf8))?.bytes.count == Base64LayerDecoder.maxDecodedBytes - 2)
        #expect(LayerTesting.refusal(decoder, Array("data:,\(escaped)a".utf8))?.kind == .limit)
    }
}
