
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan

/// nst/JSONTestSuite, read from ../shared/testsuites/JSONTestSuite/test_parsing (or the
/// directory in HABITER_JSON_TEST_SUITE): every y_ accepted, every n_ rejected, no i_ crash.
@Suite struct JSONTestSuiteTests {
    static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["HABITER_JSON_TEST_SUITE"] {
            return URL(fileURLWithPath: override)
        }
        let url = TestSupport.sharedRoot.appendingPathComponent("testsuites/JSONTestSuite/test_parsing")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Why the conformance tests are skipped when the suite is absent (shown by scripts/test).
    static let absent: Comment = "JSONTestSuite not found at ../shared/testsuites/JSONTestSuite/test_parsing; set HABITER_JSON_TEST_SUITE to run it"

    static let files: [String] = {
        guard let directory else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent))
    func suiteHasEveryCase() throws {
        #expect(Self.files.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(Self.files.filter { $0.hasPrefix("n_") }.count == 188)
    }

    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent), arguments: files)
    func conformance(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory!.appendingPathComponent(name))
        let accepted: Bool
        do {
            _ = try JSONValue.parse(Array(data))
            accepted = true
        } catch is JSONSyntaxError {
            accepted = false
        }
        if name.hasPrefix("y_") { #expect(accepted, "\(name) must be accepted") }
        if name.hasPrefix("n_") { #expect(!accepted, "\(name) must be rejected") }
        // The scanning visitor reads the same texts without crashing either.
        _ = TestSupport.scan(String(decoding: data, as: UTF8.self), name: name, options: ScanOptions(inputFormat: .json))
    }
}

/// The streaming reader gives the same result whatever the window's chunk size: every case of
/// the suite read through windows of 1, 3 and 7 bytes parses to the same tree or fails with the
/// same error at the same offset as the whole-buffer read.
@Suite struct StreamingReaderTests {
    static func parse(_ window: ByteWindow) -> Result<JSONValue.Node, JSONSyntaxError> {
        var reader = JSONReader(window: window)
        var builder = JSONTreeBuilder()
        do {
            try reader.readText(&builder)
            return .success(builder.result!)
        } catch {
            return .failure(error as! JSONSyntaxError)
        }
    }

    static func window(over data: [UInt8], chunkSize: Int) -> ByteWindow {
        let url = TestSupport.temporaryDirectory().appendingPathComponent("input.json")
        precondition(FileManager.default.createFile(atPath: url.path, contents: Data(data)), "cannot write \(url.path)")
        let fd = open(url.path, O_RDONLY)
        return ByteWindow(descriptor: fd, expectedSize: data.count, chunkSize: chunkSize)
    }

    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent), arguments: JSONTestSuiteTests.files)
    func sameResultForEveryChunkSize(_ name: String) throws {
        let data = Array(try Data(contentsOf: JSONTestSuiteTests.directory!.appendingPathComponent(name)))
        let whole = data.withUnsafeBytes { Self.parse(ByteWindow(whole: $0)) }
        for chunkSize in [1, 3, 7] {
            let streamed = Self.parse(Self.window(over: data, chunkSize: chunkSize))
            switch (whole, streamed) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(name) with \(chunkSize)-byte chunks")
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(name) with \(chunkSize)-byte chunks")
            default: Issue.record("\(name): accepted and rejected differently with \(chunkSize)-byte chunks")
            }
        }
    }

    @Test func scanFindingsDoNotDependOnChunkSize() throws {
        let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/report-sample")
        let scanner = Scanner(rules: TestSupport.builtinPack)
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted() {
            let data = Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
            let whole = data.withUnsafeBytes { scanner.scan(bytes: $0, name: name) }
            for chunkSize in [1, 2, 5, 64] {
                let streamed = scanner.scan(Self.window(over: data, chunkSize: chunkSize), name: name, rules: scanner.rules, matcher: RegexMatcher())
                #expect(streamed.findings == whole.findings, "\(name) with \(chunkSize)-byte chunks")
                #expect(streamed.errors == whole.errors, "\(name) with \(chunkSize)-byte chunks")
            }
        }
    }
}
