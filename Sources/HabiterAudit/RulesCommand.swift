import AuditCore
import AuditDetection
import AuditReport
import AuditScan

/// `habiter-audit rules list` and `habiter-audit rules test`.
enum RulesCommand {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "rules", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "no-builtin-rules", short: nil, takesValue: false),
        OptionSpec(name: "format", short: "f", takesValue: true),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    enum ListFormat: String, CaseIterable { case text, json }

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "rules")
        if parsed.flags.contains("help") || parsed.positionals.first == "help" {
            environment.writeOut(HelpText.rules + "\n")
            return ExitStatus.pass
        }
        guard let action = parsed.positionals.first, parsed.positionals.count == 1 else {
            throw UsageError(message: parsed.positionals.isEmpty ? "missing subcommand (list, test)" : "too many arguments", command: "rules")
        }
        guard action == "list" || action == "test" else {
            throw UsageError(message: "unknown subcommand '\(action)' (expected list or test)", command: "rules")
        }
        let format: ListFormat = try choice(parsed.value("format"), option: "format", command: "rules", default: .text)
        guard let pack = loadRules(parsed, environment) else { return ExitStatus.inputError }
        if action == "list" {
            environment.writeOut(format == .json ? listJSON(pack) : listText(pack))
            return ExitStatus.pass
        }
        let outcomes = RuleTester.run(pack)
        var text = ""
        for outcome in outcomes {
            let counts = "\(outcome.exampleCount) example\(outcome.exampleCount == 1 ? "" : "s"), "
                + "\(outcome.counterExampleCount) counter-example\(outcome.counterExampleCount == 1 ? "" : "s")"
            text += "\(outcome.passed ? "ok  " : "FAIL") \(outcome.ruleId) (\(counts))\n"
            for problem in outcome.problems { text += "     \(outcome.source): \(problem)\n" }
        }
        let failed = outcomes.filter { !$0.passed }.count
        let rules = "\(outcomes.count) rule\(outcomes.count == 1 ? "" : "s")"
        text += failed == 0 ? "\(rules) passed.\n" : "\(failed) of \(rules) failed.\n"
        environment.writeOut(text)
        return failed == 0 ? ExitStatus.pass : ExitStatus.findings
    }

    /// The pack `--rules` and `--no-builtin-rules` ask for; nil (after saying why on stderr) when
    /// a rule file is invalid.
    static func loadRules(_ parsed: ParsedArguments, _ environment: CLIEnvironment) -> RulePack? {
        do {
            return try RulePack.load(builtin: !parsed.flags.contains("no-builtin-rules"), directories: parsed.values["rules"] ?? [])
        } catch {
            environment.writeErr("Error: invalid rules: \(error)\n")
            return nil
        }
    }

    /// One row per rule under a header row, each column as wide as its widest cell.
    static func listText(_ pack: RulePack) -> String {
        let header = ["ID", "KIND", "LEVEL", "FAMILY", "TITLE"]
        let rows = pack.rules.map { rule in
            [DisplayText.escaped(rule.id), rule.kind.rawValue, rule.level.rawValue, rule.family.rawValue, DisplayText.escaped(rule.title)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        var text = ""
        for row in [header] + rows {
            let cells = zip(row, widths).dropLast().map { $0.padding(toLength: $1 + 2) } + [row[row.count - 1]]
            text += cells.joined() + "\n"
        }
        return text + "\(pack.rules.count) rule\(pack.rules.count == 1 ? "" : "s").\n"
    }

    static func listJSON(_ pack: RulePack) -> String {
        JSONOutput.array(pack.rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("kind", .string(rule.kind.rawValue)),
                ("level", .string(rule.level.rawValue)),
                ("family", .string(rule.family.rawValue)),
                ("securitySeverity", .string(SARIFReport.formatSeverity(rule.securitySeverity))),
                ("title", .string(rule.title)),
                ("tags", .array(rule.tags.map(JSONOutput.string))),
                ("source", .string(rule.source)),
            ])
        }).rendered()
    }
}
