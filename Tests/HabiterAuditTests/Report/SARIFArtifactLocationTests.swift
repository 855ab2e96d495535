@testable import AuditInputs
@testable import AuditReport
import Foundation
import TestHelpers
import Testing

/// SARIF artifact URIs: relative paths as given, absolute ones as `file://` URIs, and under
/// `--root` relative to the base id SRCROOT that `originalUriBaseIds` defines.
@Suite struct SARIFArtifactLocationTests {
    /// The `artifactLocation` of `path`, the fourth of the run's artifacts, on one line.
    static func location(_ path: String, root: SARIFRoot? = nil) -> String {
        var writer = JSONStreamWriter()
        SARIFArtifactLocations(artifacts: ["a", "b", "a", path], root: root).write(path, into: &writer)
        return (try? JSONOutput(JSONValue.parse(Array(writer.rendered().utf8)).value).renderedOnOneLine()) ?? "not JSON"
    }

    @Test func withoutARoot() {
        #expect(Self.location("captures/a b.har") == #"{"uri": "captures/a%20b.har", "index": 3}"#)
        #expect(Self.location("/home/ci/work/captures/s.har") == #"{"uri": "file:///home/ci/work/captures/s.har", "index": 3}"#)
        #expect(Self.location("/home/ci/./work/../ä.json") == #"{"uri": "file:///home/ci/%C3%A4.json", "index": 3}"#)
        #expect(Self.location("-") == #"{"uri": "stdin", "index": 3}"#)
        // An artifact named twice keeps its first index; one not among them has none.
        var writer = JSONStreamWriter()
        SARIFArtifactLocations(artifacts: ["x", "a", "a"], root: nil).write("a", into: &writer)
        SARIFArtifactLocations(artifacts: ["x"], root: nil).write("a", into: &writer)
        #expect(writer.rendered() == "{\n  \"uri\": \"a\",\n  \"index\": 1\n}{\n  \"uri\": \"a\"\n}\n")
        #expect(SARIFArtifactLocations(artifacts: [], root: nil).originalUriBaseIds == nil)
    }

    @Test func underARoot() {
        let root = SARIFRoot("repo/", currentDirectory: "/home/ci")
        #expect(root.directory == "/home/ci/repo/")
        #expect(Self.location("/home/ci/repo/captures/s.har", root: root) == #"{"uri": "captures/s.har", "uriBaseId": "SRCROOT", "index": 3}"#)
        #expect(Self.location("repo/./fixtures/x.json", root: root) == #"{"uri": "fixtures/x.json", "uriBaseId": "SRCROOT", "index": 3}"#)
        // Outside the root: an absolute file:// URI, never a path climbing out of it.
        #expect(Self.location("other/x.json", root: root) == #"{"uri": "file:///home/ci/other/x.json", "index": 3}"#)
        #expect(Self.location("/home/ci/repository/x.json", root: root) == #"{"uri": "file:///home/ci/repository/x.json", "index": 3}"#)
        #expect(SARIFArtifactLocations(artifacts: [], root: root).originalUriBaseIds?.renderedOnOneLine()
            == #"{"SRCROOT": {"uri": "file:///home/ci/repo/"}}"#)
    }

    /// The binary with `--root`: every location of the sample relative to SRCROOT, a valid log,
    /// and a merge of two such logs keeps the base id.
    @Test func aScanWithARootIsValidSARIFAndMergesWithIt() throws {
        let fixtures = ReportTests.fixtures.path
        let run = try ProcessRunner.run(ProcessRunner.binary, ["scan", "--no-config", "--format", "sarif", "--root", fixtures,
                                                              fixtures + "/report-sample"])
        let log = try JSONValue.parse(Array(run.stdout.utf8)).value
        let sarifRun = try #require(log["runs"]?.arrayElements?.first?.value)
        #expect(sarifRun["originalUriBaseIds"]?["SRCROOT"]?["uri"]?.stringValue == "file://" + fixtures + "/")
        let artifacts = sarifRun["artifacts"]?.arrayElements ?? []
        #expect(artifacts.count == 4)
        for artifact in artifacts {
            #expect(artifact.value["location"]?["uri"]?.stringValue?.hasPrefix("report-sample/") == true)
            #expect(artifact.value["location"]?["uriBaseId"]?.stringValue == "SRCROOT")
        }
        for result in sarifRun["results"]?.arrayElements ?? [] {
            let location = result.value["locations"]?.arrayElements?.first?.value["physicalLocation"]?["artifactLocation"]
            #expect(location?["uriBaseId"]?.stringValue == "SRCROOT")
        }
        let merged = try JSONValue.parse(Array(SARIFMerge.merge([("a.sarif", Array(run.stdout.utf8)), ("b.sarif", Array(run.stdout.utf8))]).utf8)).value
        #expect(merged["runs"]?.arrayElements?.first?.value["originalUriBaseIds"]?["SRCROOT"]?["uri"]?.stringValue == "file://" + fixtures + "/")
        switch SchemaValidator.validate(run.stdout, schema: SchemaValidator.sarifSchema) {
        case .valid: break
        case .invalid(let problems): Issue.record("not valid SARIF: \(problems)")
        case .unavailable(let why): try Test.cancel(Comment(rawValue: why))
        }
    }
}
