@testable import AuditCore
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// Hits wait for the end of their document; `--max-document-hits` bounds how many may wait, and
/// reaching it fails the scan with a `limit` error at the value where it was reached.
@Suite struct DocumentLimitTests {
    private func options(limit: Int) -> ScanOptions {
        var options = ScanOptions()
        options.maxDocumentHits = limit
        return options
    }

    private func records(_ count: Int) -> String {
        (0..<count).map { _ in #"{"token": "-", "password": ""}"# }.joined(separator: ",\n")
    }

    @Test func oneJSONDocumentWithTooManyHitsFailsWithAPosition() {
        let text = "{\"records\": [\n" + records(30) + "\n]}"
        let outcome = TestSupport.scan(text, options: options(limit: 10))
        let limit = outcome.errors.filter { $0.kind == .limit }
        #expect(limit.count == 1)
        #expect(limit.first?.position?.line == 7)  // the 11th hit: the first value of record 6
        #expect(limit.first?.reason.contains("--max-document-hits") == true)
    }

    @Test func underTheLimitNothingChanges() {
        let text = "{\"records\": [\n" + records(30) + "\n]}"
        #expect(TestSupport.scan(text, options: options(limit: 60)).errors.isEmpty)
    }

    @Test func eachNDJSONLineIsItsOwnDocument() {
        let text = (0..<8).map { _ in #"{"records": ["# + records(4).replacingOccurrences(of: "\n", with: "") + "]}" }.joined(separator: "\n")
        #expect(TestSupport.scan(text, name: "ops.ndjson", options: options(limit: 10)).errors.isEmpty)
    }

    @Test func eachPrefsEntryIsItsOwnDocument() {
        let entries = (0..<40).map { #"<string name="flutter.token_\#($0)">-</string>"# }.joined(separator: "\n")
        let text = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n\(entries)\n</map>\n"
        let outcome = TestSupport.scan(text, name: "FlutterSharedPreferences.xml", options: options(limit: 10))
        #expect(outcome.errors.isEmpty)
    }

    /// Markup counts as well: one element of a prefs entry may hold a million attributes.
    @Test func onePrefsEntryWithTooManyHitsFailsWithAPosition() {
        let token = "ghp_" + "Zq8R2mWv7LkP4xT9nB3cD6fH1jS5gA0yE2uK"
        let items = (0..<30).map { _ in "<a b=\"\(token)\"/>" }.joined(separator: "\n")
        let text = "<map>\n<list name=\"flutter.l\">\n\(items)\n</list>\n</map>\n"
        let outcome = TestSupport.scan(text, name: "FlutterSharedPreferences.xml", options: options(limit: 10))
        let limit = outcome.errors.filter { $0.kind == .limit }
        #expect(limit.count == 1)
        #expect(limit.first?.position?.line == 13)  // the 11th hit: the attribute on line 3 + 10
        #expect(outcome.errors.count == 1)
    }

    @Test func theCommandLineTakesTheLimitAndFailsClosed() throws {
        let directory = TestSupport.temporaryDirectory()
        let file = directory.appendingPathComponent("records.json")
        try Data(("{\"records\": [\n" + records(30) + "\n]}").utf8).write(to: file)
        let refused = TestSupport.runCLI(["scan", "--no-config", "--max-document-hits", "0", file.path])
        #expect(refused.status == ExitStatus.usage)
        #expect(refused.stderr.contains("max-document-hits"))
        let stopped = TestSupport.runCLI(["scan", "--no-config", "--max-document-hits", "10", file.path])
        #expect(stopped.status == 2)
        #expect(stopped.stdout.contains("records.json:7:") || stopped.stderr.contains("records.json:7:"))
        #expect(TestSupport.runCLI(["scan", "--no-config", file.path]).status == 0)
    }
}

/// A member the contract checks read whole (a payload) is bounded: past the limit the input
/// fails with a `limit` error, in an input and in a JSON layer alike.
@Suite struct CapturedMemberLimitTests {
    static let hugePayload = #"{"schemaVersion": 1, "entityId": "habit/h1", "deleted": false, "payload": {"id": "h1", "notes": ["#
        + Array(repeating: #""0123456789abcdef0123456789abcdef""#, count: ContractDrafts.maxCapturedBytes / 32).joined(separator: ",") + "]}}"

    @Test func aPayloadLargerThanTheChecksReadFailsClosed() {
        let outcome = TestSupport.scan(Self.hugePayload)
        #expect(outcome.errors.map(\.kind) == [.limit])
        #expect(outcome.errors.first?.reason.contains("MiB") == true)
    }

    /// A payload of `count` tiny values (`[0,0,…]`, one of them the array), within the byte
    /// limit.
    static func payload(values count: Int) -> String {
        #"{"schemaVersion": 1, "entityId": "habit/h1", "deleted": false, "payload": {"notes": ["#
            + Array(repeating: "0", count: count - 2).joined(separator: ",") + "]}}"
    }

    /// The payload object and its array are two of the values.
    @Test func aPayloadOfMoreValuesThanTheChecksReadFailsClosed() {
        let atTheLimit = TestSupport.scan(Self.payload(values: ContractDrafts.maxCapturedValues))
        #expect(atTheLimit.errors.isEmpty, "\(atTheLimit.errors.map(\.description))")
        let over = TestSupport.scan(Self.payload(values: ContractDrafts.maxCapturedValues + 1))
        #expect(over.errors.map(\.kind) == [.limit])
        #expect(over.errors.first?.reason.contains("values") == true)
    }

    @Test func soDoesOneInAString() {
        let wrapped = #"{"body": \#(JSONOutput.string(Self.hugePayload).renderedOnOneLine())}"#
        #expect(TestSupport.scan(wrapped).errors.map(\.kind) == [.limit])
    }
}
