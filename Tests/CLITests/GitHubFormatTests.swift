@testable import AuditCore
import Foundation
import TestHelpers
import Testing

/// `scan --format github` from the binary, run in a directory of its own (as in a GitHub Actions
/// step at the checkout root): workflow commands with workspace-relative paths, the exit codes
/// of the gate, nothing on stderr that the report already says.
@Suite struct GitHubFormatTests {
    @Test func annotationsAndExitCodes() throws {
        let binary = try #require(BinaryTests.binary, "the habiter-audit binary is built by swift build / swift test")
        let directory = ProcessRunner.temporaryDirectory()
        let token = "ghp_" + "Wm3kP8qTz2Lx7Rv5Nc9Hb4Jd6Fs1Ya0UeQoX"
        try #"{"note": "deploy, with \#(token)"}"#.write(to: directory.appendingPathComponent("leak.json"), atomically: true, encoding: .utf8)
        try "{\"a\":".write(to: directory.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        func scan(_ arguments: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try TestSupport.run("/bin/sh", ["-c", "cd '\(directory.path)' && '\(binary)' scan --format github \(arguments)"])
        }

        let run = try scan(".")
        #expect(run.status == ExitStatus.inputError)
        #expect(run.stderr.isEmpty, "input errors are in the report already")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "one command per finding and per input error, the summary line, the final newline")
        #expect(lines.first?.hasPrefix("::error file=leak.json,line=1,col=10,title=secret.github-token::GitHub token under 'note'") == true)
        #expect(lines.first?.hasSuffix(" (/note)") == true)
        #expect(lines.dropFirst().first == "::error file=broken.json,line=1,col=6,title=input.parse::Could not scan this input (the gate fails closed): unexpected end of input")
        #expect(lines.dropFirst(2).first?.hasPrefix("1 finding (1 error) in 1 of 2 inputs; 1 input error") == true)
        #expect(!run.stdout.contains(token))

        let broken = try scan("--fail-on never broken.json")
        #expect(broken.status == ExitStatus.inputError, "--fail-on never does not hide an input error")
        let leak = try scan("--fail-on never ./leak.json")
        #expect(leak.status == ExitStatus.pass)
        #expect(leak.stdout.hasPrefix("::error file=leak.json,"), "the annotations do not depend on --fail-on; ./ is dropped")
        #expect(try scan("leak.json").status == ExitStatus.findings)

        // A finding the baseline accepts is not annotated; the summary counts it.
        let baseline = try TestSupport.run("/bin/sh", ["-c", "cd '\(directory.path)' && '\(binary)' baseline -q leak.json -o baseline.json"])
        #expect(baseline.status == ExitStatus.pass, "\(baseline.stderr)")
        let accepted = try scan("--baseline baseline.json leak.json")
        #expect(accepted.status == ExitStatus.pass)
        #expect(!accepted.stdout.contains("::"), "no annotation for an accepted finding")
        #expect(accepted.stdout.contains("(1 more accepted)"))
    }
}
