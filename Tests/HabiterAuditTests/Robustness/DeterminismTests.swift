@testable import AuditCore
import Foundation
import TestHelpers
import Testing

/// Determinism (issue 8): the same inputs give byte-identical reports in every output format,
/// run after run (separate processes, so hash seeds differ) and for every --jobs value, also
/// when some inputs fail.
@Suite struct DeterminismTests {
    /// The corpus, plus inputs that fail in different ways, so that errors are ordered too.
    static let inputs: [String] = {
        let broken = TestSupport.temporaryDirectory()
        let files: [(String, [UInt8])] = [
            ("truncated.json", Array(#"{"gh": "\#(HostileInputTests.token)", "a": ["#.utf8)),
            ("deep.json", Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)),
            ("empty.har", []),
            ("binary.dat", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
            ("bad.xml", Array("<map><string name=\"flutter.a\">x</strin></map>".utf8)),
        ]
        for (name, bytes) in files { try! Data(bytes).write(to: broken.appendingPathComponent(name)) }
        return [TestSupport.repoRoot.appendingPathComponent("corpus").path, broken.path]
    }()

    @Test(arguments: ["json", "sarif", "text", "html", "github"])
    func reportsAreIdenticalAcrossRunsAndJobs(_ format: String) throws {
        var reports: [String: String] = [:]
        for (label, jobs) in [("first run", "1"), ("second run", "1"), ("--jobs 2", "2"), ("--jobs 4", "4")] {
            let run = try ProcessRunner.run(ProcessRunner.binary, ["scan", "--no-config", "--format", format, "--jobs", jobs] + Self.inputs)
            #expect(run.status == ExitStatus.inputError, "\(label): exit \(run.status)")
            reports[label] = run.stdout
        }
        let first = reports["first run"]!
        #expect(first.count > 10_000)
        for (label, report) in reports.sorted(by: { $0.key < $1.key }) where label != "first run" {
            #expect(report == first, "\(format): the report of the \(label) differs from the first run's")
        }
    }
}
