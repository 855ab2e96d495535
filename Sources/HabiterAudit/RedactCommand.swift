import AuditCore
import AuditInputs
import AuditRedact
import AuditScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `habiter-audit redact INPUT -o OUTPUT`: writes a copy of one input with every secret and
/// transport value replaced by a typed placeholder (see `Redactor`). Fails closed: when the input
/// cannot be read or parsed, or a secret would remain, nothing is written and the exit status is 2.
enum RedactCommand {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "output", short: "o", takesValue: true),
        OptionSpec(name: "force", short: nil, takesValue: false),
        OptionSpec(name: "input-format", short: nil, takesValue: true),
        OptionSpec(name: "rules", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "no-builtin-rules", short: nil, takesValue: false),
        OptionSpec(name: "max-depth", short: nil, takesValue: true),
        OptionSpec(name: "quiet", short: "q", takesValue: false),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "redact")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.redact + "\n")
            return ExitStatus.pass
        }
        guard let input = parsed.positionals.first else {
            throw UsageError(message: "missing the input to redact (a file, or - for stdin)", command: "redact")
        }
        guard parsed.positionals.count == 1 else {
            throw UsageError(message: "redact takes one input (got \(parsed.positionals.count))", command: "redact")
        }
        guard let output = parsed.value("output") else {
            throw UsageError(message: "missing '-o <file>' (the redacted copy; - for stdout)", command: "redact")
        }
        let inputFormat: InputFormat = try choice(parsed.value("input-format"), option: "input-format", command: "redact", default: .auto)
        var maxDepth = JSONReader.defaultMaxDepth
        if let value = parsed.value("max-depth") {
            guard let n = Int(value), n >= 1 else {
                throw UsageError(message: "invalid value '\(value)' for '--max-depth' (expected a positive integer)", command: "redact")
            }
            maxDepth = n
        }
        let force = parsed.flags.contains("force")
        if output != "-" && !force {
            if input != "-" && OutputFile.sameFile(input, output) {
                throw UsageError(message: "the output '\(output)' is the input; the input is never modified (pass --force to replace it with the redacted copy)", command: "redact")
            }
            if OutputFile.exists(output) {
                throw UsageError(message: "the output '\(output)' exists (pass --force to overwrite it)", command: "redact")
            }
        }

        guard let pack = RulesCommand.loadRules(parsed, environment) else { return ExitStatus.inputError }
        let name = input == "-" ? "-" : InputItem.normalizedName(input)
        let bytes: [UInt8]
        switch OutputFile.readAll(input == "-" ? nil : input) {
        case .success(let read): bytes = read
        case .failure(let failure):
            environment.writeErr("error: \(name): \(failure.reason)\n")
            return ExitStatus.inputError
        }
        let options = ScanOptions(inputFormat: inputFormat, maxDepth: maxDepth)
        let result: RedactionResult
        do {
            result = try Redactor(rules: pack, options: options).redact(bytes, name: name)
        } catch {
            for line in error.lines { environment.writeErr("error: \(line)\n") }
            return ExitStatus.inputError
        }
        if output == "-" {
            if let text = String(validating: result.output, as: UTF8.self) {
                environment.writeOut(text)
            } else if let failure = OutputFile.writeAll(result.output, to: 1) {
                // Binary (gzip) output goes to the process's stdout as bytes.
                environment.writeErr("error: cannot write to stdout: \(failure)\n")
                return ExitStatus.inputError
            }
        } else if let failure = OutputFile.replace(output, with: result.output) {
            environment.writeErr("error: cannot write '\(output)': \(failure)\n")
            return ExitStatus.inputError
        }
        if !parsed.flags.contains("quiet") { environment.writeErr(summary(result, input: name, output: output) + "\n") }
        return ExitStatus.pass
    }

    /// One line for stderr: how many values of which rules were replaced, never a value, and
    /// what a scan of the copy still reports: policy verdicts, which are no leak and stay.
    static func summary(_ result: RedactionResult, input: String, output: String) -> String {
        let destination = output == "-" ? "stdout" : "'\(output)'"
        let policy = result.policyFindings
        let remainder = switch policy {
        case 0: ""
        case 1: " (1 policy finding remains: a contract verdict, not a leak)"
        default: " (\(policy) policy findings remain: contract verdicts, not leaks)"
        }
        guard result.replacementCount > 0 else {
            return "No secret or transport values in '\(input)' (\(result.format)); wrote an identical copy to \(destination)\(remainder)."
        }
        let byRule = result.replacements.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let count = result.replacementCount
        let verdict = policy == 0 ? "it scans clean" : "it scans clean of secret and transport findings\(remainder)"
        return "Redacted \(count) value\(count == 1 ? "" : "s") in '\(input)' (\(result.format)): \(byRule); wrote \(destination); \(verdict)."
    }
}

/// Reading the input whole and writing the copy atomically.
enum OutputFile {
    /// Why an input could not be read (no value in it, only the system's reason).
    struct ReadFailure: Error {
        var reason: String
    }

    /// The bytes of `path` (stdin when nil).
    static func readAll(_ path: String?) -> Result<[UInt8], ReadFailure> {
        let fd: Int32
        if let path {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failure(ReadFailure(reason: "cannot open: \(String(cString: strerror(errno)))")) }
            var info = stat()
            if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                close(fd)
                return .failure(ReadFailure(reason: "is a directory (redact takes one file)"))
            }
        } else {
            fd = 0
        }
        defer { if path != nil { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(reason: "read failed: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[0..<n]
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Why writing a report or baseline to `output` would overwrite what is scanned: it is one of
    /// `inputs`, or lies inside one that is a directory (links resolved). Nil when it is neither.
    static func overlap(of output: String, with inputs: [String]) -> String? {
        guard output != "-" else { return nil }
        let target = resolvedPath(output)
        for input in inputs where input != "-" {
            if sameFile(input, output) { return "the output '\(output)' is an input; an input is never overwritten" }
            var info = stat()
            guard stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, let directory = realpath(input, nil), let target else { continue }
            defer { free(directory) }
            let root = String(cString: directory)
            if target.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                return "the output '\(output)' is inside '\(input)', which is scanned; write it elsewhere"
            }
        }
        return nil
    }

    /// `path` with its links resolved, also when the file does not exist yet (its directory's).
    private static func resolvedPath(_ path: String) -> String? {
        if let full = realpath(path, nil) {
            defer { free(full) }
            return String(cString: full)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let full = realpath(directory, nil) else { return nil }
        defer { free(full) }
        let root = String(cString: full)
        return (root.hasSuffix("/") ? root : root + "/") + name
    }

    /// Whether both paths name the same existing file (by device and inode), or are the same text.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        if stat(a, &first) == 0 && stat(b, &second) == 0 {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }
        return InputItem.normalizedName(a) == InputItem.normalizedName(b)
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader
    /// never sees half a copy, and a failure leaves `path` as it was.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(directory).\(base).redact-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let failure = writeAll(bytes, to: fd)
        let closed = close(fd)
        if let failure {
            unlink(temporary)
            return failure
        }
        if closed != 0 || rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// Writes all of `bytes` to `fd`; the error text on failure.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { CLIEnvironment.writeAll(fd, $0) }
    }
}
