@testable import AuditCore
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan
import Testing

/// Workers put each artifact's findings in report order and fingerprint them; the merge orders
/// artifacts by name. That must give what one pass over all findings gives, for any number of
/// workers, and an input named twice must still be reported once.
@Suite struct FindingMergeTests {
    static let corpus = TestSupport.repoRoot.appendingPathComponent("corpus").path

    @Test(arguments: [1, 2, 4])
    func perArtifactMergeEqualsOnePassOverAllFindings(jobs: Int) {
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let (items, _) = InputCollector.collect([Self.corpus])
        let merged = scanner.scan(items, jobs: jobs).findings
        let onePass = Scanner.finalize(items.flatMap { item in
            guard case .success(let window) = InputLoader.open(item) else { return [Finding]() }
            return scanner.scan(window, name: item.name, rules: scanner.rules, matcher: RegexMatcher()).findings
        })
        #expect(merged.count > 100, "the corpus has findings in many artifacts")
        #expect(merged.map(\.fingerprint) == onePass.map(\.fingerprint))
        #expect(merged.map(\.artifact) == onePass.map(\.artifact))
        #expect(merged.map(\.position.byteOffset) == onePass.map(\.position.byteOffset))
    }

    @Test func anInputNamedTwiceIsReportedOnce() {
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let file = TestSupport.repoRoot.appendingPathComponent("corpus/backup/habiter-backup-2025-11-30.json").path
        let once = scanner.scan(paths: [file]).findings
        let twice = scanner.scan(paths: [file, file], jobs: 2).findings
        #expect(!once.isEmpty)
        #expect(twice.map(\.fingerprint) == once.map(\.fingerprint))
    }
}
