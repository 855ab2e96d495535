@testable import AuditCore
@testable import AuditScan
import Foundation
import Testing

/// A layer's JSON text is read with a visitor that read one before in full
/// (`ArtifactScan.takeLayerVisitor`): the answers are the same as with a new visitor for every
/// layer, and the visitors are reused.
@Suite struct LayerVisitorReuseTests {
    static let withoutReuse = TestSupport.options(without: \.reusesLayerVisitors)

    /// A string holding `text` as JSON writes it.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static let key = "AKIA" + "Z7XK2M4QW6RT3PLN"

    /// Layers of every shape one after another: an object with a sensitive name, an array, a
    /// string (not read as a layer), one that breaks off (scanned as text), one with a layer
    /// inside, an entity document that breaks the contract, and the first shape again.
    static let layers = [
        #"{"password": "\#(key)", "n": [1, 2]}"#,
        #"["\#(key)", {"k": "v"}]"#,
        quoted(key),
        #"{"broken": "#,
        #"{"inner": \#(quoted(#"{"api_key": "\#(key)"}"#))}"#,
        #"{"schemaVersion": 1, "entityId": "habit/x", "deleted": false, "payload": {"id": "y"}}"#,
        #"{"token": "\#(key)"}"#,
    ]
    static let document = "{" + layers.enumerated().map { "\"l\($0.offset)\": \(quoted($0.element))" }.joined(separator: ", ") + "}"

    @Test func layersOfEveryShapeGiveTheSameAnswers() {
        let plain = TestSupport.expectSameAnswers(bytes: Array(Self.document.utf8), with: Self.withoutReuse).other
        #expect(Set(plain.findings.flatMap { [$0.pathText] + $0.relatedLocations.map(\.pathText) })
            .isSuperset(of: ["/l0!json/password", "/l1!json/0", "/l4!json/inner!json/api_key", "/l5!json", "/l6!json/token"]))
    }

    /// Six layers read as JSON and one inside another: with a new visitor for each, seven; reused,
    /// three (the first, the one made after the layer that broke off, and the one for the
    /// layer inside a layer).
    @Test func theVisitorsAreReused() {
        func visitorsMade(_ options: ScanOptions) -> Int {
            TestSupport.jsonScan(Self.document, options: options) { $0.layerVisitorsMade }
        }
        #expect(visitorsMade(ScanOptions()) == 3)
        #expect(visitorsMade(Self.withoutReuse) == 7)
    }

    /// Every file of the corpus (captures, prefs and backups hold JSON in strings) gives the
    /// same findings and errors, in the same order, with reused visitors and without.
    @Test func theCorpusGivesTheSameAnswers() throws {
        #expect(try TestSupport.expectSameAnswersOnTheCorpus(with: Self.withoutReuse) > 100)
    }
}
