@testable import AuditInputs
import Foundation
import TestHelpers
import Testing

/// The gate's many-files options on the whole corpus: --jobs gives byte-identical reports,
/// shards cover every input once, baselines and SARIF carry their states.
@Suite struct GateTests {
    static let corpus = ProcessRunner.repoRoot.appendingPathComponent("corpus").path

    static func cli(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        TestSupport.cli(arguments)
    }

    /// Validates against the SARIF schema; a validation that cannot run skips the test, with why.
    static func expectValidSARIF(_ text: String) throws {
        switch SchemaValidator.validate(text, schema: SchemaValidator.sarifSchema) {
        case .valid: break
        case .invalid(let problems): Issue.record("not valid SARIF: \(problems)")
        case .unavailable(let why): try Test.cancel(Comment(rawValue: why))
        }
    }

    @Test(arguments: ["json", "sarif", "text"])
    func jobsDoNotChangeTheReport(_ format: String) {
        let one = Self.cli(["scan", "--no-config", "--format", format, "--jobs", "1", Self.corpus])
        let two = Self.cli(["scan", "--no-config", "--format", format, "--jobs", "2", Self.corpus])
        #expect(one.status == 1)
        #expect(one.stdout == two.stdout, "--jobs 2 differs from --jobs 1 (\(format))")
        #expect(one.stdout.count > 10_000)
    }

    @Test func noProgressWithoutATerminal() {
        let run = Self.cli(["scan", "--no-config", "--format", "json", "-o", "/dev/null", Self.corpus])
        #expect(!run.stderr.contains("inputs,"))
        #expect(!run.stderr.contains("\u{1B}[2K"))
    }

    @Test func shardsTogetherAreTheWholeScan() throws {
        let whole = try JSONValue.parse(Array(Self.cli(["scan", "--no-config", "--format", "json", Self.corpus]).stdout.utf8)).value
        var artifacts: [String] = []
        var fingerprints: [String] = []
        for k in 1...3 {
            let part = try JSONValue.parse(Array(Self.cli(["scan", "--no-config", "--shard", "\(k)/3", "--format", "json", Self.corpus]).stdout.utf8)).value
            artifacts += part["artifacts"]?.arrayElements?.compactMap { $0.value["name"]?.stringValue } ?? []
            fingerprints += part["findings"]?.arrayElements?.compactMap { $0.value["fingerprint"]?.stringValue } ?? []
        }
        #expect(artifacts.sorted() == (whole["artifacts"]?.arrayElements?.compactMap { $0.value["name"]?.stringValue } ?? []).sorted())
        #expect(fingerprints.sorted() == (whole["findings"]?.arrayElements?.compactMap { $0.value["fingerprint"]?.stringValue } ?? []).sorted())
    }

    @Test func sarifCarriesBaselineStatesAndSuppressions() throws {
        let directory = ProcessRunner.temporaryDirectory()
        let baseline = directory.appendingPathComponent("baseline.json").path
        let captures = Self.corpus + "/captures"
        #expect(Self.cli(["baseline", "--no-config", captures, "-o", baseline, "-q"]).status == 0)
        let sarif = Self.cli(["scan", "--no-config", "--baseline", baseline, "--format", "sarif", "--sarif-category", "captures", Self.corpus + "/sync", captures])
        #expect(sarif.status == 1, "the sync folder's findings are new")
        let run = try JSONValue.parse(Array(sarif.stdout.utf8)).value["runs"]?.arrayElements?.first?.value
        let results = run?["results"]?.arrayElements?.map(\.value) ?? []
        let states = Set(results.compactMap { $0["baselineState"]?.stringValue })
        #expect(states == ["new", "unchanged"])
        #expect(results.filter { $0["baselineState"]?.stringValue == "unchanged" }.allSatisfy {
            $0["suppressions"]?.arrayElements?.first?.value["status"]?.stringValue == "accepted"
        })
        #expect(run?["automationDetails"]?["id"]?.stringValue == "captures/")
        try Self.expectValidSARIF(sarif.stdout)

        let omitted = Self.cli(["scan", "--no-config", "--baseline", baseline, "--format", "sarif", "--sarif-omit-suppressed", captures])
        #expect(omitted.status == 0)
        let kept = try JSONValue.parse(Array(omitted.stdout.utf8)).value["runs"]?.arrayElements?.first?.value["results"]?.arrayElements ?? []
        #expect(kept.isEmpty)
    }

    @Test func mergedShardsValidate() throws {
        let directory = ProcessRunner.temporaryDirectory()
        var files: [String] = []
        for k in 1...2 {
            let path = directory.appendingPathComponent("s\(k).sarif").path
            _ = Self.cli(["scan", "--no-config", "--shard", "\(k)/2", "--format", "sarif", "-o", path, "-q", Self.corpus])
            files.append(path)
        }
        let merged = Self.cli(["merge"] + files)
        #expect(merged.status == 0)
        try Self.expectValidSARIF(merged.stdout)
        let whole = Self.cli(["scan", "--no-config", "--format", "sarif", Self.corpus]).stdout
        func count(_ text: String) throws -> Int {
            try JSONValue.parse(Array(text.utf8)).value["runs"]?.arrayElements?.first?.value["results"]?.arrayElements?.count ?? -1
        }
        #expect(try count(merged.stdout) == count(whole))
        #expect(Self.cli(["merge", directory.appendingPathComponent("missing.sarif").path]).status == 2)
        // Written to a file as it is made: the file holds what stdout shows. A log that is no
        // SARIF fails the merge before its file is begun.
        let output = directory.appendingPathComponent("merged.sarif").path
        #expect(Self.cli(["merge"] + files + ["-o", output]).status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == merged.stdout)
        let notSARIF = directory.appendingPathComponent("not.sarif").path
        try "{}".write(toFile: notSARIF, atomically: true, encoding: .utf8)
        let refused = directory.appendingPathComponent("refused.sarif").path
        #expect(Self.cli(["merge", files[0], notSARIF, "-o", refused]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: refused))
    }
}
