@testable import AuditCore
@testable import AuditInputs
import Foundation
import Testing

/// Recognised means scanned or refused (issue 18, docs/robustness.md): a layer that a decoder
/// recognises by its content, or a container declares, is scanned in full or ends in an input
/// error; it is never passed over as plain text. And a layer in which nothing was decoded does
/// not nest: `a=b=c` is one form pair, whatever its length.
@Suite struct RecognisedLayerTests {
    static let token = HostileInputTests.token

    /// A HAR with one response body, `content` being the body's JSON object.
    static func har(_ content: String) -> String {
        String(decoding: FailClosedAuditTests.har(content), as: UTF8.self)
    }

    /// A megabyte of JSON that compresses far beyond the gzip layer's ratio limit, with the token
    /// at its end.
    static let repetitiveDocument = "{\"items\": [" + String(repeating: "{\"a\": 1}, ", count: 100_000) + "{\"a\": 1}], \"gh\": \"\(token)\"}"

    @Test func aGzipLayerOverItsRatioLimitIsALimitErrorNotText() {
        let gzip = LayerTesting.gzip(Array(Self.repetitiveDocument.utf8), level: 9)
        #expect(Self.repetitiveDocument.utf8.count > gzip.count * GzipLayerDecoder.maxRatio, "the fixture is over the ratio limit")
        let body = LayerTesting.base64(gzip)
        for input in [Self.har(#"{"size": 0, "mimeType": "application/json", "encoding": "base64", "text": "\#(body)"}"#),
                      #"{"blob": "\#(body)"}"#] {
            let outcome = TestSupport.scan(input, name: input.hasPrefix("{\"log\"") ? "c.har" : "blob.json")
            #expect(outcome.errors.contains { $0.kind == .limit && $0.reason.contains("gzip data that cannot be opened") },
                    "\(outcome.errors.map(\.reason))")
        }
    }

    @Test func redactRefusesALayerItCannotOpen() throws {
        let body = LayerTesting.base64(LayerTesting.gzip(Array(Self.repetitiveDocument.utf8), level: 9))
        let directory = TestSupport.temporaryDirectory()
        let input = directory.appendingPathComponent("c.har")
        try Data(Self.har(#"{"size": 0, "mimeType": "application/json", "encoding": "base64", "text": "\#(body)"}"#).utf8).write(to: input)
        let output = directory.appendingPathComponent("redacted.har")
        let run = TestSupport.runCLI(["redact", input.path, "-o", output.path])
        #expect(run.status == ExitStatus.inputError)
        #expect(!FileManager.default.fileExists(atPath: output.path), "no copy that may still hold the secret")
    }

    @Test func aGzipLayerUnderItsLimitsIsScannedInFull() {
        // Varied text compresses a few times, as real documents do.
        var generator = SeededGenerator(seed: 18)
        let words = (0..<20_000).map { _ in String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36) }
        let document = "{\"notes\": \"\(words.joined(separator: " "))\", \"gh\": \"\(Self.token)\"}"
        let body = LayerTesting.base64(LayerTesting.gzip(Array(document.utf8)))
        let outcome = TestSupport.scan(Self.har(#"{"size": 0, "mimeType": "application/json", "encoding": "base64", "text": "\#(body)"}"#), name: "c.har")
        #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.reason))")
        #expect(outcome.findings.contains { $0.ruleId == "secret.github-token" && $0.pathText.contains("!base64!gzip!json") },
                "\(outcome.findings.map { "\($0.ruleId) \($0.pathText)" })")
    }

    @Test func gzipThatBreaksAfterItsHeaderIsAParseErrorNotText() {
        // A gzip header and then data that is no deflate stream, in base64 in a JSON value.
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03] + Array("this is not a deflate stream at all".utf8)
        let outcome = TestSupport.scan(#"{"blob": "\#(LayerTesting.base64(gzip))"}"#)
        #expect(outcome.errors.contains { $0.kind == .parse && $0.reason.contains("gzip data that cannot be opened") },
                "\(outcome.errors.map(\.reason))")
        #expect(outcome.errors.allSatisfy { $0.position != nil })
    }

    @Test func base64OverTheDecodedLimitIsRefusedNotSkipped() {
        // Text that decodes to one byte more than the limit: refused, with a limit.
        let decoded = Base64LayerDecoder.maxDecodedBytes + 3
        let value = [UInt8](String(repeating: "dGV4", count: decoded / 3).utf8)  // "tex" repeated
        let refusal = LayerTesting.refusal(Base64LayerDecoder(), value)
        #expect(refusal?.kind == .limit)
        #expect(refusal?.reason.contains("over the limit") == true)
        // Random bytes of that size are no layer at all, and no refusal: the text is scanned.
        #expect(LayerTesting.refusal(Base64LayerDecoder(), Array(String(repeating: "/w8A", count: decoded / 3).utf8)) == nil)
    }

    @Test func base64UnderTheDecodedLimitIsOpened() {
        // Fifteen megabytes of text with the token at the end: opened whole.
        let text = String(repeating: "plain words of a note. ", count: 15 << 20 / 23) + Self.token
        let layer = LayerTesting.decode(Base64LayerDecoder(), LayerTesting.base64(text))
        #expect(layer?.bytes.count == text.utf8.count)
    }

    /// Located at `content`'s `text`, whichever members come before and after it: the location
    /// is made when `content` closes, as it was when its `text` began.
    @Test(arguments: [
        #"{"size": 0, "mimeType": "application/javascript", "encoding": "base64", "text": "BODY"}"#,
        #"{"text": "BODY", "size": 0, "encoding": "base64", "mimeType": "application/javascript"}"#,
        #"{"size": 0, "text": "BODY", "comment": {"k": ["v"]}, "encoding": "base64"}"#,
    ])
    func aDeclaredBase64BodyThatIsNoTextLayerIsScannedAsBytes(_ content: String) {
        // Latin-1 text (no UTF-8: `é` is one byte 0xE9), as exporters base64-encode such bodies.
        let latin1: [UInt8] = Array("var caf".utf8) + [0xE9] + Array(" = \"\(Self.token)\";\n".utf8)
        let body = LayerTesting.base64(latin1)
        #expect(LayerTesting.decode(Base64LayerDecoder(), body) == nil, "the fixture is no text layer")
        let outcome = TestSupport.scan(Self.har(content.replacingOccurrences(of: "BODY", with: body)), name: "c.har")
        #expect(outcome.errors.isEmpty)
        let found = outcome.findings.filter { $0.ruleId == "secret.github-token" }.map { "\($0.pathText) \($0.key ?? "-")" }
        #expect(found == ["/log/entries/0/response/content/text!base64 text"], "\(found)")
    }

    @Test(arguments: ["a=b=c=d=e=f=g=h=i=j", String(repeating: "a=", count: 5_000) + "z", "q=a=b&r=c=d=e=f=g=h=i=j=k"])
    func aFormValueThatNothingDecodedIsNotAnotherForm(_ value: String) {
        let outcome = TestSupport.scan(#"{"q": "\#(value)"}"#)
        #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.reason))")
        let withToken = TestSupport.scan(#"{"q": "\#(value)=\#(Self.token)"}"#)
        #expect(withToken.errors.isEmpty)
        #expect(withToken.findings.map(\.ruleId).contains("secret.github-token"))
    }

    @Test func aFormValueThatWasDecodedOpensAsAForm() {
        // `inner=` percent-encodes a form of its own: decoded, it is new structure.
        let outcome = TestSupport.scan(#"{"q": "outer=1&inner=a%3D1%26password%3DTr0ub4dor-3xK9q"}"#)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.findings.contains { $0.pathText.hasSuffix("!form/inner!form/password") },
                "\(outcome.findings.map { "\($0.ruleId) \($0.pathText)" })")
    }
}
