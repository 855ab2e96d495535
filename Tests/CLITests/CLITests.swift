@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditReport
import Foundation
import TestHelpers
import Testing

private let github = "ghp_Wm3kP8qTz2Lx7Rv5Nc9Hb4Jd6Fs1Ya0UeQoX"

private func temp() -> URL { ProcessRunner.temporaryDirectory() }

private func write(_ text: String, _ name: String, in directory: URL) -> String {
    let url = directory.appendingPathComponent(name)
    try! text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

private func cli(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    TestSupport.cli(arguments)
}

/// The command line in-process: every exit code, option spellings, usage errors.
@Suite struct CLIBehaviourTests {
    @Test func exitZeroWhenClean() {
        let d = temp()
        let run = cli(["scan", write(##"{"title": "Read", "color": "#FF0000"}"##, "clean.json", in: d)])
        #expect(run.status == 0)
        #expect(run.stdout.contains("No findings in 1 input. Gate passed."))
    }

    @Test func exitOneOnFindingsAtOrAboveFailOn() {
        let d = temp()
        let file = write(#"{"note": "\#(github)"}"#, "leak.json", in: d)
        #expect(cli(["scan", file]).status == 1)
        #expect(cli(["scan", "--fail-on", "never", file]).status == 0)
        #expect(cli(["scan", "--fail-on=note", file]).status == 1)
    }

    @Test func exitTwoWhenAnInputCannotBeScanned() {
        let d = temp()
        let broken = write(#"{"a": "#, "broken.json", in: d)
        let run = cli(["scan", "--format", "json", broken])
        #expect(run.status == 2)
        #expect(run.stderr.contains("broken.json:1:7: unexpected end of input"))
        let missing = cli(["scan", d.appendingPathComponent("nope.json").path])
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("nope.json: cannot open: No such file or directory"))
        // Findings and an unreadable input together: 2 wins, the findings are still reported.
        let leak = write(#"{"note": "\#(github)"}"#, "leak.json", in: d)
        let both = cli(["scan", leak, broken])
        #expect(both.status == 2)
        #expect(both.stdout.contains("secret.github-token"))
    }

    @Test func exitTwoOnInvalidRuleFiles() {
        let d = temp()
        _ = write(#"{"rules": [{"id": "Bad Id"}]}"#, "bad.json", in: d)
        let run = cli(["scan", "--rules", d.path, write("{}", "x.json", in: temp())])
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.json"))
    }

    @Test(arguments: [
        (["scan"], "missing a path to scan"),
        (["scan", "--format", "xml", "x"], "invalid value 'xml' for '--format' (expected one of: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))"),
        (["scan", "--bogus", "x"], "unknown option '--bogus'"),
        (["scan", "--output"], "missing value for '--output'"),
        (["scan", "--jobs", "0", "x"], "invalid value '0' for '--jobs'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "missing command"),
        (["rules"], "missing subcommand"),
        (["scan", "-", "-"], "stdin ('-') can be scanned only once"),
    ])
    func usageErrorsExit64WithAHint(_ arguments: [String], _ message: String) {
        let run = cli(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: "))
        #expect(run.stderr.contains(message))
        #expect(run.stderr.contains("--help' for usage."))
        #expect(run.stdout.isEmpty)
    }

    @Test func helpAndVersionGoToStdoutWithExitZero() {
        for arguments in [["--help"], ["-h"], ["help"], ["scan", "--help"], ["help", "scan"], ["rules", "--help"], ["--version"]] {
            let run = cli(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(!run.stdout.isEmpty && run.stderr.isEmpty, "\(arguments)")
        }
        #expect(cli(["--version"]).stdout == "habiter-audit \(ToolInfo.version)\n")
        #expect(cli(["scan", "--help"]).stdout.contains("--fail-on <level>"))
    }

    @Test func optionSpellings() {
        let d = temp()
        let file = write(#"{"note": "\#(github)"}"#, "leak.json", in: d)
        let a = cli(["scan", "--format=json", file]).stdout
        let b = cli(["scan", "-f", "json", file]).stdout
        let c = cli(["scan", "--format", "json", "--", file]).stdout
        #expect(a == b && b == c && a.contains("\"reportFormat\": 1"))
    }

    @Test func outputFileAndSummaryOnStderr() throws {
        let d = temp()
        let file = write(#"{"note": "\#(github)"}"#, "leak.json", in: d)
        let report = d.appendingPathComponent("out.sarif").path
        let run = cli(["scan", "--format", "sarif", "-o", report, file])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("1 finding (1 error)"))
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("\"version\": \"2.1.0\""))
        #expect(cli(["scan", "-q", "-f", "sarif", "-o", report, file]).stderr.isEmpty)
    }

    @Test func userRulesAddAndOverride() {
        let rules = temp()
        _ = write("""
        {"rules": [{
          "id": "secret.habiter-internal-key", "kind": "pattern", "title": "Habiter internal key",
          "description": "An internal service key.", "help": "Rotate it.", "level": "warning", "family": "secret",
          "securitySeverity": 5.0, "tags": ["security"], "keywords": ["hbk_"],
          "pattern": "(?<secret>hbk_[a-z0-9]{16})", "examples": ["hbk_0123456789abcdef", "key hbk_fedcba9876543210"],
          "counterExamples": ["hbk_short", "xbk_0123456789abcdef"]
        }, {
          "id": "secret.github-token", "kind": "pattern", "title": "GitHub token (overridden)",
          "description": "Overridden.", "help": "Overridden.", "level": "note", "family": "secret",
          "securitySeverity": 1.0, "tags": ["security"], "keywords": ["ghp_"],
          "pattern": "(?<secret>ghp_[A-Za-z0-9]{36})", "examples": ["\(github)", "token \(github)"], "counterExamples": ["ghp_", "ghp_short"]
        }]}
        """, "extra.json", in: rules)
        let d = temp()
        let file = write(#"{"a": "hbk_0123456789abcdef", "b": "\#(github)"}"#, "x.json", in: d)
        let run = cli(["scan", "--rules", rules.path, "--format", "json", file])
        #expect(run.status == 0, "both findings are below --fail-on error")
        #expect(run.stdout.contains("\"ruleId\": \"secret.habiter-internal-key\""))
        #expect(run.stdout.contains("GitHub token (overridden)"))
        let only = cli(["rules", "list", "--no-builtin-rules", "--rules", rules.path])
        #expect(only.stdout.hasSuffix("2 rules.\n"))
        #expect(cli(["rules", "test", "--rules", rules.path]).status == 0)
    }

    @Test func rulesTestFailsOnABadExample() {
        let rules = temp()
        _ = write("""
        {"rules": [{
          "id": "secret.wrong", "kind": "pattern", "title": "Wrong", "description": "d", "help": "h", "level": "error",
          "family": "secret", "securitySeverity": 5.0, "tags": [], "keywords": ["zz_"], "pattern": "(?<secret>zz_[0-9]{4})",
          "examples": ["zz_12"], "counterExamples": ["zz_1234"]
        }]}
        """, "wrong.json", in: rules)
        let run = cli(["rules", "test", "--no-builtin-rules", "--rules", rules.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL secret.wrong"))
        #expect(run.stdout.contains("example 1 does not match"))
        #expect(run.stdout.contains("counter-example 1 matches"))
    }

    @Test func rulesListJSON() throws {
        let run = cli(["rules", "list", "--format", "json"])
        let list = try JSONValue.parse(Array(run.stdout.utf8)).value.arrayElements ?? []
        #expect(list.count == TestSupport.builtinPackCount)
    }
}

/// The built binary, as CI and users run it: a real process, real stdin and exit statuses.
/// `habiter-audit inventory`: the inventory in every format, each complete.
@Suite struct InventoryCommandTests {
    @Test func jsonListsEveryStoreSettingAndVerdict() throws {
        let run = cli(["inventory", "--format", "json"])
        #expect(run.status == 0)
        let root = try JSONValue.parse(Array(run.stdout.utf8)).value
        let inventory = try RulePack.load().inventory
        #expect(root["stores"]?.arrayElements?.count == inventory.stores.count)
        #expect(root["settings"]?.arrayElements?.count == 15)
        #expect(root["stores"]?.arrayElements?.first { $0.value["id"]?.stringValue == "classly_token" }?.value["classes"]?.arrayElements?
            .map { $0.value.stringValue } == ["sensitive"])
        #expect(root["verdicts"]?["device-local"]?["sync"]?.stringValue == "error")
        #expect(root["settings"]?.arrayElements?.first { $0.value["key"]?.stringValue == "reminders.quietHours" }?.value["default"]?
            .arrayElements?.isEmpty == true)
    }

    @Test func textAndMarkdownNameEveryStoreAndSetting() throws {
        let inventory = try RulePack.load().inventory
        let text = cli(["inventory"]).stdout
        let markdown = cli(["inventory", "-f", "markdown"]).stdout
        for store in inventory.stores {
            #expect(text.contains("  \(store.id)\n"), "\(store.id)")
            #expect(markdown.contains("| `\(store.id)`"), "\(store.id)")
        }
        for setting in inventory.settings {
            #expect(text.contains("  \(setting.key) "))
            #expect(markdown.contains("| `\(setting.key)` |"))
        }
        #expect(text.hasSuffix("\(inventory.stores.count) stores, 15 settings.\n"))
        // Every table row has as many cells as its header: pipes inside cells are escaped.
        var columns = 0
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.replacingOccurrences(of: "\\|", with: "").split(separator: "|", omittingEmptySubsequences: false).count
            if line.hasPrefix("| Store") || line.hasPrefix("| Key") || line.hasPrefix("| Class") { columns = cells }
            #expect(cells == columns, "\(line)")
        }
    }

    @Test func usageErrors() {
        #expect(cli(["inventory", "--format", "sarif"]).status == 64)
        #expect(cli(["inventory", "extra"]).status == 64)
        #expect(cli(["inventory", "--help"]).stdout.contains("USAGE: habiter-audit inventory"))
    }
}

@Suite struct BinaryTests {
    static let binary: String? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("habiter-audit").path,
            TestSupport.repoRoot.appendingPathComponent(".build/debug/habiter-audit").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    @Test func stdinAndExitStatus() throws {
        let binary = try #require(Self.binary, "the habiter-audit binary is built by swift build / swift test")
        let leak = Data(#"{"note": "\#(github)"}"#.utf8)
        let run = try TestSupport.run(binary, ["scan", "-"], stdin: leak)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("-\n"))
        #expect(!run.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        let clean = try TestSupport.run(binary, ["scan", "--input-format", "ndjson", "-"], stdin: Data("{\"a\":1}\n{\"b\":2}\n".utf8))
        #expect(clean.status == 0)
        let usage = try TestSupport.run(binary, ["scan", "--nope"])
        #expect(usage.status == 64)
        let broken = try TestSupport.run(binary, ["scan", "-"], stdin: Data("{".utf8))
        #expect(broken.status == 2)
        #expect(broken.stdout.contains("-:1:2: unexpected end of input"))
    }

    @Test func worksFromAnyDirectory() throws {
        let binary = try #require(Self.binary)
        let run = try TestSupport.run("/bin/sh", ["-c", "cd / && '\(binary)' rules list"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("secret.github-token"))
    }
}

/// Where a report goes (issue 18): a write that fails is exit status 2 with a message, whether
/// to a file, stdout or stderr; and a report or baseline never overwrites what is scanned.
@Suite struct ReportOutputTests {
    static let binary = BinaryTests.binary

    /// Whether `/dev/full` (a device every write to fails on) is there.
    static let hasDevFull = FileManager.default.fileExists(atPath: "/dev/full")

    /// Runs the binary through `sh`, with `redirect` appended (`> /dev/full`).
    static func shell(_ arguments: [String], _ redirect: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try #require(binary, "the habiter-audit binary is built by swift build / swift test")
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try TestSupport.run("/bin/sh", ["-c", "\(quoted) \(redirect)"])
    }

    @Test(.enabled(if: ReportOutputTests.hasDevFull, "this system has no /dev/full"), arguments: ["text", "json", "sarif", "github", "html"])
    func aReportThatCannotBeWrittenToStdoutIsExitTwo(_ format: String) throws {
        let directory = ProcessRunner.temporaryDirectory()
        let clean = directory.appendingPathComponent("clean.json")
        try Data(#"{"habits": []}"#.utf8).write(to: clean)
        let run = try Self.shell(["scan", "--no-config", "--format", format, clean.path], "> /dev/full")
        #expect(run.status == ExitStatus.inputError, "\(format): exit \(run.status)")
        #expect(run.stderr.contains("cannot write to stdout"), "\(run.stderr)")
        let file = try Self.shell(["scan", "--no-config", "--format", format, "-o", "/dev/full", clean.path], "")
        #expect(file.status == ExitStatus.inputError)
    }

    @Test(.enabled(if: ReportOutputTests.hasDevFull, "this system has no /dev/full"))
    func messagesThatCannotBeWrittenToStderrAreExitTwo() throws {
        let directory = ProcessRunner.temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.json")
        try Data(#"{"a": "#.utf8).write(to: broken)
        // With a JSON report on stdout, the input error is written to stderr too.
        let run = try Self.shell(["scan", "--no-config", "--format", "json", broken.path], "2> /dev/full")
        #expect(run.status == ExitStatus.inputError)
        let usage = try Self.shell(["scan", "--no-such-option"], "2> /dev/full")
        #expect(usage.status == ExitStatus.inputError, "a usage message lost is exit 2, not 64")
    }

    @Test func theOutputMayNotBeAnInputOrInsideAScannedDirectory() throws {
        let directory = ProcessRunner.temporaryDirectory()
        let input = directory.appendingPathComponent("capture.json")
        let original = Data(#"{"note": "\#(github)"}"#.utf8)
        try original.write(to: input)
        let inside = directory.appendingPathComponent("report.sarif").path
        let link = directory.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        defer { try? FileManager.default.removeItem(at: link) }
        for (command, output, inputs) in [("scan", input.path, [input.path]),
                                          ("scan", input.path, [directory.path]),
                                          ("scan", inside, [directory.path]),
                                          ("scan", link.appendingPathComponent("report.sarif").path, [directory.path]),
                                          ("scan", inside, [link.path]),
                                          ("baseline", input.path, [input.path]),
                                          ("baseline", inside, [directory.path])] {
            let run = TestSupport.cli([command, "--no-config", "-o", output] + inputs)
            #expect(run.status == ExitStatus.usage, "\(command) -o \(output) \(inputs): exit \(run.status)")
            #expect(run.stderr.contains("is an input") || run.stderr.contains("which is scanned"), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: input) == original, "the input is untouched")
        #expect(!FileManager.default.fileExists(atPath: inside))
        // Beside the scanned file, not inside a scanned directory: written.
        let beside = directory.appendingPathComponent("beside.sarif").path
        #expect(TestSupport.cli(["scan", "--no-config", "--format", "sarif", "-o", beside, input.path]).status == ExitStatus.findings)
    }
}
