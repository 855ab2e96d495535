import Foundation
@testable import HabiterAudit

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The repository root (this file is Tests/HabiterAuditTests/TestSupport.swift).
    static let repoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the repository, where CI keeps third-party data (JSONTestSuite,
    /// schemas). Never copied into the repository.
    static let sharedRoot: URL = repoRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static let builtinPack: RulePack = try! RulePack.load()

    /// Scans `text` as an input named `name` with the built-in pack.
    static func scan(_ text: String, name: String = "input.json", options: ScanOptions = ScanOptions()) -> (findings: [Finding], errors: [InputError]) {
        let scanner = Scanner(rules: builtinPack, options: options)
        var bytes = Array(text.utf8)
        let outcome = bytes.withUnsafeMutableBytes { scanner.scan(bytes: UnsafeRawBufferPointer($0), name: name) }
        return (Scanner.finalize(outcome.findings), outcome.errors)
    }

    /// Runs the CLI in-process and captures stdout and stderr.
    static func runCLI(_ arguments: [String], variables: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
        let out = Capture()
        let err = Capture()
        let environment = CLIEnvironment(writeOut: { out.text += $0 }, writeErr: { err.text += $0 },
                                         stdoutIsTerminal: false, variables: variables)
        let status = CLI.run(arguments, environment: environment)
        return (status, out.text, err.text)
    }

    final class Capture: @unchecked Sendable { var text = "" }

    /// A fresh temporary directory.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("habiter-audit-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a program and returns its status and output.
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
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
    static func which(_ names: String...) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }
}
