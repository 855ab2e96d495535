#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `habiter-audit scan`.
enum ScanCommand {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "format", short: "f", takesValue: true),
        OptionSpec(name: "output", short: "o", takesValue: true),
        OptionSpec(name: "fail-on", short: nil, takesValue: true),
        OptionSpec(name: "context", short: nil, takesValue: true),
        OptionSpec(name: "input-format", short: nil, takesValue: true),
        OptionSpec(name: "rules", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "no-builtin-rules", short: nil, takesValue: false),
        OptionSpec(name: "max-depth", short: nil, takesValue: true),
        OptionSpec(name: "jobs", short: "j", takesValue: true),
        OptionSpec(name: "color", short: nil, takesValue: true),
        OptionSpec(name: "quiet", short: "q", takesValue: false),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    enum ColourChoice: String, CaseIterable { case auto, always, never }
    enum ContextChoice: String, CaseIterable { case auto, sync, prefs, backup, payload }

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "scan")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.scan + "\n")
            return ExitStatus.pass
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError(message: "missing a path to scan (a file, a directory or - for stdin)", command: "scan")
        }
        if parsed.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "stdin ('-') can be scanned only once", command: "scan")
        }
        let format: ReportFormat = try choice(parsed.value("format"), option: "format", command: "scan", default: .text)
        let failOn: FailThreshold = try choice(parsed.value("fail-on"), option: "fail-on", command: "scan", default: .error)
        let context: ContextChoice = try choice(parsed.value("context"), option: "context", command: "scan", default: .auto)
        let inputFormat: InputFormat = try choice(parsed.value("input-format"), option: "input-format", command: "scan", default: .auto)
        let colour: ColourChoice = try choice(parsed.value("color"), option: "color", command: "scan", default: .auto)
        let maxDepth = try positiveInteger(parsed.value("max-depth"), option: "max-depth") ?? JSONReader.defaultMaxDepth
        let jobs = try positiveInteger(parsed.value("jobs"), option: "jobs") ?? 1
        let quiet = parsed.flags.contains("quiet")

        guard let pack = RulesCommand.loadRules(parsed, environment) else { return ExitStatus.inputError }
        let options = ScanOptions(context: ScanContext(rawValue: context.rawValue), inputFormat: inputFormat, maxDepth: maxDepth)
        let result = Scanner(rules: pack, options: options).scan(paths: parsed.positionals, jobs: jobs)

        let exitCode: Int32
        if !result.errors.isEmpty {
            exitCode = ExitStatus.inputError
        } else if result.findings.contains(where: { failOn.fails($0.level) }) {
            exitCode = ExitStatus.findings
        } else {
            exitCode = ExitStatus.pass
        }
        let input = ReportInput(result: result, rules: pack.rules, exitCode: exitCode, failOn: failOn)
        let output = parsed.value("output")
        let report: String
        switch format {
        case .sarif: report = SARIFReport.render(input)
        case .json: report = JSONReport.render(input)
        case .text:
            let useColour = colour == .always || (colour == .auto && output == nil && environment.stdoutIsTerminal
                                                  && environment.variables["NO_COLOR"] == nil)
            report = TextReport.render(input, colour: useColour)
        }
        // Errors always reach stderr, unless the text report on stdout already lists them.
        if format != .text || output != nil {
            for error in result.errors { environment.writeErr("error: \(error)\n") }
        }
        if let output {
            if let failure = write(report, to: output) {
                environment.writeErr("Error: cannot write the report to '\(output)': \(failure)\n")
                return ExitStatus.inputError
            }
            if !quiet { environment.writeErr(TextReport.summaryLine(input) + "\n") }
        } else {
            environment.writeOut(report)
        }
        return exitCode
    }

    private static func positiveInteger(_ value: String?, option: String) throws(UsageError) -> Int? {
        guard let value else { return nil }
        guard let n = Int(value), n >= 1 else {
            throw UsageError(message: "invalid value '\(value)' for '--\(option)' (expected a positive integer)", command: "scan")
        }
        return n
    }

    /// Writes `text` to `path`; returns the error text on failure.
    static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var text = text
        return text.withUTF8 { buffer -> String? in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return String(cString: strerror(errno)) }
                done += n
            }
            return nil
        }
    }
}
