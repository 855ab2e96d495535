@testable import AuditInputs
import Testing

@Suite struct DeflateLayerDecoderTests {
    let decoder = DeflateLayerDecoder()
    static let json = Array(#"{"accessToken":"fake-access-token-0123456789","note":"deflate round trip"}"#.utf8)

    /// Every level zlib writes (its header's second byte differs: 01, 5E, 9C, DA) opens.
    @Test(arguments: [1, 3, 6, 9] as [Int32])
    func zlibDataOpens(level: Int32) {
        let data = LayerTesting.deflate(Self.json, level: level)
        let layer = LayerTesting.decode(decoder, data)
        #expect(layer?.bytes == Self.json)
        #expect(LayerTesting.isText(layer))
        #expect(layer?.replacesValue == true)
        #expect(decoder.name == "deflate")
        #expect(DeflateLayerDecoder.hasZlibHeader(data))
    }

    /// HTTP's deflate coding is inflated whether the server wrapped it in zlib or sent it raw;
    /// as a layer, raw deflate (no header) is not recognised.
    @Test func httpDeflateIsZlibOrRaw() {
        let raw = LayerTesting.deflate(Self.json, .raw)
        #expect(DeflateLayerDecoder.inflate(raw) == .success(Self.json))
        #expect(DeflateLayerDecoder.inflate(LayerTesting.deflate(Self.json)) == .success(Self.json))
        #expect(LayerTesting.decode(decoder, raw) == nil)
    }

    @Test func textAndChanceHeadersAreNotOpened() {
        // `x^` is a zlib header by its check; the text after it is no deflate stream.
        #expect(LayerTesting.decode(decoder, "x^2 + y^2 = z^2, said the note") == nil)
        #expect(!DeflateLayerDecoder.hasZlibHeader(Array("hello there".utf8)))
        #expect(!DeflateLayerDecoder.hasZlibHeader([0x78, 0x9D]))  // the check fails
        #expect(!DeflateLayerDecoder.hasZlibHeader([0x78, 0xBB]))  // a preset dictionary
        #expect(!DeflateLayerDecoder.hasZlibHeader([0x88, 0x1C]))  // a window over 32 KiB
        // Random bytes behind a valid header: a probe of them never inflates to text.
        var generator = SeededGenerator(seed: 0xDEF1)
        for _ in 0..<2_000 {
            let data: [UInt8] = [0x78, 0x9C] + (0..<40).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(LayerTesting.decode(decoder, data) == nil)
        }
        // Compressed bytes that are no text are no layer either.
        let binary = LayerTesting.deflate((0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(LayerTesting.decode(decoder, binary) == nil)
    }

    /// Past a header whose first bytes inflate to text, the data is recognised: cut short it is
    /// refused as a parse error, a bomb as a limit.
    @Test func recognisedDataThatCannotBeOpenedIsRefused() {
        var text: [UInt8] = []
        for i in 0..<400 { text += Array("line \(i * 7919) of the note\n".utf8) }
        let data = LayerTesting.deflate(text)
        #expect(LayerTesting.refusal(decoder, Array(data.dropLast(data.count / 2)))?.kind == .parse)
        let bomb = LayerTesting.deflate(Array(repeating: UInt8(ascii: "a"), count: 4 << 20), level: 9)
        #expect(LayerTesting.refusal(decoder, bomb)?.kind == .limit)
    }
}
