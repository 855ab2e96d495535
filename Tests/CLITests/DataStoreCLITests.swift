@testable import AuditRedact
import Foundation
import TestHelpers
import Testing

private typealias D = DataStoreFixture

/// A fake, format-valid Google API key (as in RedactFixtures).
private let google = "AIzao-qaOPBnfupBPM1gXwlMNBAcFu1778WMFMx"

private func write(_ bytes: [UInt8], _ name: String, in directory: URL) -> String {
    let url = directory.appendingPathComponent(name)
    try! Data(bytes).write(to: url)
    return url.path
}

/// `scan` and `redact` on DataStore preferences files, end to end.
@Suite struct DataStoreCLITests {
    @Test func aCleanStoreExitsZero() {
        let d = ProcessRunner.temporaryDirectory()
        let file = write(D.file([("habiter_onboarding_v2", .boolean(true)), ("classly_last_sync", .long(1))]),
                         "FlutterSharedPreferences.preferences_pb", in: d)
        let run = TestSupport.cli(["scan", "--no-config", file])
        #expect(run.status == 0)
        #expect(run.stdout.contains("No findings in 1 input. Gate passed."))
    }

    @Test func theRealisticStoreFailsTheGateWithByteOffsetPositions() throws {
        let d = ProcessRunner.temporaryDirectory()
        let store = D.habiterStore(apiKey: google)
        let file = write(store, "FlutterSharedPreferences.preferences_pb", in: d)
        let json = TestSupport.cli(["scan", "--no-config", "--format", "json", file])
        #expect(json.status == 1)
        #expect(!json.stdout.contains(google) && !json.stderr.contains(google), "a report shows the key")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let key = try #require(findings.first { $0["ruleId"] as? String == "secret.google-api-key" })
        #expect(key["path"] as? String == "/preferences/habiter_storage_envelope!json/data/habiter_ai_config/apiKey")
        #expect(key["line"] as? Int == 1)
        let offset = try #require(key["byteOffset"] as? Int)
        #expect(key["column"] as? Int == offset + 1)
        #expect(offset > 0 && offset < store.count)
        let artifacts = try #require(report["artifacts"] as? [[String: Any]])
        #expect(artifacts.first?["format"] as? String == "datastore")
        let sarif = TestSupport.cli(["scan", "--no-config", "--format", "sarif", file])
        #expect(sarif.stdout.contains("\"startColumn\" : \(offset + 1)") || sarif.stdout.contains("\"startColumn\": \(offset + 1)"))
    }

    @Test func aMalformedStoreExitsTwoWithFileLineAndColumn() {
        let d = ProcessRunner.temporaryDirectory()
        let file = write(D.entry("a", .long(1)) + [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
                         "FlutterSharedPreferences.preferences_pb", in: d)
        let run = TestSupport.cli(["scan", "--no-config", file])
        #expect(run.status == 2)
        #expect(run.stdout.contains("FlutterSharedPreferences.preferences_pb:1:11: a varint longer than 64 bits"))
    }

    @Test func stdinAndGzipAreReadToo() throws {
        let binary = try #require(BinaryTests.binary, "the habiter-audit binary is built by swift build / swift test")
        let store = D.entry("note", .string("key \(google)"))
        let piped = try TestSupport.run(binary, ["scan", "--no-config", "-"], stdin: Data(store))
        #expect(piped.status == 1)
        #expect(piped.stdout.contains("/preferences/note"))
        let forced = try TestSupport.run(binary, ["scan", "--no-config", "--input-format", "datastore", "-"], stdin: Data("{}".utf8))
        #expect(forced.status == 2)
        #expect(forced.stdout.contains("-:1:1: wire type 3"))
        let d = ProcessRunner.temporaryDirectory()
        let gzip = try #require(GzipEncoder.compress(store, headerFrom: []))
        let compressed = TestSupport.cli(["scan", "--no-config", write(gzip, "FlutterSharedPreferences.preferences_pb.gz", in: d)])
        #expect(compressed.status == 1)
        #expect(compressed.stdout.contains("!gzip/preferences/note"))
    }

    @Test func redactWritesAStoreThatScansClean() throws {
        let d = ProcessRunner.temporaryDirectory()
        let input = write(D.entry("note", .string("key \(google)")) + D.entry("flag", .boolean(true)), "in.preferences_pb", in: d)
        let output = d.appendingPathComponent("out.preferences_pb").path
        let run = TestSupport.cli(["redact", input, "-o", output])
        #expect(run.status == 0)
        #expect(run.stderr.contains("(datastore)"))
        let copy = try #require(FileManager.default.contents(atPath: output).map { [UInt8]($0) })
        let same = copy == D.entry("note", .string("key [REDACTED:google-api-key]")) + D.entry("flag", .boolean(true))
        #expect(same)
        #expect(TestSupport.cli(["scan", "--no-config", output]).status == 0)
    }
}
