import AuditScan
import Foundation
@testable import HabiterAudit
import Testing

/// The process keeps a scan's findings and rule pack until it exits instead of freeing them
/// just before (`CLIEnvironment.keepUntilExit`); tests' environments let them go.
@Suite struct KeepUntilExitTests {
    final class Token {}

    @Test func theProcessKeepsWhatItIsGiven() {
        weak var kept: Token?
        do {
            let token = Token()
            kept = token
            CLIEnvironment.process(variables: [:]).keepUntilExit(token)
        }
        #expect(kept != nil)
    }

    @Test func aTestEnvironmentLetsGo() {
        weak var kept: Token?
        do {
            let token = Token()
            kept = token
            CLIEnvironment(writeOut: { _ in }, writeErr: { _ in }, stdoutIsTerminal: false, variables: [:]).keepUntilExit(token)
        }
        #expect(kept == nil)
    }

    @Test func aScanHandsOverItsResult() {
        let given = TestSupport.Capture()
        nonisolated(unsafe) var values: [Any] = []
        var environment = CLIEnvironment(writeOut: { given.text += $0 }, writeErr: { _ in }, stdoutIsTerminal: false, variables: [:])
        environment.keepUntilExit = { values.append($0) }
        let status = CLI.run(["scan", "--no-config", "--format", "json", TestSupport.repoRoot.appendingPathComponent("corpus").path],
                             environment: environment)
        let results = values.compactMap { ($0 as? (ScanResult, ScanSetup))?.0 }
        #expect(status == 1)
        #expect(results.count == 1)
        let reported = (try? JSONSerialization.jsonObject(with: Data(given.text.utf8))) as? [String: Any]
        #expect((reported?["findings"] as? [Any])?.count == results.first?.findings.count)
        #expect(results.first.map { !$0.findings.isEmpty } == true)
    }
}
