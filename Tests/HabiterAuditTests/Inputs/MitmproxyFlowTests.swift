@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditScan
import Foundation
import Testing

/// mitmproxy's flow files (`mitmdump -w`) are read flow by flow, each as one exchange; they were
/// skipped as binary files. The fixtures in `Fixtures/mitmproxy` were written by mitmproxy 11.0.2
/// (`make-fixtures.py` beside them says how): a real proxy capture of three calls, the same as raw
/// HTTP by mitmproxy's own assembler, and flows of every kind with a token in each place; and
/// by mitmproxy 7.0.4, the HTTP and TCP flows in its older format.
@Suite struct MitmproxyFlowTests {
    static let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/mitmproxy")

    static func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(file)))
    }

    static func scan(_ bytes: [UInt8], name: String, options: ScanOptions = ScanOptions()) -> ArtifactOutcome {
        let scanner = Scanner(rules: TestSupport.builtinPack, options: options)
        return bytes.withUnsafeBytes { scanner.scan(bytes: $0, name: name) }
    }

    /// What a finding says, without where it stands in its file.
    static func described(_ outcome: ArtifactOutcome) -> [String] {
        outcome.findings.map { "\($0.ruleId) \($0.pathText) \($0.message) \($0.context)" }.sorted()
    }

    /// Every header, body (gzip undone, a form read) and cookie of the capture is found as in the
    /// same exchanges written as raw HTTP, each at the byte where its value stands in the file.
    @Test func aProxyCaptureReadsAsItsExchangesWrittenAsRawHTTP() throws {
        let flows = try Self.bytes("proxy-capture.mitm")
        let outcome = Self.scan(flows, name: "proxy-capture.mitm")
        let raw = Self.scan(try Self.bytes("proxy-capture.http"), name: "proxy-capture.http")
        #expect(outcome.summary.format == "mitmproxy")
        #expect(outcome.errors.isEmpty && raw.errors.isEmpty)
        #expect(outcome.findings.count == 4)
        #expect(Self.described(outcome) == Self.described(raw))
        // A token is found where it stands: its first bytes are at the finding's offset.
        for finding in outcome.findings where finding.ruleId.hasPrefix("secret.") {
            let offset = finding.position.byteOffset
            let startsThere = ["Bearer ghp_", "sid=xoxb-"].contains { flows[offset...].starts(with: Array($0.utf8)) }
            #expect(startsThere, "\(finding.ruleId) at \(offset)")
            #expect(finding.position.line == 1 && finding.position.column == offset + 1)
        }
    }

    /// WebSocket and TCP messages, a comment and an addon's metadata are scanned where they sit;
    /// a key mitmproxy does not write stands in the path by its place. UDP and DNS flows read.
    /// mitmproxy 7's format (14: a `mode` key, WebSocket messages of five parts) reads alike.
    @Test(arguments: ["flows.mitm", "flows-mitmproxy7.mitm"])
    func everyTextOfAFlowIsScanned(_ file: String) throws {
        let outcome = Self.scan(try Self.bytes(file), name: file)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.findings.map { "\($0.ruleId) \($0.pathText)" } == [
            "secret.slack-token /entries/0/_webSocketMessages/1/data!json/token",
            "secret.github-token /entries/0/comment",
            "secret.aws-access-key-id /entries/0/metadata/0",
            "secret.github-token /entries/1/messages/0/content",
        ])
    }

    /// A flow file cut inside a flow is an error: never fewer flows read without a word. (Cut
    /// between flows, it is a shorter file, as an NDJSON file cut between lines: mitmproxy
    /// writes no end; cut before its first key is whole, it is no flow file.)
    @Test func everyCutInsideAFlowIsAnError() throws {
        let flows = try Self.bytes("flows.mitm")
        // Where each flow ends: its length's digits, the colon, its data and its tag.
        var ends: [Int] = []
        var start = 0
        while start < flows.count {
            let colon = flows[start...].firstIndex(of: UInt8(ascii: ":"))!
            ends.append(colon + 1 + Int(String(decoding: flows[start..<colon], as: UTF8.self))! + 1)
            start = ends.last!
        }
        #expect(ends.count == 4 && ends.last == flows.count)
        // From the first key's tag on (`2165:9:websocket;`), which tells a flow file.
        let firstKeyEnd = flows.firstIndex(of: UInt8(ascii: ";"))! + 1
        for length in stride(from: firstKeyEnd, to: flows.count, by: 3) where !ends.contains(length) {
            let outcome = Self.scan(Array(flows[..<length]), name: "cut")
            #expect(outcome.summary.format == "mitmproxy", "cut at \(length)")
            #expect(outcome.errors.map(\.kind) == [.parse], "cut at \(length)")
        }
        for end in ends.dropLast() {
            #expect(Self.scan(Array(flows[..<end]), name: "cut").errors.isEmpty)
        }
    }

    /// Broken tnetstrings are parse errors at their offset.
    @Test(arguments: [
        ("23:4:type;4:http;2:id;1:x~}", "a tnetstring null with data", 22),
        ("18:4:type;4:http;1:1?}", "a tnetstring whose type tag is not one of , ; # ^ ! ~ ] }", 20),
        ("18:4:type;4:http;1:x,}", "a tnetstring dictionary whose last key has no value", 0),
        ("14:4:type;4:http;]", "a flow that is not a tnetstring dictionary", 0),
        ("22:4:type;4:http;1:1#1:x,}", "a tnetstring dictionary key that is not text", 17),
        ("22:4:type;4:http;1:x#1:x,}", "a tnetstring integer that is not one", 17),
        ("18:4:type;4:http;9:x,}", "a tnetstring whose length (9 bytes) runs past the end of what holds it", 17),
        ("24:4:type;4:http;3:tru!1:x,}", "a tnetstring boolean that is neither true nor false", 17),
        ("28:4:type;4:http;1234567890123:}", "a tnetstring length of more than 12 digits", 17),
        ("14:4:type;4:http;}x", "a tnetstring that does not start with its length and a colon", 18),
        ("14:4:type;4:http;}12", "a flow cut short in its length", 18),
        ("14:4:type;4:http;}5:ab", "a flow cut short: its length (5 bytes) runs past the end of the input", 18),
    ])
    func brokenTNetStringsAreParseErrors(_ text: String, _ reason: String, _ offset: Int) {
        let outcome = Self.scan(Array(text.utf8), name: "flows")
        #expect(outcome.summary.format == "mitmproxy")
        #expect(outcome.errors.map(\.reason) == [reason])
        #expect(outcome.errors.first?.position?.byteOffset == offset)
    }

    @Test func nestingBeyondTheLimitIsAParseError() {
        var value = "0:]"
        for _ in 0..<20 { value = "\(value.utf8.count):\(value)]" }
        let flow = "4:type;\(value)"
        var options = ScanOptions()
        options.maxDepth = 10
        let outcome = Self.scan(Array("\(flow.utf8.count):\(flow)}".utf8), name: "flows", options: options)
        #expect(outcome.errors.map(\.reason) == ["tnetstring lists and dictionaries nested more than 10 deep"])
    }

    /// A flow of a million tiny values would take 32 bytes of nodes for each 3 bytes of input.
    @Test func aFlowOfTooManyValuesIsALimitError() {
        let values = String(repeating: "0:~", count: TNetString.maxValues)
        let flow = "4:type;\(values.utf8.count):\(values)]"
        let outcome = Self.scan(Array("\(flow.utf8.count):\(flow)}".utf8), name: "flows")
        #expect(outcome.errors.map(\.kind) == [.limit])
        #expect(outcome.errors.map(\.reason) == ["a flow of more than \(TNetString.maxValues) values"])
    }

    /// Only a tnetstring that starts with a flow's key is a flow file.
    @Test(arguments: [
        ("1989:9:websocket;0:~", true),
        ("120:7:version;2:21#", true),
        ("88:4:type,4:http,", true),
        ("12:30:00 meeting;", false),
        ("12:5:hello;", false),
        ("120:7:version#", false),
    ])
    func aFlowFileIsKnownByItsFirstKey(_ text: String, _ expected: Bool) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer(MitmproxyFlowReader.startsFlowFile) == expected)
    }

    @Test func redactRefusesAFlowFile() throws {
        let redactor = Redactor(rules: TestSupport.builtinPack)
        do {
            _ = try redactor.redact(try Self.bytes("flows.mitm"), name: "flows.mitm")
            Issue.record("redacted a flow file")
        } catch let error as RedactError {
            guard case .input(let errors) = error else { Issue.record("\(error)"); return }
            #expect(errors.map(\.kind) == [.format])
            #expect(errors.first?.reason.hasPrefix("redact does not rewrite mitmproxy flow files") == true)
        }
    }
}
