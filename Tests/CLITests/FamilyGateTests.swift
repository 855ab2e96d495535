@testable import AuditInputs
import Foundation
import TestHelpers
import Testing

/// A gate per family (issue 22): a release gate that fails on a live credential in a committed
/// capture, which QA keeps as a transport warning; the same in the configuration, with the
/// configuration's `paths` leaving directories out of a walk.
@Suite struct FamilyGateTests {
    /// A capture whose only finding is a transport warning: a bearer token sent to a third-party API.
    static let capture = #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"request": {"method": "GET", "url": "https://api.example-weather.net/v1/now", "headers": [{"name": "Authorization", "value": "Bearer Zk8mQ3xV7pL2nR9tW4yB6cF1hJ5dG0sAq"}], "queryString": []}, "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}}]}}"#

    static func write(_ files: [String: String]) -> URL {
        let directory = ProcessRunner.temporaryDirectory()
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
        }
        return directory
    }

    @Test func aFamilyCanFailTheGateBelowTheThreshold() throws {
        let file = Self.write(["session.har": Self.capture]).appendingPathComponent("session.har").path
        #expect(TestSupport.cli(["scan", "--no-config", file]).status == 0, "a transport warning passes the default gate")
        let gated = TestSupport.cli(["scan", "--no-config", "--fail-on", "error", "--fail-on", "transport=warning", file])
        #expect(gated.status == 1)
        #expect(gated.stdout.contains("Gate failed (--fail-on error, transport=warning)."))
        let report = TestSupport.cli(["scan", "--no-config", "--fail-on", "transport=warning", "--format", "json", file]).stdout
        #expect(try JSONValue.parse(Array(report.utf8)).value["summary"]?["failOn"]?.stringValue == "error, transport=warning")
        switch SchemaValidator.validate(report, schema: ProcessRunner.repoRoot.appendingPathComponent("docs/report.schema.json")) {
        case .valid: break
        case .invalid(let problems): Issue.record("the JSON report does not follow docs/report.schema.json: \(problems)")
        case .unavailable(let why): print(why)
        }
        // The family's own level wins over the threshold, both ways.
        #expect(TestSupport.cli(["scan", "--no-config", "--fail-on", "warning", "--fail-on", "transport=error", file]).status == 0)
    }

    @Test(arguments: ["bogus", "transport=", "colour=warning", "transport=loud"])
    func aWrongValueIsAUsageError(_ value: String) {
        let run = TestSupport.cli(["scan", "--no-config", "--fail-on", value, "."])
        #expect(run.status == 64)
        #expect(run.stderr.contains("invalid value '\(value)' for '--fail-on'"))
    }

    @Test func theConfigurationSetsTheGateAndThePaths() {
        let directory = Self.write([
            ".habiter-audit.json": #"{"failOn": ["error", "transport=warning"], "paths": {"exclude": ["fixtures/old/"]}}"#,
            "captures/session.har": Self.capture,
            "fixtures/old/broken.json": "{",
        ])
        let run = TestSupport.cli(["scan", directory.path])
        #expect(run.status == 1, "the configuration's gate fails on the transport warning; the excluded broken file is not read: \(run.stderr)")
        // The command line applies on top of the configuration.
        #expect(TestSupport.cli(["scan", "--fail-on", "transport=never", directory.path]).status == 0)
        #expect(TestSupport.cli(["scan", "--no-config", directory.path]).status == 2, "without the configuration the broken file is read")
        let bad = Self.write([".habiter-audit.json": #"{"paths": {"skip": ["x"]}}"#, "a.json": "{}"])
        #expect(TestSupport.cli(["scan", bad.path]).stderr.contains("unknown key 'paths.skip'"))
    }

    @Test func excludeOnTheCommandLine() {
        let directory = Self.write(["good.json": "{}", "fixtures/broken.json": "{"])
        #expect(TestSupport.cli(["scan", "--no-config", directory.path]).status == 2)
        #expect(TestSupport.cli(["scan", "--no-config", "--exclude", "fixtures/", directory.path]).status == 0)
        #expect(TestSupport.cli(["scan", "--no-config", "--include", "good.json", directory.path]).status == 0)
        #expect(TestSupport.cli(["scan", "--no-config", "--exclude", "", directory.path]).status == 64)
    }
}
