@testable import AuditCore
@testable import AuditReport
import Foundation
@testable import HabiterAudit
import Testing

/// The help texts and the manual page made from them: every command has a help page with
/// examples that documents each of its options, `--help` prints exactly that page, and the
/// committed docs/habiter-audit.1 is what `help --man` renders now (like the embedded-rules test).
@Suite struct HelpAndManPageTests {
    static let manPage = TestSupport.repoRoot.appendingPathComponent("docs/habiter-audit.1")

    /// The command names the overview lists under COMMANDS (`rules list` → `rules`).
    static var commandsInOverview: [String] {
        var names: [String] = []
        var inCommands = false
        for block in ManPage.parse(HelpText.overview) {
            switch block {
            case .heading(let name): inCommands = name == "COMMANDS"
            case .entry(let term, _) where inCommands:
                let name = String(term.split(separator: " ")[0])
                if !names.contains(name) { names.append(name) }
            default: break
            }
        }
        return names
    }

    @Test func everyCommandInTheOverviewHasAHelpPage() {
        let commands = Self.commandsInOverview
        for command in ["scan", "rules", "inventory", "help"] { #expect(commands.contains(command)) }
        let pages = HelpText.pages.map(\.command)
        #expect(pages.first == "", "the overview comes first")
        for command in commands where command != "help" {
            #expect(pages.contains(command), "'\(command)' is listed in the overview but has no page in HelpText.pages: append (\"\(command)\", \(command))")
        }
        #expect(Set(pages).count == pages.count, "a page is listed twice in HelpText.pages")
    }

    @Test func helpPrintsExactlyThePage() {
        for page in HelpText.pages {
            let arguments = page.command.isEmpty ? ["--help"] : [page.command, "--help"]
            let run = TestSupport.runCLI(arguments)
            #expect(run.status == ExitStatus.pass, "\(arguments)")
            #expect(run.stdout == page.text + "\n", "'habiter-audit \(arguments.joined(separator: " "))' does not print HelpText.pages[\"\(page.command)\"]")
            if !page.command.isEmpty {
                #expect(TestSupport.runCLI(["help", page.command]).stdout == run.stdout)
            }
        }
        #expect(TestSupport.runCLI(["rules", "list", "--help"]).stdout == HelpText.rules + "\n")
        #expect(TestSupport.runCLI(["rules", "test", "--help"]).stdout == HelpText.rules + "\n")
    }

    @Test func everyPageHasAUsageAndExamples() {
        for page in HelpText.pages {
            let headings = ManPage.parse(page.text).compactMap { block -> String? in
                if case .heading(let name) = block { return name } else { return nil }
            }
            #expect(headings.first == "OVERVIEW", "page '\(page.command)'")
            #expect(headings.contains("USAGE"), "page '\(page.command)' has no USAGE")
            #expect(headings.contains("EXAMPLES"), "page '\(page.command)' has no EXAMPLES")
            for line in page.text.split(separator: "\n") {
                #expect(line.count <= 100, "page '\(page.command)': a line longer than 100 columns: \(line)")
            }
        }
    }

    /// The options each command parses; a new command adds its own here.
    static let optionSpecs: [String: [OptionSpec]] = [
        "scan": ScanCommand.specs,
        "rules": RulesCommand.specs,
        "inventory": InventoryCommand.specs,
    ]

    @Test(arguments: ["scan", "rules", "inventory"])
    func everyOptionIsDocumented(_ command: String) throws {
        let specs = try #require(Self.optionSpecs[command])
        let text = try #require(HelpText.pages.first { $0.command == command }?.text)
        for spec in specs {
            #expect(text.contains("--\(spec.name)"), "'habiter-audit \(command) --help' does not mention --\(spec.name)")
            if let short = spec.short {
                #expect(text.contains("-\(short), --\(spec.name)"), "'habiter-audit \(command) --help' does not give -\(short) for --\(spec.name)")
            }
        }
    }

    @Test func scanHelpListsEveryReportFormat() {
        let formats = ReportFormat.allCases.map(\.rawValue)
        let line = HelpText.scan.split(separator: "\n").drop { !$0.contains("--format <format>") }.prefix(2).joined(separator: " ")
        for format in formats { #expect(line.contains(format), "--format \(format) is missing from the scan help") }
    }

    @Test func committedManPageIsUpToDate() throws {
        let committed = try String(contentsOf: Self.manPage, encoding: .utf8)
        #expect(committed == ManPage.render(), "docs/habiter-audit.1 is stale: run scripts/make-man")
    }

    @Test func helpManPrintsTheManPage() {
        let run = TestSupport.runCLI(["help", "--man"])
        #expect(run.status == ExitStatus.pass)
        #expect(run.stdout == ManPage.render())
        #expect(run.stderr.isEmpty)
    }

    @Test func manPageHasEveryPageAndEveryEntry() {
        let page = ManPage.render()
        #expect(page.hasPrefix(".\\\" Generated by"))
        #expect(page.contains(".TH HABITER\\-AUDIT 1 \"\" \"habiter\\-audit \(ToolInfo.version)\" \"User Commands\"\n"))
        #expect(page.contains(".SH NAME\nhabiter\\-audit \\- Privacy and secret\\-leak audit for Habiter's Personal Sync data, preferences, backups and request captures\n"))
        #expect(page.contains(".SH \"SYNOPSIS\"\n"))
        for help in HelpText.pages where !help.command.isEmpty {
            #expect(page.contains(".SH \"HABITER\\-AUDIT \(help.command.uppercased())\"\n"))
            for case .entry(let term, _) in ManPage.parse(help.text) {
                #expect(page.contains(".TP\n\\fB\(ManPage.escape(term))\\fR\n"), "\(help.command): \(term)")
            }
        }
        #expect(!page.contains("\t"))
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII text is escaped as \\[uXXXX]")
    }

    @Test func rendererEscapesRoffAndParsesTheLayout() {
        let help = """
        OVERVIEW: Does things.

        USAGE: tool thing [--x]
               tool thing --y

        'thing' is quoted; .dotted
        and \\backslashed… text.

        OPTIONS:
          -x, --x <n>   First line
                        second line.
          --flag
                        Described below its term.

        After the options.

        EXAMPLES:
          tool thing --x 1      # comment
        """
        #expect(ManPage.parse(help) == [
            .heading("OVERVIEW"), .paragraph(["Does things."]),
            .heading("USAGE"), .verbatim(["tool thing [--x]", "tool thing --y"]),
            .heading("DESCRIPTION"), .paragraph(["'thing' is quoted; .dotted", "and \\backslashed… text."]),
            .heading("OPTIONS"),
            .entry(term: "-x, --x <n>", description: ["First line", "second line."]),
            .entry(term: "--flag", description: ["Described below its term."]),
            .heading("DESCRIPTION"), .paragraph(["After the options."]),
            .heading("EXAMPLES"), .verbatim(["tool thing --x 1      # comment"]),
        ])
        let roff = ManPage.render(pages: [("thing", help)], version: "9.9")
        #expect(roff.contains(".SH \"HABITER\\-AUDIT THING\"\n.PP\nDoes things.\n.SS \"USAGE\"\n.PP\n.RS 4\n.nf\ntool thing [\\-\\-x]\ntool thing \\-\\-y\n.fi\n.RE\n"))
        #expect(roff.contains("\\&'thing' is quoted; .dotted\nand \\ebackslashed\\[u2026] text.\n"))
        #expect(roff.contains(".TP\n\\fB\\-x, \\-\\-x <n>\\fR\nFirst line\nsecond line.\n"))
        #expect(roff.contains("\"habiter\\-audit 9.9\""))
        #expect(ManPage.line(".starts with a dot") == "\\&.starts with a dot\n")
    }

    @Test func longTermsWrapOrLeaveOneSpace() {
        let help = """
        OPTIONS:
          -o, --output <file>     Where to write.
          --first, --second,
          --third                 As for scan;
                                  and more.
          --a-very-long-option-xy Described at the column.
          --x y                   Ordinary.
        """
        #expect(ManPage.parse(help) == [
            .heading("OPTIONS"),
            .entry(term: "-o, --output <file>", description: ["Where to write."]),
            .entry(term: "--first, --second, --third", description: ["As for scan;", "and more."]),
            .entry(term: "--a-very-long-option-xy", description: ["Described at the column."]),
            .entry(term: "--x y", description: ["Ordinary."]),
        ])
    }

    @Test(.enabled(if: TestSupport.which("groff") != nil, "groff is not installed; the man page was not rendered (apt-get install groff)"))
    func manPageRendersWithoutWarnings() throws {
        let groff = try #require(TestSupport.which("groff"))
        let file = TestSupport.temporaryDirectory().appendingPathComponent("habiter-audit.1")
        try ManPage.render().write(to: file, atomically: true, encoding: .utf8)
        // -ww: every warning; -z: discard the output, keep the diagnostics.
        let run = try TestSupport.run(groff, ["-man", "-Tutf8", "-ww", "-z", file.path])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "groff warns about the man page: \(run.stderr)")
        // Hyphens may render as U+2010 or minus signs as U+2212, depending on the groff set-up.
        let text = try TestSupport.run(groff, ["-man", "-Tutf8", "-P-c", "-P-b", "-P-u", file.path]).stdout
            .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
        #expect(text.contains("habiter-audit scan [options] <path>..."))
        #expect(text.contains("--fail-on <level>"))
    }
}
