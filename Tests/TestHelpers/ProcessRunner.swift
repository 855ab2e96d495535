import Foundation

/// Runs programs for tests: the built binary, python3 for schema checks.
public enum ProcessRunner {
    /// Runs `executable` with `arguments` and `stdin`, in `currentDirectory` when given (never by
    /// changing this process's directory: tests run in parallel); returns its status and output.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                           currentDirectory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The first of `names` found on PATH.
    public static func which(_ names: String...) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// The built `habiter-audit` binary (`swift build` puts it beside the test bundle).
    public static let binary: String = {
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("habiter-audit").path,
                          repoRoot.appendingPathComponent(".build/debug/habiter-audit").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// The repository root (this file is Tests/TestHelpers/ProcessRunner.swift).
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh temporary directory inside this test process's scratch directory, which is removed
    /// when the process exits (a test run makes thousands of them).
    public static func temporaryDirectory() -> URL {
        let url = scratchRoot.appendingPathComponent(UUID().uuidString)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `$TMPDIR/habiter-audit-tests-PID`, made on first use and removed at exit.
    private static let scratchRoot: URL = {
        let root = scratchRootURL()
        try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: scratchRootURL()) }
        return root
    }()

    private static func scratchRootURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("habiter-audit-tests-\(getpid())")
    }
}
