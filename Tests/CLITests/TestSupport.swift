@testable import AuditDetection
import Foundation
@testable import HabiterAudit
import TestHelpers

/// What the CLI tests need beyond the library.
enum TestSupport {
    static let repoRoot = ProcessRunner.repoRoot

    static var builtinPackCount: Int { (try! RulePack.load()).rules.count }

    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try ProcessRunner.run(executable, arguments, stdin: stdin)
    }

    /// Runs the command line in-process, capturing stdout and stderr; `variables` is its
    /// environment (today's date is fixed, so allowlist expiry does not depend on the clock).
    static func cli(_ arguments: [String], variables: [String: String] = ["HABITER_AUDIT_TODAY": "2026-11-30"])
        -> (status: Int32, stdout: String, stderr: String) {
        final class Box: @unchecked Sendable { var text = "" }
        let out = Box(), err = Box()
        let status = CLI.run(arguments, environment: CLIEnvironment(writeOut: { out.text += $0 }, writeErr: { err.text += $0 },
                                                                    stdoutIsTerminal: false, variables: variables))
        return (status, out.text, err.text)
    }
}
