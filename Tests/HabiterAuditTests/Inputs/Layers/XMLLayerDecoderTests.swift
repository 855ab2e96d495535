@testable import AuditInputs
import Testing

@Suite struct XMLLayerDecoderTests {
    let decoder = XMLLayerDecoder()

    @Test(arguments: [
        #"<?xml version="1.0"?><a>b</a>"#,
        "<soap:Envelope><soap:Body/></soap:Envelope>",
        "  \n<LoginResponse><token>x</token></LoginResponse>\n",
        "<!-- saved by a proxy --><a>b</a>",
        "<_private>x</_private>",
        "<\u{e9}l\u{e9}ment>x</\u{e9}l\u{e9}ment>",
        // A SharedPreferences export, read by the prefs reader.
        #"<?xml version='1.0' encoding='utf-8' standalone='yes' ?><map><string name="a">b</string></map>"#,
    ])
    func aValueThatOpensAndClosesWithATagIsXML(_ text: String) {
        let layer = LayerTesting.decode(decoder, text)
        let isXML = if let layer, case .valueIsXML = layer.content { layer.bytes.isEmpty } else { false }
        #expect(isXML)
        #expect(layer?.replacesValue == false)
    }

    @Test(arguments: [
        "<a>b</a> and more",                    // text after the last tag
        "x <a>b</a>",                           // text before the first
        "< a>b</a>",                            // no name after `<`
        "<1a>b</1a>",
        "<>",
        "{\"a\": \"<b>\"}",
    ])
    func notOpened(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    @Test func aMapRootIsASharedPreferencesExport() {
        func isExport(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes(XMLLayerDecoder.isSharedPreferencesExport) }
        #expect(isExport(#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\#n<!-- saved --><map>\#n</map>"#))
        #expect(isExport("<map/>"))
        #expect(!isExport("<mapping>x</mapping>"))
        #expect(!isExport("<resources><map/></resources>"))
    }

    /// Every value the decoder opens passes its gate: it starts with `<` or a blank.
    @Test func theGatePassesWhatTheDecoderOpens() {
        let set = LayerDecoderSet([decoder])
        for first in 0...255 {
            let text: [UInt8] = [UInt8(first)] + Array("<a>bcd</a>".utf8)
            let opened = text.withUnsafeBytes { decoder.decode($0) != nil }
            let passes = text.withUnsafeBytes { set.candidates($0) != 0 }
            #expect(!opened || passes, "byte \(first) opens XML but fails the gate")
        }
        #expect(Array("<a>b</a>".utf8).withUnsafeBytes { set.candidates($0) != 0 })
        #expect(Array("<a>b/>".utf8).withUnsafeBytes { set.candidates($0) == 0 })
    }
}
