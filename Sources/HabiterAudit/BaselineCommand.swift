import AuditBytes
import AuditCore
import AuditTriage
import Foundation

/// `habiter-audit baseline PATH... -o FILE`: accepts every finding of a scan, so that later
/// scans with `--baseline FILE` fail only on new ones.
enum BaselineCommand {
    static let specs: [OptionSpec] = ScanSetup.specs + [
        OptionSpec(name: "output", short: "o", takesValue: true),
        OptionSpec(name: "quiet", short: "q", takesValue: false),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "baseline")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.baseline + "\n")
            return ExitStatus.pass
        }
        guard let output = parsed.value("output") else {
            throw UsageError(message: "missing '-o FILE' (where to write the baseline)", command: "baseline")
        }
        guard var setup = try ScanSetup.make(parsed, command: "baseline", environment) else { return ExitStatus.inputError }
        let salt = ValueDigester.randomSalt()
        setup.options.valueDigester = ValueDigester(salt: salt)
        let quiet = parsed.flags.contains("quiet")
        var result = setup.scan(progress: ProgressReporter.forTerminal(setup.items, quiet: quiet, environment: environment))
        // Findings the allowlist accepts stay out: when an entry expires, they fail the gate again.
        Triage.apply(to: &result, allowlist: setup.configuration?.allowlist, baseline: nil, baselineSource: "",
                     today: Triage.today(environment.variables), currentDirectory: FileManager.default.currentDirectoryPath)
        guard result.errors.isEmpty else {
            for error in result.errors { environment.writeErr("error: \(error)\n") }
            environment.writeErr("Error: not every input could be scanned; no baseline written.\n")
            return ExitStatus.inputError
        }
        let accepted = result.findings.filter(\.isActive)
        let baseline = Baseline(salt: salt, findings: accepted)
        if let failure = ScanCommand.write(to: output, { sink in BaselineFile.write(baseline, to: sink) }) {
            environment.writeErr("Error: cannot write the baseline to '\(output)': \(failure)\n")
            return ExitStatus.inputError
        }
        if !quiet {
            environment.writeErr("Baseline of \(accepted.count) finding\(accepted.count == 1 ? "" : "s") in \(result.artifacts.count) input\(result.artifacts.count == 1 ? "" : "s") written to \(output).\n")
        }
        return ExitStatus.pass
    }
}
