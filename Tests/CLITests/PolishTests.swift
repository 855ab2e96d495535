@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditRedact
import Foundation
@testable import HabiterAudit
import TestHelpers
import Testing

private let github = "ghp_Wm3kP8qTz2Lx7Rv5Nc9Hb4Jd6Fs1Ya0UeQoX"

private func write(_ text: String, _ name: String, in directory: URL) -> String {
    let url = directory.appendingPathComponent(name)
    try! text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// Wording and layout found while trying the tool as a new user would (issue 22, items 5 and 7).
@Suite struct PolishTests {
    // MARK: redact's summary line

    static func result(replacements: [String: Int], policy: Int) -> RedactionResult {
        RedactionResult(output: [], format: "json", replacements: replacements, rounds: replacements.isEmpty ? 0 : 1, policyFindings: policy)
    }

    @Test func redactSummarySaysWhatTheCopyStillReports() {
        let clean = RedactCommand.summary(Self.result(replacements: ["secret.jwt": 2], policy: 0), input: "a.json", output: "b.json")
        #expect(clean == "Redacted 2 values in 'a.json' (json): secret.jwt 2; wrote 'b.json'; it scans clean.")
        let one = RedactCommand.summary(Self.result(replacements: ["secret.jwt": 1], policy: 1), input: "a.json", output: "-")
        #expect(one == "Redacted 1 value in 'a.json' (json): secret.jwt 1; wrote stdout; it scans clean of secret and transport "
            + "findings (1 policy finding remains: a contract verdict, not a leak).")
        let nothing = RedactCommand.summary(Self.result(replacements: [:], policy: 3), input: "a.json", output: "b.json")
        #expect(nothing == "No secret or transport values in 'a.json' (json); wrote an identical copy to 'b.json' "
            + "(3 policy findings remain: contract verdicts, not leaks).")
    }

    @Test func redactCountsThePolicyVerdictsOfASyncDocument() {
        let d = ProcessRunner.temporaryDirectory()
        // A push body: the token is redacted; the empty apiKey is a policy verdict and stays.
        let input = write(#"{"operations": [{"entityType": "habit", "entityId": "habit/h1", "deleted": false, "#
            + #""document": {"payload": {"name": "Run", "apiKey": "", "note": "token \#(github)"}}}]}"#, "push.json", in: d)
        let output = d.appendingPathComponent("push.redacted.json").path
        let run = TestSupport.cli(["redact", input, "-o", output])
        #expect(run.status == 0)
        #expect(run.stderr.contains("secret.github-token 1; wrote '\(output)'; it scans clean of secret and transport findings ("))
        #expect(run.stderr.contains("policy findings remain: contract verdicts, not leaks)."))
        #expect(!run.stderr.contains(github))
        let rescan = TestSupport.cli(["scan", "--no-config", "--format", "json", output])
        #expect(rescan.stdout.contains("\"family\": \"policy\""))
        #expect(!rescan.stdout.contains("\"family\": \"secret\"") && !rescan.stdout.contains("\"family\": \"transport\""))
    }

    // MARK: rules

    @Test func rulesListHasAHeaderAndColumnsSizedToTheirContent() throws {
        let lines = TestSupport.cli(["rules", "list"]).stdout.split(separator: "\n").map { Array($0) }
        let pack = try RulePack.load()
        let columns: [(String, [String])] = [
            ("ID", pack.rules.map(\.id)), ("KIND", pack.rules.map(\.kind.rawValue)),
            ("LEVEL", pack.rules.map(\.level.rawValue)), ("FAMILY", pack.rules.map(\.family.rawValue)),
        ]
        var starts = [0]
        for (title, cells) in columns { starts.append(starts.last! + max(title.count, cells.map(\.count).max()!) + 2) }
        #expect(String(lines[0]) == "ID".padding(toLength: starts[1]) + "KIND".padding(toLength: starts[2] - starts[1])
            + "LEVEL".padding(toLength: starts[3] - starts[2]) + "FAMILY".padding(toLength: starts[4] - starts[3]) + "TITLE")
        // Every row's cells start where the header's do, two spaces after the widest cell above.
        for line in lines.dropLast() {
            for start in starts.dropFirst() {
                #expect(line.count > start && line[start - 1] == " " && line[start] != " ", "misaligned: \(String(line))")
            }
        }
        #expect(String(lines.last!) == "\(pack.rules.count) rules.")
    }

    @Test func rulesTestCountsInTheSingular() {
        let rules = ProcessRunner.temporaryDirectory()
        _ = write("""
        {"rules": [{
          "id": "secret.single", "kind": "pattern", "title": "Single", "description": "d", "help": "h", "level": "error",
          "family": "secret", "securitySeverity": 5.0, "tags": [], "keywords": ["zz_"], "pattern": "(?<secret>zz_[0-9]{4})",
          "examples": ["zz_1234"], "counterExamples": ["zz_12"]
        }]}
        """, "single.json", in: rules)
        let run = TestSupport.cli(["rules", "test", "--no-builtin-rules", "--rules", rules.path])
        #expect(run.stdout.contains("secret.single (1 example, 1 counter-example)"))
        #expect(run.stdout.contains("1 rule "))
    }

    // MARK: "cannot read" says why

    @Test func everyCannotReadSaysWhy() {
        let d = ProcessRunner.temporaryDirectory()
        let input = write(#"{"a": 1}"#, "in.json", in: d)
        let missing = d.appendingPathComponent("missing").path
        let cases: [([String], String)] = [
            (["scan", "--baseline", missing, input], "\(missing): cannot read the baseline: No such file or directory"),
            (["scan", "--config", missing, input], "\(missing): cannot read the configuration file: No such file or directory"),
            (["scan", "--rules", missing, input], "\(missing): cannot read the rules directory: No such file or directory"),
            (["scan", "--rules", input, input], "\(input): cannot read the rules directory: Not a directory"),
            (["merge", missing], "cannot read '\(missing)': No such file or directory"),
            (["merge", d.path], "cannot read '\(d.path)': Is a directory"),
        ]
        for (arguments, message) in cases {
            let run = TestSupport.cli(arguments)
            #expect(run.status == ExitStatus.inputError, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func anUnreadableRuleFileSaysWhy() throws {
        let rules = ProcessRunner.temporaryDirectory()
        try FileManager.default.createDirectory(at: rules.appendingPathComponent("dir.json"), withIntermediateDirectories: true)
        let run = TestSupport.cli(["rules", "list", "--rules", rules.path])
        #expect(run.stderr.contains("dir.json: cannot read the rule file: Is a directory"))
    }
}
