import AuditCore
import AuditReport
import Foundation

/// `habiter-audit merge A.sarif B.sarif -o ALL.sarif`: one SARIF log of several (the shards of
/// a scan), one run per tool and category.
enum MergeCommand {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "output", short: "o", takesValue: true),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "merge")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.merge + "\n")
            return ExitStatus.pass
        }
        guard !parsed.positionals.isEmpty else { throw UsageError(message: "missing the SARIF files to merge", command: "merge") }
        var logs: [(name: String, text: [UInt8])] = []
        for path in parsed.positionals {
            switch SystemFile.read(path) {
            case .success(let bytes): logs.append((path, bytes))
            case .failure(let failure):
                environment.writeErr("Error: cannot read '\(path)': \(failure)\n")
                return ExitStatus.inputError
            }
        }
        let runs: SARIFMerge.Runs
        do {
            runs = try SARIFMerge.runs(of: logs)
            // What the texts say is in the runs now: their bytes need not stay for the write.
            logs.removeAll()
        } catch {
            environment.writeErr("Error: \(error)\n")
            return ExitStatus.inputError
        }
        if let output = parsed.value("output"), output != "-" {
            // To its file as it is made, as a scan's SARIF goes.
            if let failure = ScanCommand.write(to: output, { runs.write(to: $0) }) {
                environment.writeErr("Error: cannot write '\(output)': \(failure)\n")
                return ExitStatus.inputError
            }
        } else {
            _ = runs.write(to: environment.writeOutPiece)
        }
        return ExitStatus.pass
    }
}
