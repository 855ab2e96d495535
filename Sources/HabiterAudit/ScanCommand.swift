import AuditBytes
import AuditCore
import AuditReport
import AuditTriage
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `habiter-audit scan`.
enum ScanCommand {
    static let specs: [OptionSpec] = ScanSetup.specs + [
        OptionSpec(name: "format", short: "f", takesValue: true),
        OptionSpec(name: "output", short: "o", takesValue: true),
        OptionSpec(name: "fail-on", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "baseline", short: nil, takesValue: true),
        OptionSpec(name: "sarif-omit-suppressed", short: nil, takesValue: false),
        OptionSpec(name: "sarif-category", short: nil, takesValue: true),
        OptionSpec(name: "root", short: nil, takesValue: true),
        OptionSpec(name: "color", short: nil, takesValue: true),
        OptionSpec(name: "quiet", short: "q", takesValue: false),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    enum ColourChoice: String, CaseIterable { case auto, always, never }

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "scan")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.scan + "\n")
            return ExitStatus.pass
        }
        let format: ReportFormat = try choice(parsed.value("format"), option: "format", command: "scan", default: .text)
        let colour: ColourChoice = try choice(parsed.value("color"), option: "color", command: "scan", default: .auto)
        let quiet = parsed.flags.contains("quiet")
        guard var setup = try ScanSetup.make(parsed, command: "scan", environment) else { return ExitStatus.inputError }
        // The configuration's gate, then each --fail-on on top of it.
        var failOn = setup.configuration?.failOn ?? .error
        for value in parsed.values["fail-on"] ?? [] {
            do {
                try failOn.apply(value)
            } catch {
                throw UsageError(message: "invalid value '\(value)' for '--fail-on': \(error.reason)", command: "scan")
            }
        }

        var baseline: Baseline?
        if let path = parsed.value("baseline") {
            do {
                let bytes = try SystemFile.read(path).mapError { FileFormatError(file: path, reason: "cannot read the baseline: \($0)") }.get()
                baseline = try BaselineFile.parse(bytes, file: path)
            } catch {
                environment.writeErr("Error: invalid baseline: \(error)\n")
                return ExitStatus.inputError
            }
            setup.options.valueDigester = ValueDigester(salt: baseline!.salt)
        }
        var result = setup.scan(progress: ProgressReporter.forTerminal(setup.items, quiet: quiet, environment: environment))
        Triage.apply(to: &result, allowlist: setup.configuration?.allowlist, baseline: baseline,
                     baselineSource: parsed.value("baseline") ?? "", today: Triage.today(environment.variables),
                     currentDirectory: FileManager.default.currentDirectoryPath)
        let exitCode = Triage.exitStatus(result, failOn: failOn)
        environment.keepUntilExit((result, setup))
        let pack = setup.pack
        var input = ReportInput(result: result, rules: pack.rules, exitCode: exitCode, failOn: failOn)
        input.sarifOmitSuppressed = parsed.flags.contains("sarif-omit-suppressed")
        input.sarifCategory = parsed.value("sarif-category")
        input.sarifRoot = parsed.value("root").map { SARIFRoot($0, currentDirectory: FileManager.default.currentDirectoryPath) }
        let output = parsed.value("output")
        // The report goes to its file or stdout as it is made where the format allows: JSON and
        // SARIF can hold millions of findings, and the HTML page goes as its bytes, without a
        // string's copy.
        func writeReport(to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
            var text: String
            switch format {
            case .json: return JSONReport.write(input, writers: setup.jobs, to: sink)
            case .sarif: return SARIFReport.write(input, writers: setup.jobs, to: sink)
            case .html: return HTMLReport.write(input, to: sink)
            case .github: text = GitHubReport.render(input)
            case .text:
                let useColour = colour == .always || (colour == .auto && output == nil && environment.stdoutIsTerminal
                                                      && environment.variables["NO_COLOR"] == nil)
                text = TextReport.render(input, colour: useColour)
            }
            return text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        }
        // Errors always reach stderr, unless the text or github report on stdout already lists them.
        if (format != .text && format != .github) || output != nil {
            for error in result.errors { environment.writeErr("error: \(error)\n") }
        }
        if let output {
            if let failure = write(to: output, writeReport) {
                environment.writeErr("Error: cannot write the report to '\(output)': \(failure)\n")
                return ExitStatus.inputError
            }
            if !quiet { environment.writeErr(TextReport.summaryLine(input) + "\n") }
        } else {
            // A failed write is recorded by the environment (exit status 2).
            _ = writeReport(to: environment.writeOutPiece)
        }
        return exitCode
    }

    /// Creates or truncates the file at `path` and hands `produce` a sink that writes to it;
    /// returns the error text on failure.
    static func write(to path: String, _ produce: ((UnsafeRawBufferPointer) -> Bool) -> Bool) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var failure: String?
        let written = produce { buffer in
            failure = CLIEnvironment.writeAll(fd, buffer)
            return failure == nil
        }
        return written ? nil : failure ?? "the report could not be written"
    }
}
