import Foundation
import TestHelpers
@testable import HabiterAudit

/// What the CLI tests need beyond the library.
enum TestSupport {
    static let repoRoot = ProcessRunner.repoRoot

    static var builtinPackCount: Int { (try! RulePack.load()).rules.count }

    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try ProcessRunner.run(executable, arguments, stdin: stdin)
    }
}
