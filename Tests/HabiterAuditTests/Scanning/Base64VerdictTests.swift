@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Foundation
import Testing

/// A HAR body declared base64 takes the base64 decoder's look at it from the scan of its text
/// (`ArtifactScan.base64RecognisedOutside`): the answers are the ones of asking the decoder
/// again when `content` closes, and it is asked again only for the bodies it did not recognise.
@Suite struct Base64VerdictTests {
    static let without = TestSupport.options(without: \.keepsBase64Verdicts)
    static let token = HostileInputTests.token

    /// Response bodies declared base64, each with `text` before or after `encoding`: base64 of
    /// JSON with a secret, of plain text, of gzip, of gzip over its ratio limit (refused), of
    /// Latin-1 bytes with a secret (no text layer: decoded and scanned as bytes), of random
    /// bytes, a body too short for the layer gate, and one with line breaks written `\n`.
    static let bodies: [String] = {
        var generator = SeededGenerator(seed: 23)
        let random = (0..<96).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let latin1: [UInt8] = Array("var caf".utf8) + [0xE9] + Array(" = \"\(token)\";\n".utf8)
        let overRatio = LayerTesting.gzip(Array(RecognisedLayerTests.repetitiveDocument.utf8), level: 9)
        let wrapped = Data(Array(#"{"note": "a body of a few words, wrapped as MIME wraps it"}"#.utf8)).base64EncodedString(options: .lineLength64Characters)
        return [
            LayerTesting.base64(#"{"habit": "Morning run", "gh": "\#(token)"}"#),
            LayerTesting.base64("plain words of a note, long enough to be a layer"),
            LayerTesting.base64(LayerTesting.gzip(Array(#"{"gh": "\#(token)"}"#.utf8))),
            LayerTesting.base64(overRatio),
            LayerTesting.base64(latin1),
            LayerTesting.base64(random),
            "aGk=",
            wrapped.replacingOccurrences(of: "\r\n", with: "\\n"),
        ]
    }()

    /// A capture with one entry a body, `text` first in even entries and last in odd ones.
    static let capture: [UInt8] = {
        let entries = bodies.enumerated().map { index, body in
            let content = index % 2 == 0
                ? #"{"size": 0, "text": "\#(body)", "mimeType": "application/octet-stream", "encoding": "base64"}"#
                : #"{"size": 0, "encoding": "base64", "mimeType": "application/octet-stream", "text": "\#(body)"}"#
            return #"{"request": {"method": "GET", "url": "https://api.example.com/\#(index)", "headers": []}, "response": {"status": 200, "content": \#(content)}}"#
        }
        return Array(#"{"log": {"version": "1.2", "entries": [\#(entries.joined(separator: ", "))]}}"#.utf8)
    }()

    /// How many declared base64 bodies of `capture` the decoder was asked about again.
    static func askedAgain(_ options: ScanOptions) -> Int {
        TestSupport.artifactScan(capture, name: "c.har", options: options, run: { CaptureInputScanner.scanHAR($0, start: 0) }) {
            $0.declaredBase64BodiesAskedAgain
        }
    }

    @Test func bodiesOfEveryKindGiveTheSameAnswers() {
        let (kept, asked) = TestSupport.expectSameAnswers(bytes: Self.capture, name: "c.har", with: Self.without)
        #expect(kept.inventory == asked.inventory)
        let paths = Set(kept.findings.filter { $0.ruleId == "secret.github-token" }.map(\.pathText))
        #expect(paths == ["/log/entries/0/response/content/text!base64!json/gh", "/log/entries/2/response/content/text!base64!gzip!json/gh",
                          "/log/entries/4/response/content/text!base64"], "\(paths)")
        #expect(kept.errors.contains { $0.reason.contains("gzip data that cannot be opened") }, "\(kept.errors.map(\.reason))")
    }

    /// Five of the eight bodies open as base64 layers (JSON, text, gzip, gzip over its ratio
    /// limit, which the gzip layer inside refuses, and the wrapped one); the decoder is asked
    /// again about the Latin-1 bytes, the random bytes and the short body only.
    @Test func theDecoderIsAskedAgainOnlyAboutWhatItDidNotRecognise() {
        #expect(Self.askedAgain(Self.without) == 8)
        #expect(Self.askedAgain(ScanOptions()) == 3)
    }

    /// The verdict is the outermost value's own: set by a base64 layer of it, not by one
    /// inside another decoder's layer, nor by another decoder.
    @Test(arguments: [
        (LayerTesting.base64("plain words of a note, long enough to be a layer"), true),
        (#"{"b": "\#(LayerTesting.base64("plain words of a note, long enough to be a layer"))"}"#, false),
        ("https://example.com/callback?state=abc&mode=full", false),
    ])
    func theVerdictIsTheOutermostValuesOwn(_ value: String, recognised: Bool) {
        TestSupport.jsonScan("{}", options: ScanOptions()) { scan in
            scan.base64RecognisedOutside = false
            Array(value.utf8).withUnsafeBytes { bytes in
                #expect(scan.openLayers(bytes, at: 0, depth: 0) {
                    HitLocation(key: nil, containerPath: LayeredPath(), token: nil, ancestry: [], readerContext: nil, carrier: nil)
                }.any)
            }
            #expect(scan.base64RecognisedOutside == recognised)
        }
    }

    @Test func theCorpusGivesTheSameAnswers() throws {
        #expect(try TestSupport.expectSameAnswersOnTheCorpus(with: Self.without) > 100)
    }
}
