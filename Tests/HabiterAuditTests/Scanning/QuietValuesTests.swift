@testable import AuditCore
@testable import AuditDetection
@testable import AuditScan
import Foundation
import Testing

/// The values the scan remembers as holding nothing (`QuietValues`): the answers are the same
/// with them and without, and a value is skipped only where everything its outcome depends on
/// is the same.
@Suite struct QuietValuesTests {
    static let withoutQuietValues: ScanOptions = {
        var options = ScanOptions()
        options.remembersQuietValues = false
        return options
    }()

    /// Every file of the corpus (sync logs, captures, backups, prefs: their values recur) gives
    /// the same findings and errors, in the same order, with remembered values and without.
    @Test func theAnswersDoNotDependOnRememberedValues() throws {
        let root = TestSupport.repoRoot.appendingPathComponent("corpus")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted().filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(files.count > 50)
        var findings = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(file)))
            let remembering = TestSupport.scan(bytes: bytes, name: file)
            let plain = TestSupport.scan(bytes: bytes, name: file, options: Self.withoutQuietValues)
            // Compared before the expectation, which would print every finding of both.
            let sameFindings = remembering.findings == plain.findings, sameErrors = remembering.errors == plain.errors
            #expect(sameFindings, "\(file)")
            #expect(sameErrors, "\(file)")
            findings += plain.findings.count
        }
        #expect(findings > 100)
    }

    static let token = ContextRuleTests.token

    /// A value that held nothing under a neutral key holds a secret under a key that names its
    /// provider: the key's context rules are part of what is remembered.
    @Test func aRepeatUnderAProvidersKeyIsScannedAgain() {
        let text = #"{"mirror": "\#(Self.token)", "CF_API_TOKEN": "\#(Self.token)", "copy": "\#(Self.token)"}"#
        let found = TestSupport.scan(text).findings.filter { $0.ruleId == "secret.cloudflare-api-token" }
        #expect(found.map(\.pathText) == ["/CF_API_TOKEN"])
    }

    /// A value found again where it recurs: only values with nothing in them are remembered.
    @Test func aSecretIsFoundAtEveryRepeat() {
        let key = "AKIA" + "Z7XK2M4QW6RT3PLN"
        let text = #"{"a": "\#(key)", "b": ["\#(key)", "\#(key)"], "c": {"d": "\#(key)"}}"#
        let paths = TestSupport.scan(text).findings.filter { $0.ruleId.hasPrefix("secret.aws") }.flatMap { [$0.pathText] + $0.relatedLocations.map(\.pathText) }
        #expect(Set(paths) == ["/a", "/b/0", "/b/1", "/c/d"])
    }

    @Test func aValueIsRememberedWithItsSettings() {
        let values = QuietValues()
        let settings = QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: nil)
        let value = Array("a value of some length".utf8)
        value.withUnsafeBytes { bytes in
            #expect(!values.contains(bytes, settings))
            values.remember(bytes, settings)
            #expect(values.contains(bytes, settings))
            for other in [QuietValues.Settings(context: 1, excluded: 0, depth: 0, kind: nil), QuietValues.Settings(context: 0, excluded: 1, depth: 0, kind: nil),
                          QuietValues.Settings(context: 0, excluded: 0, depth: 1, kind: nil), QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: .text)] {
                #expect(!values.contains(bytes, other))
            }
        }
        // The same length, one byte apart; a prefix; too short and too long to be kept.
        for other in ["a value of some lengtH", "a value of some", "short", String(repeating: "x", count: QuietValues.lengths.upperBound + 1)] {
            Array(other.utf8).withUnsafeBytes { bytes in
                values.remember(bytes, QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: .code))
                #expect(!values.contains(bytes, settings), "\(other)")
            }
        }
        let tooShort = Array("short".utf8), tooLong = Array(String(repeating: "y", count: QuietValues.lengths.upperBound + 1).utf8)
        for bytes in [tooShort, tooLong] {
            bytes.withUnsafeBytes { values.remember($0, settings) }
            #expect(!bytes.withUnsafeBytes { values.contains($0, settings) })
        }
    }
}
