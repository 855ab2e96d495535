@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Testing

/// A worker keeps its caches (`WorkerCaches`) from one input to the next: what an input gives
/// must not depend on the inputs the worker scanned before it.
@Suite struct WorkerCachesTests {
    /// The corpus scanned in one run, by one worker, gives each file the findings, errors and
    /// summary it gives scanned alone, with caches of its own.
    @Test func anInputsAnswersDoNotDependOnTheInputsBeforeIt() {
        let corpus = TestSupport.repoRoot.appendingPathComponent("corpus").path
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let (items, collectErrors) = InputCollector.collect([corpus])
        #expect(collectErrors.isEmpty)
        #expect(items.count > 50)
        let together = scanner.scan(items, jobs: 1)
        var findings = 0
        for item in items {
            let alone = scanner.scan([item], jobs: 1)
            // Compared before the expectations, which would print every finding of both.
            let sameFindings = together.findings.filter { $0.artifact == item.name } == alone.findings
            let sameErrors = together.errors.filter { $0.artifact == item.name } == alone.errors
            let sameSummary = together.artifacts.filter { $0.name == item.name } == alone.artifacts
            #expect(sameFindings, "\(item.name)")
            #expect(sameErrors, "\(item.name)")
            #expect(sameSummary, "\(item.name)")
            findings += alone.findings.count
        }
        #expect(findings == together.findings.count)
        #expect(findings > 100)
    }
}
