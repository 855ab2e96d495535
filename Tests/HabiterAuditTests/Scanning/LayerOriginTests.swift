@testable import AuditCore
@testable import AuditScan
import Foundation
import Testing

/// The string that carries a layer is located only when something in the layer asks for it
/// (`LayerOrigin`): the answers are the ones of locating every such string as its layer opens,
/// and the strings whose layers hold nothing are never located.
@Suite struct LayerOriginTests {
    static let eager = TestSupport.options(without: \.locatesLayersWhenAsked)

    static let key = "AKIA" + "Z7XK2M4QW6RT3PLN"

    /// Layers without a hit, with one, one inside another with the hit in the inner one, one
    /// inside another without, base64 text holding JSON, NDJSON with a hit in its second
    /// document, and a URL's query (a layer of pairs, whose fields read where it is).
    static let values = [
        LayerVisitorReuseTests.quoted(#"{"k": "v", "n": [1, 2]}"#),
        LayerVisitorReuseTests.quoted(#"{"password": "\#(key)"}"#),
        LayerVisitorReuseTests.quoted(#"{"inner": \#(LayerVisitorReuseTests.quoted(#"{"api_key": "\#(key)"}"#))}"#),
        LayerVisitorReuseTests.quoted(#"{"quiet": \#(LayerVisitorReuseTests.quoted(#"{"k": "v"}"#))}"#),
        "\"" + Data(#"{"habit": "Morning run", "streak": 12}"#.utf8).base64EncodedString() + "\"",
        LayerVisitorReuseTests.quoted(#"{"habit": "Morning run"}"#).dropLast() + #"\n"# + LayerVisitorReuseTests.quoted(#"{"password": "\#(key)"}"#).dropFirst(),
        "\"https://example.com/callback?state=abc&mode=full\"",
    ]
    static let document = "{" + values.enumerated().map { "\"l\($0.offset)\": \($0.element)" }.joined(separator: ", ") + "}"

    /// How many strings carrying layers the scan of `document` located.
    static func located(_ options: ScanOptions) -> Int {
        TestSupport.jsonScan(document, options: options) { $0.layerOriginsLocated }
    }

    @Test func layersOfEveryShapeGiveTheSameAnswers() {
        let (lazy, eager) = TestSupport.expectSameAnswers(bytes: Array(Self.document.utf8), with: Self.eager)
        #expect(lazy.inventory == eager.inventory)
        #expect(Set(lazy.findings.map(\.pathText)).isSuperset(of: ["/l1!json/password", "/l2!json/inner!json/api_key", "/l5!ndjson/1/password"]))
    }

    /// Ten strings open layers: the seven values, the JSON inside two of them, and the JSON of
    /// the base64 text. Located when asked: the one with a hit, the two around the inner hit,
    /// the NDJSON, and the URL, whose pairs read whether they are protocol fields.
    @Test func onlyTheLayersThatAskAreLocated() {
        #expect(Self.located(Self.eager) == 10)
        #expect(Self.located(ScanOptions()) == 5)
    }

    /// Every file of the corpus (captures, prefs and backups hold JSON in strings) gives the
    /// same findings and errors, in the same order, located when asked and as layers open.
    @Test func theCorpusGivesTheSameAnswers() throws {
        #expect(try TestSupport.expectSameAnswersOnTheCorpus(with: Self.eager) > 100)
    }
}
