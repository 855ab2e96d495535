import AuditCore
import AuditReport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the command line sees of its process: output sinks, whether they are terminals, the
/// environment. Tests pass their own; `main.swift` passes the real one.
public struct CLIEnvironment {
    public var writeOut: (String) -> Void
    /// stdout for a report written as it is made, a piece at a time (whole JSON values, so
    /// never a character cut in two); false once a write has failed. By default, each piece
    /// through `writeOut`.
    public var writeOutPiece: (UnsafeRawBufferPointer) -> Bool
    /// Messages for stderr: shown through `DisplayText` (line feeds kept), since file names,
    /// keys and reasons in them come from the inputs.
    public var writeErr: (String) -> Void
    /// stderr as it is, for the progress line's own control sequences (counts and sizes only).
    var drawProgress: (String) -> Void
    public var stdoutIsTerminal: Bool
    /// Whether stderr is a terminal (progress is drawn only there).
    public var stderrIsTerminal: Bool
    public var variables: [String: String]
    /// Why a write to stdout or stderr failed (the first failure), nil while none has.
    public var writeFailure: () -> String?
    /// Holds what a command made (a scan's findings, its rule pack) until the process exits, so
    /// that it is not freed object by object just before the kernel drops it whole: the 18,000
    /// findings of a 100 MB HAR took 8 ms to free. Tests' environments let it go.
    var keepUntilExit: (Any) -> Void = { _ in }

    public init(writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void,
                stdoutIsTerminal: Bool, stderrIsTerminal: Bool = false, variables: [String: String],
                writeFailure: @escaping () -> String? = { nil }) {
        self.writeOut = writeOut
        self.writeOutPiece = { piece in
            writeOut(String(decoding: piece, as: UTF8.self))
            return true
        }
        self.writeErr = { writeErr(DisplayText.escapedKeepingLines($0)) }
        self.drawProgress = writeErr
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.variables = variables
        self.writeFailure = writeFailure
    }

    /// The real process: stdout, stderr, `isatty`, the environment.
    public static func process(variables: [String: String]) -> CLIEnvironment {
        let failures = WriteFailures()
        var environment = CLIEnvironment(
            writeOut: { text in failures.record(writeAll(1, text), "stdout") },
            writeErr: { text in failures.record(writeAll(2, text), "stderr") },
            stdoutIsTerminal: isatty(1) == 1,
            stderrIsTerminal: isatty(2) == 1,
            variables: variables,
            writeFailure: { failures.first })
        environment.writeOutPiece = { piece in
            let failure = writeAll(1, piece)
            failures.record(failure, "stdout")
            return failure == nil
        }
        environment.keepUntilExit = { KeptUntilExit.shared.keep($0) }
        return environment
    }

    /// Writes all of `text` to `fd`; the error text on failure.
    private static func writeAll(_ fd: Int32, _ text: String) -> String? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `buffer` to `fd`, again after an interruption; the error text on failure.
    /// The one loop that writes to a descriptor: stdout and stderr, reports, redacted files.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> String? {
        var done = 0
        while done < buffer.count {
            let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? String(cString: strerror(errno)) : "nothing was written" }
            done += n
        }
        return nil
    }

    /// What the process keeps until it exits (`keepUntilExit`).
    final class KeptUntilExit: @unchecked Sendable {
        static let shared = KeptUntilExit()
        private let lock = NSLock()
        private var values: [Any] = []

        func keep(_ value: Any) {
            lock.lock()
            defer { lock.unlock() }
            values.append(value)
        }
    }

    /// The first failed write of a process (the progress line writes from scanning threads).
    private final class WriteFailures: @unchecked Sendable {
        private let lock = NSLock()
        private var failure: String?

        func record(_ error: String?, _ stream: String) {
            guard let error else { return }
            lock.lock()
            defer { lock.unlock() }
            if failure == nil { failure = "cannot write to \(stream): \(error)" }
        }

        var first: String? {
            lock.lock()
            defer { lock.unlock() }
            return failure
        }
    }
}

/// The command line: parses arguments, runs the library, writes output, returns the exit status.
public enum CLI {
    /// A failed write of the report or of a message, to stdout or stderr, is exit status 2: a
    /// gate whose report was lost has not passed.
    public static func run(_ arguments: [String], environment: CLIEnvironment) -> Int32 {
        var status: Int32
        do {
            status = try dispatch(arguments, environment)
        } catch {
            environment.writeErr("Error: \(error.message)\n")
            let hint = error.command.map { "habiter-audit \($0) --help" } ?? "habiter-audit --help"
            environment.writeErr("See '\(hint)' for usage.\n")
            status = ExitStatus.usage
        }
        if let failure = environment.writeFailure() {
            environment.writeErr("Error: \(failure)\n")
            status = ExitStatus.inputError
        }
        return status
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
