#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the command line sees of its process: output sinks, whether they are terminals, the
/// environment. Tests pass their own; `main.swift` passes the real one.
public struct CLIEnvironment {
    public var writeOut: (String) -> Void
    public var writeErr: (String) -> Void
    public var stdoutIsTerminal: Bool
    /// Whether stderr is a terminal (progress is drawn only there).
    public var stderrIsTerminal: Bool
    public var variables: [String: String]

    public init(writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void,
                stdoutIsTerminal: Bool, stderrIsTerminal: Bool = false, variables: [String: String]) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.variables = variables
    }

    /// The real process: stdout, stderr, `isatty`, the environment.
    public static func process(variables: [String: String]) -> CLIEnvironment {
        CLIEnvironment(
            writeOut: { text in writeAll(1, text) },
            writeErr: { text in writeAll(2, text) },
            stdoutIsTerminal: isatty(1) == 1,
            stderrIsTerminal: isatty(2) == 1,
            variables: variables)
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                done += n
            }
        }
    }
}

/// Exit statuses. Finding leaks (1) and failing to scan (2) never share a code.
public enum ExitStatus {
    public static let pass: Int32 = 0
    public static let findings: Int32 = 1
    public static let inputError: Int32 = 2
    public static let usage: Int32 = 64
}

/// The command line: parses arguments, runs the library, writes output, returns the exit status.
public enum CLI {
    public static func run(_ arguments: [String], environment: CLIEnvironment) -> Int32 {
        do {
            return try dispatch(arguments, environment)
        } catch {
            environment.writeErr("Error: \(error.message)\n")
            let hint = error.command.map { "habiter-audit \($0) --help" } ?? "habiter-audit --help"
            environment.writeErr("See '\(hint)' for usage.\n")
            return ExitStatus.usage
        }
    }

    private static func dispatch(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        guard let command = arguments.first else {
            throw UsageError(message: "missing command (scan, baseline, merge, redact, rules, inventory)", command: nil)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            if command == "help" && rest == ["--man"] {
                environment.writeOut(ManPage.render())
                return ExitStatus.pass
            }
            if let topic = rest.first {
                return try dispatch([topic, "--help"], environment)
            }
            environment.writeOut(HelpText.overview + "\n")
            return ExitStatus.pass
        case "--version":
            environment.writeOut("\(ToolInfo.name) \(ToolInfo.version)\n")
            return ExitStatus.pass
        case "scan":
            return try ScanCommand.run(rest, environment)
        case "baseline":
            return try BaselineCommand.run(rest, environment)
        case "merge":
            return try MergeCommand.run(rest, environment)
        case "rules":
            return try RulesCommand.run(rest, environment)
        case "redact":
            return try RedactCommand.run(rest, environment)
        case "inventory":
            return try InventoryCommand.run(rest, environment)
        default:
            throw UsageError(message: "unknown command '\(command)'", command: nil)
        }
    }
}
