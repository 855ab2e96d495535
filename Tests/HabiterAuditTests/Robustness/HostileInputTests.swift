@testable import AuditCore
import AuditInputs
@testable import AuditRedact
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// Hostile and broken inputs (issue 8): each is a `limit`, `parse`, `read` or `format` error
/// with the file and a position, or a correct scan; never a crash, never past a time bound.
@Suite struct HostileInputTests {
    /// A fake, format-valid GitHub token (high entropy, so no placeholder check drops it).
    static let token = "ghp_" + "Zq8R2mWv7LkP4xT9nB3cD6fH1jS5gA0yE2uK"

    private func rules(_ findings: [Finding]) -> [String] { findings.map(\.ruleId) }

    private func options(_ format: InputFormat) -> ScanOptions { ScanOptions(inputFormat: format) }

    // MARK: Structure

    @Test func aHundredThousandDeepNestingIsALimitErrorWithAPosition() {
        let arrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let objects = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        for (text, column) in [(arrays, 513), (objects, 2561)] {
            let outcome = TestSupport.withinSeconds(10) { TestSupport.scan(text) }
            #expect(outcome.errors.map(\.kind) == [.limit])
            #expect(outcome.errors.first?.position.map { [$0.line, $0.column] } == [1, column])
        }
        // In an NDJSON line and in JSON held in a string: the same limit, never a silent text scan.
        let ndjson = "{\"ok\": 1}\n" + arrays + "\n"
        #expect(TestSupport.withinSeconds(10) { TestSupport.scan(ndjson, name: "log.ndjson") }.errors.map(\.kind) == [.limit])
        let inString = #"{"note": "# + JSONOutput.string(String(repeating: "[", count: 600) + #"{"password": "Tr0ub4dor&3xK9q"}"#
                                                         + String(repeating: "]", count: 600)).rendered().dropLast() + "}"
        let layered = TestSupport.scan(String(inString))
        #expect(layered.errors.map(\.kind) == [.limit])
        #expect(layered.errors.first?.reason.contains("JSON in a string nested deeper") == true)
    }

    @Test func duplicateKeysAreEachScanned() {
        let first = TestSupport.scan(#"{"a": "\#(Self.token)", "a": "safe"}"#)
        let second = TestSupport.scan(#"{"a": "safe", "a": "\#(Self.token)"}"#)
        #expect(rules(first.findings) == ["secret.github-token"])
        #expect(rules(second.findings) == ["secret.github-token"])
        #expect(first.errors.isEmpty && second.errors.isEmpty)
    }

    @Test func hugeNumbersAreReadWithoutError() {
        let digits = String(repeating: "7", count: 100_000)
        let text = #"{"a": 1\#(digits)e99999999999, "b": -0.\#(digits), "c": 1E-999999, "gh": "\#(Self.token)"}"#
        let outcome = TestSupport.withinSeconds(10) { TestSupport.scan(text) }
        #expect(outcome.errors.isEmpty)
        #expect(rules(outcome.findings) == ["secret.github-token"])
    }

    @Test func aHundredMegabyteStringIsScannedWithinBounds() {
        var bytes = Array(#"{"blob": ""#.utf8)
        bytes.reserveCapacity(100_000_100)
        let prose = Array("Lorem ipsum dolor sit amet, \\\"quoted\\\" \\n ".utf8)
        while bytes.count < 100_000_000 { bytes.append(contentsOf: prose) }
        bytes.append(contentsOf: Array(" \(Self.token)\"}".utf8))
        let outcome = TestSupport.withinSeconds(120) { TestSupport.scan(bytes: bytes) }
        #expect(outcome.errors.isEmpty)
        #expect(rules(outcome.findings) == ["secret.github-token"])
    }

    // MARK: Encodings and bytes

    @Test func invalidUTF8IsAParseErrorAtItsPosition() {
        let cases: [([UInt8], String, InputFormat, [Int])] = [
            (Array(#"{""#.utf8) + [0xFF, 0xFE] + Array(#"": "x"}"#.utf8), "key.json", .auto, [1, 3]),
            (Array("{\"a\":\n \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8), "value.json", .auto, [2, 3]),
            (Array(#"{"a": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "surrogate.json", .auto, [1, 8]),
            (Array("<map>\n<string name=\"flutter.a\">".utf8) + [0xFF] + Array("</string>\n</map>\n".utf8), "prefs.xml", .prefsXML, [2, 26]),
            (Array(#"{"log": {"version": "1.2", "entries": [{"request": {"url": ""#.utf8) + [0x80] + Array(#""}}]}}"#.utf8), "c.har", .har, [1, 61]),
            ([0x0A, 0x08, 0x0A, 0x01, 0x6B, 0x12, 0x03, 0x2A, 0x01, 0xFF], "s.preferences_pb", .auto, [1, 10]),
        ]
        for (bytes, name, format, position) in cases {
            let outcome = TestSupport.scan(bytes: bytes, name: name, options: options(format))
            #expect(outcome.errors.map(\.kind) == [.parse], "\(name)")
            #expect(outcome.errors.first?.position.map { [$0.line, $0.column] } == position, "\(name)")
            #expect(outcome.errors.first?.reason.contains("UTF-8") == true, "\(name)")
        }
    }

    @Test func loneSurrogateEscapesAreRefused() {
        for escape in [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#] {
            let outcome = TestSupport.scan(#"{"a": "x\#(escape)"}"#)
            #expect(outcome.errors.map(\.kind) == [.parse])
            #expect(outcome.errors.first?.reason.contains("surrogate") == true)
        }
        // A proper pair is fine.
        #expect(TestSupport.scan(#"{"a": "\ud83d\ude00"}"#).errors.isEmpty)
    }

    @Test func nulBytesAreParseOrFormatErrors() {
        let inString = TestSupport.scan(bytes: Array(#"{"a": "x"#.utf8) + [0] + Array(#"y"}"#.utf8))
        #expect(inString.errors.map(\.kind) == [.parse])
        #expect(inString.errors.first?.position?.column == 9)
        let inXML = TestSupport.scan(bytes: Array("<map><string name=\"flutter.a\">x".utf8) + [0] + Array("</string></map>".utf8),
                                     name: "p.xml", options: options(.prefsXML))
        #expect(inXML.errors.map(\.kind) == [.parse])
        // Binary: skipped when the name claims nothing, an error when it claims a format.
        #expect(TestSupport.scan(bytes: [UInt8](repeating: 0, count: 4096), name: "zeros.bin").errors.isEmpty)
        let onlyNUL = TestSupport.scan(bytes: [UInt8](repeating: 0, count: 4096), name: "zeros.json")
        #expect(onlyNUL.errors.map(\.kind) == [.format])
    }

    @Test func byteOrderMarks() {
        let utf8 = TestSupport.scan(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"gh": "\#(Self.token)"}"#.utf8))
        #expect(utf8.errors.isEmpty)
        #expect(utf8.findings.first.map { [$0.position.line, $0.position.column] } == [1, 8])  // the mark is no column
        let prefs = TestSupport.scan(bytes: [0xEF, 0xBB, 0xBF] + Array("<map><string name=\"flutter.gh\">\(Self.token)</string></map>".utf8),
                                     name: "p.xml")
        #expect(prefs.errors.isEmpty)
        #expect(rules(prefs.findings) == ["secret.github-token"])
        for bom in [[0xFF, 0xFE, 0, 0] as [UInt8], [0, 0, 0xFE, 0xFF]] {
            let outcome = TestSupport.scan(bytes: bom + Array("{\0}\0".utf8))
            #expect(outcome.errors.count == 1)
            #expect(outcome.errors.first?.reason.contains("UTF-32 input is not supported") == true, "\(bom)")
            #expect(outcome.errors.first?.position.map { [$0.line, $0.column] } == [1, 1])
        }
    }

    /// Compressed bytes handed to `scan(bytes:)` are decompressed, as a compressed file is: a
    /// whole buffer reads its bytes through the decoder.
    @Test func compressedBytesInMemoryAreDecompressed() throws {
        let json = Array(#"{"note": "\#(Self.token)"}"#.utf8)
        let compressed = try #require(json.withUnsafeBytes(Zstd.compress))
        let outcome = TestSupport.scan(bytes: compressed, name: "capture.json.zst")
        #expect(outcome.errors.isEmpty)
        #expect(outcome.findings.map(\.pathText) == ["!zstd/note"])
    }

    /// UTF-16 text (PowerShell 5's `>`, `reg export`, `iconv -t UTF-16LE`) is scanned as the text
    /// it is: a log, a JSON file, a HAR compressed whole, with or without a mark. Lines and
    /// columns are the file's (columns count UTF-16 code units); a lone surrogate is a `read`
    /// error after what came before it. Each was skipped or refused before.
    @Test func utf16TextIsScanned() throws {
        func utf16(_ text: String, bigEndian: Bool = false, marked: Bool = true) -> [UInt8] {
            let body = Array(text.data(using: bigEndian ? .utf16BigEndian : .utf16LittleEndian)!)
            return marked ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + body : body
        }
        let log = "Start 😀 é\r\nexport GITHUB_TOKEN=\(Self.token)\r\n"
        // Without a mark, text is told by its code units: all text, half of them ASCII at least
        // (non-ASCII ones made it a skipped binary file before).
        let unmarked = utf16("Start\r\nexport GITHUB_TOKEN=\(Self.token)\r\n", marked: false)
        let unmarkedWithAccents = utf16("Morgenlauf über die Brücke 🏃\r\nexport GITHUB_TOKEN=\(Self.token)\r\n", marked: false)
        for (bytes, name) in [(utf16(log), "session.log"), (utf16(log, bigEndian: true), "session.txt"), (unmarked, "notes"),
                              (unmarkedWithAccents, "notes")] {
            let outcome = TestSupport.scan(bytes: bytes, name: name)
            #expect(outcome.errors.isEmpty, "\(name)")
            #expect(outcome.findings.map { [$0.position.line, $0.position.column] } == [[2, 21]], "\(name)")
        }
        let json = TestSupport.scan(bytes: utf16(#"{"note": "😀 \#(Self.token)"}"#), name: "capture.json")
        #expect(json.findings.map { "\($0.ruleId) \($0.pathText) \($0.position.column)" } == ["secret.github-token /note 10"])

        let directory = TestSupport.temporaryDirectory()
        let har = directory.appendingPathComponent("capture.har.zst")
        let capture = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://x.example/?q=1", "headers": [{"name": "X-Token", "value": "\#(Self.token)"}]}, "response": {"status": 200, "content": {"size": 0, "text": ""}}}]}}"#
        try Data(try #require(utf16(capture).withUnsafeBytes(Zstd.compress))).write(to: har)
        let outcome = Scanner(rules: TestSupport.builtinPack).scan(paths: [har.path])
        #expect(outcome.errors.isEmpty)
        #expect(outcome.artifacts.map(\.format) == ["har+utf16le+zstd"])
        #expect(outcome.findings.map(\.pathText) == ["!zstd/log/entries/0/request/headers/0/value"])

        let broken = TestSupport.scan(bytes: utf16(log) + [0x00, 0xD8, 0x41, 0x00], name: "session.log")
        #expect(broken.findings.count == 1)
        #expect(broken.errors.map { "\($0.kind) \($0.reason)" } == ["read invalid UTF-16 at byte \(utf16(log).count): a high surrogate without its low one"])
    }

    @Test func lineBreaksCRLFAndLoneCRCountAsLines() {
        for separator in ["\r\n", "\r", "\n"] {
            let text = ["{\"a\": 1,", "\"b\": 2,", "\"gh\": \"\(Self.token)\"}"].joined(separator: separator)
            let outcome = TestSupport.scan(text)
            #expect(outcome.findings.first.map { [$0.position.line, $0.position.column] } == [3, 7], "\(Array(separator.utf8))")
        }
    }

    @Test func binaryAndEmptyInputs() {
        var generator = SystemRandomNumberGenerator()
        let binary = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let outcome = TestSupport.scan(bytes: [0x89] + binary, name: "capture.har")
        #expect(outcome.errors.map(\.kind) == [.format])
        for format in InputFormat.allCases where format != .text {
            let empty = TestSupport.scan(bytes: [], name: "empty.json", options: options(format))
            #expect(empty.errors.count == 1, "\(format)")
            let reason = empty.errors.first?.reason ?? ""
            #expect(reason.contains("empty") || reason == "no <map> element" || reason == "no root element", "\(format): \(reason)")
        }
        // Empty text is no error.
        #expect(TestSupport.scan(bytes: [], name: "empty", options: options(.auto)).errors.isEmpty)
        #expect(TestSupport.scan(bytes: [], name: "empty.json", options: options(.text)).errors.isEmpty)
    }

    // MARK: Layers

    /// A password in JSON, base64-encoded `layers` times over.
    static func base64Layers(_ layers: Int) -> String {
        var value = #"{"password": "Tr0ub4dor&3xK9q"}"#
        for _ in 0..<layers { value = Data(value.utf8).base64EncodedString() }
        return value
    }

    @Test func base64ManyLayersDeepIsALimitNotASilentPass() {
        func wrapped(_ layers: Int) -> String { #"{"blob": "\#(Self.base64Layers(layers))"}"# }
        let shallow = TestSupport.scan(wrapped(7))
        #expect(rules(shallow.findings) == ["name.password"])
        #expect(shallow.errors.isEmpty)
        for layers in [8, 12, 30] {
            let deep = TestSupport.withinSeconds(10) { TestSupport.scan(wrapped(layers)) }
            #expect(deep.errors.map(\.kind) == [.limit], "\(layers) layers")
            #expect(deep.errors.first?.reason.contains("encoded layers nested deeper than the limit of 8") == true)
            #expect(deep.errors.first?.position.map { [$0.line, $0.column] } == [1, 10])  // the string
        }
    }

    @Test func garbageJWTsAreNoCrashAndNoFinding() {
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        for value in ["\(header).%%%garbage%%%.x", "\(header)..", "\(header).eyJ!!!.sig", "eyJ.eyJ.eyJ",
                      "\(header).AAAA.", "\(header)." + String(repeating: "A", count: 100_000) + ".sig"] {
            let outcome = TestSupport.scan(#"{"t": "\#(value)"}"#)
            #expect(outcome.errors.isEmpty)
            #expect(outcome.findings.allSatisfy { $0.ruleId != "secret.jwt" })
        }
    }

    @Test func aGzipBombIsRefused() throws {
        let inflated = Array("[".utf8) + [UInt8](repeating: 0x20, count: 50_000_000) + Array("]".utf8)
        let file = TestSupport.temporaryDirectory().appendingPathComponent("bomb.json.gz")
        try Data(try #require(GzipEncoder.compress(inflated, headerFrom: []))).write(to: file)
        let result = TestSupport.withinSeconds(30) { TestSupport.runCLI(["scan", "--no-config", file.path]) }
        #expect(result.status == ExitStatus.inputError)
        #expect(result.stdout.contains("bomb.json.gz: gzip bomb: the data decompresses to more than 200× its size"))
    }

    @Test func aHARBodyThatClaimsBase64ButIsNotIsScannedAsTextAndReported() {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "https://example.com/", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 10, "mimeType": "text/plain", "encoding": "base64", "text": "not base64! \#(Self.token)"}, "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}]}}"#
        let outcome = TestSupport.scan(har, name: "c.har")
        #expect(rules(outcome.findings) == ["secret.github-token"])
        #expect(outcome.errors.map(\.kind) == [.parse])
        #expect(outcome.errors.first?.reason == "a body marked base64 is not valid base64; it was scanned as text")
        #expect(outcome.errors.first?.position != nil)
    }

    /// The claim is checked whichever of `text` and `encoding` comes first, on the text as
    /// unescaped (MIME line breaks written as `\n` are allowed).
    @Test(arguments: [
        (#""text": "bm90IGJhc2U2NA==", "encoding": "base64""#, false),
        (#""text": "not base64!", "encoding": "base64""#, true),
        (#""encoding": "base64", "text": "{\"a\": 1}""#, true),
        (#""text": "bm90IGJh\nc2U2NA==\n", "encoding": "base64""#, false),
        (#""text": "bm90IGJh\u0021c2U2NA==", "encoding": "base64""#, true),
        (#""text": "not base64!""#, false),
    ])
    func aBase64ClaimIsCheckedInEitherOrder(content: String, isError: Bool) {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"request": {"method": "GET", "url": "https://example.com/", "headers": []}, "response": {"status": 200, "headers": [], "content": {"size": 10, "mimeType": "text/plain", \#(content)}}}]}}"#
        let outcome = TestSupport.scan(har, name: "c.har")
        #expect(outcome.errors.map(\.kind) == (isError ? [.parse] : []), "\(content)")
    }

    // MARK: Every truncation

    static let truncationSamples: [(file: String, format: InputFormat, everyPrefixFails: Bool)] = [
        ("corpus/sync/entity-habit.json", .json, true),
        ("corpus/prefs/FlutterSecureStorage-plaintext.xml", .prefsXML, true),
        ("corpus/captures/sync-requests.http", .http, false),
        ("corpus/sync/oplog-clean.ndjson", .ndjson, false),
        ("Tests/HabiterAuditTests/Fixtures/hostile/small-capture.har", .har, true),
        // Protobuf has no terminator: a DataStore file cut between entries is a shorter store.
        ("Tests/HabiterAuditTests/Fixtures/hostile/small-store.preferences_pb", .datastore, false),
    ]

    @Test(arguments: truncationSamples.map(\.file))
    func everyTruncationIsAnErrorWithAPositionOrACorrectScan(_ file: String) throws {
        let sample = Self.truncationSamples.first { $0.file == file }!
        let bytes = Array(try Data(contentsOf: TestSupport.repoRoot.appendingPathComponent(file)))
        var trimmed = bytes
        while let last = trimmed.last, last == 0x0A || last == 0x20 { trimmed.removeLast() }
        TestSupport.withinSeconds(120) {
            for length in 0..<trimmed.count {
                let prefix = Array(trimmed[..<length])
                let outcome = TestSupport.scan(bytes: prefix, name: "cut", options: options(sample.format))
                for error in outcome.errors {
                    #expect(error.position != nil || error.kind == .read, "\(file) cut at \(length): \(error.reason) has no position")
                }
                if sample.everyPrefixFails {
                    #expect(!outcome.errors.isEmpty, "\(file) cut at \(length) scanned without an error")
                }
            }
        }
        // The whole sample is clean of errors.
        #expect(TestSupport.scan(bytes: bytes, name: "whole", options: options(sample.format)).errors.isEmpty)
    }
}
