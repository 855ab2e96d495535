import Foundation
import Testing
@testable import HabiterAudit

/// Reports of the fixture directory `Fixtures/report-sample`: golden files compared byte for
/// byte (rewrite with RECORD_SNAPSHOTS=1 swift test), schema validation, determinism.
@Suite(.serialized) struct ReportTests {
    static let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures")
    static let snapshots = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Snapshots")

    /// Runs the scan from the fixtures directory so that artifact names are relative.
    static func report(_ format: String, extra: [String] = []) -> (status: Int32, stdout: String, stderr: String) {
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(fixtures.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        return TestSupport.runCLI(["scan", "--format", format, "report-sample"] + extra)
    }

    static func assertSnapshot(_ text: String, named name: String) throws {
        let url = snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "\(name) differs from the golden file; if the change is intended, run RECORD_SNAPSHOTS=1 swift test")
    }

    @Test(arguments: ["text", "json", "sarif"])
    func goldenReport(_ format: String) throws {
        let run = Self.report(format)
        #expect(run.status == ExitStatus.inputError, "the sample holds a truncated file")
        try Self.assertSnapshot(run.stdout, named: "report-sample.\(format == "text" ? "txt" : format)")
    }

    @Test(arguments: ["text", "json", "sarif"])
    func outputIsByteIdenticalAcrossRunsAndJobs(_ format: String) {
        let first = Self.report(format).stdout
        #expect(Self.report(format).stdout == first)
        #expect(Self.report(format, extra: ["--jobs", "3"]).stdout == first)
    }

    @Test func sarifValidatesAgainstTheSchema() throws {
        let schema = TestSupport.sharedRoot.appendingPathComponent("schemas/sarif-2.1.0.json")
        guard FileManager.default.fileExists(atPath: schema.path) else {
            print("SKIPPED: ../shared/schemas/sarif-2.1.0.json is absent; SARIF schema validation did not run")
            return
        }
        try validate(Self.report("sarif").stdout, schema: schema)
    }

    @Test func jsonReportValidatesAgainstItsSchema() throws {
        try validate(Self.report("json").stdout, schema: TestSupport.repoRoot.appendingPathComponent("docs/report.schema.json"))
    }

    @Test func everySarifResultHasALineAndColumn() throws {
        let sarif = try JSONValue.parse(Array(Self.report("sarif").stdout.utf8)).value
        let results = sarif["runs"]?.arrayElements?.first?.value["results"]?.arrayElements ?? []
        #expect(results.count == 5)
        for result in results {
            let location = result.value["locations"]?.arrayElements?.first?.value
            let region = location?["physicalLocation"]?["region"]
            #expect(region?["startLine"]?.doubleValue ?? 0 >= 1)
            #expect(region?["startColumn"]?.doubleValue ?? 0 >= 1)
            #expect(location?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue != nil)
            #expect(location?["logicalLocations"]?.arrayElements?.first?.value["fullyQualifiedName"]?.stringValue?.hasPrefix("/") == true)
        }
    }

    private func validate(_ document: String, schema: URL) throws {
        let file = TestSupport.temporaryDirectory().appendingPathComponent("document.json")
        try document.write(to: file, atomically: true, encoding: .utf8)
        guard let python = TestSupport.which("python3") else {
            Issue.record("python3 is needed for schema validation; scripts/test installs what is missing")
            return
        }
        let run = try TestSupport.run(python, [TestSupport.repoRoot.appendingPathComponent("scripts/validate-json-schema.py").path, schema.path, file.path])
        if run.status == 3 {
            Issue.record("the Python package jsonschema is missing; scripts/test installs it (python3 -m pip install jsonschema)")
            return
        }
        #expect(run.status == 0, "schema validation failed: \(run.stderr)")
    }
}
