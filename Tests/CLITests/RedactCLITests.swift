import Foundation
@testable import HabiterAudit
import TestHelpers
import Testing

/// Fake, format-valid secrets (see Tests/HabiterAuditTests/Redact/RedactTestSupport.swift).
private let githubToken = "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"
private let jwtToken = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIiwiaWF0IjoxNzY0NTQ3MjAwfQ.Xp3X2mV6YH4mQ1fJ8u3mWkzQbqRv6NnTq9t2cL0e7Hc"

private func directory() -> URL { ProcessRunner.temporaryDirectory() }

private func write(_ bytes: [UInt8], _ name: String, in directory: URL) -> String {
    let url = directory.appendingPathComponent(name)
    try! Data(bytes).write(to: url)
    return url.path
}

private func read(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

private func holds(_ text: String, _ needle: String) -> Bool { text.contains(needle) }

private func holds(_ bytes: [UInt8]?, _ needle: String) -> Bool {
    bytes.map { $0.firstRange(of: Array(needle.utf8)) != nil } ?? false
}

private func cli(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    TestSupport.cli(arguments)
}

private let leakyJSON = Array(#"{"note": "token \#(githubToken)", "auth": "Bearer \#(jwtToken)"}"#.utf8)
private let redactedJSON = #"{"note": "token [REDACTED:github-token]", "auth": "Bearer [REDACTED:jwt]"}"#

/// `habiter-audit redact`: exit codes, refusal to overwrite, stdin and stdout, fail-closed.
@Suite struct RedactCommandTests {
    @Test func writesTheRedactedCopyAndNeverTheInput() {
        let d = directory()
        let input = write(leakyJSON, "leak.json", in: d)
        let output = d.appendingPathComponent("leak.redacted.json").path
        let run = cli(["redact", input, "-o", output])
        #expect(run.status == 0)
        #expect(read(output) == Array(redactedJSON.utf8))
        #expect(read(input) == leakyJSON, "the input was modified")
        #expect(holds(run.stderr, "Redacted 2 values in"))
        #expect(holds(run.stderr, "secret.github-token 1, secret.jwt 1"))
        let leaked = holds(run.stderr, githubToken) || holds(run.stderr, jwtToken) || holds(run.stdout, githubToken)
        #expect(!leaked, "a message shows a secret")
    }

    @Test func refusesToOverwriteAnExistingOutputWithoutForce() {
        let d = directory()
        let input = write(leakyJSON, "leak.json", in: d)
        let existing = write(Array("keep me".utf8), "out.json", in: d)
        let refused = cli(["redact", input, "-o", existing])
        #expect(refused.status == 64)
        #expect(holds(refused.stderr, "Error: the output '\(existing)' exists (pass --force to overwrite it)"))
        #expect(read(existing) == Array("keep me".utf8))
        let forced = cli(["redact", "--force", input, "-o", existing])
        #expect(forced.status == 0)
        #expect(read(existing) == Array(redactedJSON.utf8))
    }

    @Test func refusesTheInputAsOutputWithoutForce() {
        let d = directory()
        let input = write(leakyJSON, "leak.json", in: d)
        // The same file under another spelling.
        let sameFile = d.path + "/./leak.json"
        let refused = cli(["redact", input, "-o", sameFile])
        #expect(refused.status == 64)
        #expect(holds(refused.stderr, "is the input; the input is never modified"))
        #expect(read(input) == leakyJSON)
        let forced = cli(["redact", input, "-o", input, "--force"])
        #expect(forced.status == 0)
        #expect(read(input) == Array(redactedJSON.utf8))
        // No temporary file is left behind.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: d.path)) ?? []
        #expect(entries == ["leak.json"])
    }

    @Test func failsClosedOnATruncatedInput() {
        let d = directory()
        let input = write(Array(leakyJSON.dropLast(20)), "cut.json", in: d)
        let output = d.appendingPathComponent("cut.redacted.json").path
        let run = cli(["redact", input, "-o", output])
        #expect(run.status == 2)
        #expect(holds(run.stderr, "error: \(input):1:\(leakyJSON.count - 19): unexpected end of input"))
        #expect(!FileManager.default.fileExists(atPath: output), "a copy was written for an input that does not parse")
        let leaked = holds(run.stderr, githubToken)
        #expect(!leaked)
    }

    @Test func anUnreadableInputExitsTwo() {
        let d = directory()
        let run = cli(["redact", d.appendingPathComponent("missing.har").path, "-o", d.appendingPathComponent("out.har").path])
        #expect(run.status == 2)
        #expect(holds(run.stderr, "missing.har: cannot open: No such file or directory"))
    }

    @Test(arguments: [
        (["redact"], "missing the input to redact"),
        (["redact", "a.json"], "missing '-o <file>'"),
        (["redact", "a.json", "b.json", "-o", "c.json"], "redact takes one input (got 2)"),
        (["redact", "a.json", "-o", "c.json", "--input-format", "yaml"], "invalid value 'yaml' for '--input-format'"),
        (["redact", "a.json", "-o", "c.json", "--nope"], "unknown option '--nope'"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) {
        let run = cli(arguments)
        #expect(run.status == 64)
        #expect(holds(run.stderr, message))
        #expect(holds(run.stderr, "habiter-audit redact --help"))
    }

    @Test func everyOptionIsDocumented() {
        for spec in RedactCommand.specs {
            #expect(HelpText.redact.contains("--\(spec.name)"), "'redact --help' does not mention --\(spec.name)")
            if let short = spec.short {
                #expect(HelpText.redact.contains("-\(short), --\(spec.name)"), "'redact --help' does not give -\(short)")
            }
        }
    }

    @Test func helpListsTheCommand() {
        let help = cli(["redact", "--help"])
        #expect(help.status == 0)
        #expect(holds(help.stdout, "USAGE: habiter-audit redact [options] <input> -o <output>"))
        #expect(holds(cli(["--help"]).stdout, "  redact  "))
    }
}

/// The built binary: stdin, stdout and a gzip round trip.
@Suite struct RedactBinaryTests {
    @Test func stdinToStdout() throws {
        let run = try ProcessRunner.run(ProcessRunner.binary, ["redact", "-", "-o", "-"], stdin: Data(leakyJSON))
        #expect(run.status == 0)
        #expect(run.stdout == redactedJSON)
        #expect(holds(run.stderr, "wrote stdout; it scans clean."))
        let quiet = try ProcessRunner.run(ProcessRunner.binary, ["redact", "-q", "-", "-o", "-"], stdin: Data(leakyJSON))
        #expect(quiet.stderr.isEmpty)
        let broken = try ProcessRunner.run(ProcessRunner.binary, ["redact", "-", "-o", "-"], stdin: Data("{\"a\": ".utf8))
        #expect(broken.status == 2)
        #expect(broken.stdout.isEmpty)
        #expect(holds(broken.stderr, "error: -:1:7: unexpected end of input"))
    }

    @Test func gzipInputGivesGzipOutput() throws {
        let d = directory()
        let gzip = try #require(ProcessRunner.which("gzip"), "gzip(1) is needed for this test")
        let plain = write(leakyJSON + [0x0A], "log.ndjson", in: d)
        #expect(try ProcessRunner.run(gzip, ["-k", plain]).status == 0)
        let output = d.appendingPathComponent("log.redacted.ndjson.gz").path
        let run = try ProcessRunner.run(ProcessRunner.binary, ["redact", plain + ".gz", "-o", output])
        #expect(run.status == 0)
        #expect(holds(run.stderr, "(json+gzip)"))
        let unpacked = try ProcessRunner.run(gzip, ["-dc", output])
        #expect(unpacked.status == 0, "the output is not valid gzip")
        #expect(unpacked.stdout == redactedJSON + "\n")
        // The header (name and time gzip(1) recorded) is kept.
        let before = try #require(read(plain + ".gz")), after = try #require(read(output))
        #expect(Array(before.prefix(10)) == Array(after.prefix(10)))
    }
}
