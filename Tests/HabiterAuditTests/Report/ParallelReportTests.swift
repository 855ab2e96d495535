@testable import AuditCore
@testable import AuditReport
@testable import AuditScan
import Testing

/// The JSON report's findings and the SARIF log's results written on several threads
/// (`JSONStreamWriter.elements`, `--jobs`) are the bytes one thread writes: thousands of
/// findings, some suppressed, so that the blocks are many and SARIF's `--sarif-omit-suppressed`
/// leaves some out.
@Suite struct ParallelReportTests {
    static let input: ReportInput = {
        let findings = (0..<3_000).map { i in
            var finding = Finding(ruleId: "secret.rule-\(i % 7)", level: [.error, .warning, .note][i % 3], family: .secret,
                                  message: "message \(i)", key: i % 5 == 0 ? nil : "key \(i)", context: .sync,
                                  inventoryClass: i % 4 == 0 ? "class \(i)" : nil, artifact: "dir/input-\(i / 1000).json",
                                  position: SourcePosition(line: i + 1, column: i % 80 + 1, byteOffset: 40 * i),
                                  path: LayeredPath(), confidence: .high, preview: "preview \(i) \u{1F511}", fingerprint: "\(i)")
            if i % 3 == 1 {
                finding.baselineState = .unchanged
                finding.suppression = Suppression(source: .baseline, justification: "because \(i)")
            }
            return finding
        }
        let result = ScanResult(findings: findings, errors: [],
                                artifacts: (0..<3).map { ArtifactSummary(name: "dir/input-\($0).json", format: "json", byteCount: 40_000) },
                                inventory: [])
        return ReportInput(result: result, rules: TestSupport.builtinPack.rules, exitCode: ExitStatus.findings, failOn: .error)
    }()

    static func written(_ writers: Int, _ write: (Int, (UnsafeRawBufferPointer) -> Bool) -> Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        #expect(write(writers) { bytes += $0; return true })
        return bytes
    }

    @Test func theJSONReportIsTheSameOnEveryNumberOfThreads() {
        let one = Array(JSONReport.render(Self.input).utf8)
        #expect(one.count > 1_000_000)
        for writers in [1, 2, 4] {
            let same = Self.written(writers) { JSONReport.write(Self.input, chunk: 4096, writers: $0, to: $1) } == one
            #expect(same, "\(writers) writers")
        }
    }

    @Test(arguments: [false, true])
    func theSARIFLogIsTheSameOnEveryNumberOfThreads(omitSuppressed: Bool) {
        var input = Self.input
        input.sarifOmitSuppressed = omitSuppressed
        let one = Array(SARIFReport.render(input).utf8)
        for writers in [1, 2, 4] {
            let same = Self.written(writers) { SARIFReport.write(input, chunk: 4096, writers: $0, to: $1) } == one
            #expect(same, "\(writers) writers")
        }
    }
}
