@testable import AuditCore
@testable import AuditInputs
@testable import AuditReport
import Foundation
import TestHelpers
import Testing

/// Reports of the fixture directory `Fixtures/report-sample`: golden files compared byte for
/// byte (rewrite with RECORD_SNAPSHOTS=1 swift test), schema validation, determinism.
@Suite(.serialized) struct ReportTests {
    static let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures")
    static let snapshots = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Snapshots")

    /// Runs the built binary in the fixtures directory so that artifact names are relative.
    static func report(_ format: String, extra: [String] = []) -> (status: Int32, stdout: String, stderr: String) {
        do {
            return try ProcessRunner.run(ProcessRunner.binary, ["scan", "--no-config", "--format", format, "report-sample"] + extra,
                                         currentDirectory: fixtures)
        } catch {
            return (-1, "", "cannot run \(ProcessRunner.binary): \(error)")
        }
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

    @Test(arguments: ["text", "json", "sarif", "html", "github"])
    func goldenReport(_ format: String) throws {
        let run = Self.report(format)
        #expect(run.status == ExitStatus.inputError, "the sample holds a truncated file")
        try Self.assertSnapshot(run.stdout, named: "report-sample.\(format == "text" ? "txt" : format)")
    }

    @Test(arguments: ["text", "json", "sarif", "html", "github"])
    func outputIsByteIdenticalAcrossRunsAndJobs(_ format: String) {
        let first = Self.report(format).stdout
        #expect(Self.report(format).stdout == first)
        #expect(Self.report(format, extra: ["--jobs", "3"]).stdout == first)
    }

    /// JSON and SARIF go to a file as they are made, HTML as its bytes; the file holds what
    /// stdout shows.
    @Test(arguments: ["json", "sarif", "html"])
    func aReportWrittenToAFileIsTheOneOnStdout(_ format: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("habiter-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.\(format)")
        #expect(Self.report(format, extra: ["--quiet", "--output", file.path]).status == ExitStatus.inputError)
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.report(format).stdout)
    }

    @Test func theStreamedReportsAreTheRenderedOnes() {
        let input = HTMLReportTests.syntheticInput("a \"quoted\" text")
        let reports: [(String, (Int, (UnsafeRawBufferPointer) -> Bool) -> Bool, String)] = [
            ("json", { JSONReport.write(input, chunk: $0, to: $1) }, JSONReport.render(input)),
            ("sarif", { SARIFReport.write(input, chunk: $0, to: $1) }, SARIFReport.render(input)),
        ]
        for (format, write, rendered) in reports {
            var chunks: [[UInt8]] = []
            #expect(write(64) { chunks.append(Array($0)); return true }, "\(format)")
            #expect(chunks.count > 2, "\(format): flushed after each finding, and at the end")
            #expect(String(decoding: chunks.joined(), as: UTF8.self) == rendered, "\(format)")
            // A sink that fails is not called again.
            var calls = 0
            #expect(!write(64) { _ in calls += 1; return false }, "\(format)")
            #expect(calls == 1, "\(format)")
        }
    }

    static let sarifSchema = TestSupport.sharedRoot.appendingPathComponent("schemas/sarif-2.1.0.json")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: ReportTests.sarifSchema.path), "../shared/schemas/sarif-2.1.0.json is absent"))
    func sarifValidatesAgainstTheSchema() throws {
        validate(Self.report("sarif").stdout, schema: Self.sarifSchema)
    }

    @Test func jsonReportValidatesAgainstItsSchema() throws {
        validate(Self.report("json").stdout, schema: TestSupport.repoRoot.appendingPathComponent("docs/report.schema.json"))
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

    /// Validates with the JSON Schema validator; says plainly when it could not run.
    private func validate(_ document: String, schema: URL) {
        switch SchemaValidator.validate(document, schema: schema) {
        case .valid: break
        case .invalid(let problems): Issue.record("schema validation failed: \(problems)")
        case .unavailable(let why): Issue.record(Comment(rawValue: why))
        }
    }
}
