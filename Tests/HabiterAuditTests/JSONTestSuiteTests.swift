import Foundation
import Testing
@testable import HabiterAudit

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

    static let files: [String] = {
        guard let directory else {
            print("SKIPPED: JSONTestSuite not found at ../shared/testsuites/JSONTestSuite/test_parsing; set HABITER_JSON_TEST_SUITE to run it")
            return []
        }
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func suiteIsPresentOrSkipIsAnnounced() throws {
        if Self.directory == nil {
            print("SKIPPED: JSONTestSuite is absent; the conformance cases did not run")
            return
        }
        #expect(Self.files.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(Self.files.filter { $0.hasPrefix("n_") }.count == 188)
    }

    @Test(arguments: files)
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
