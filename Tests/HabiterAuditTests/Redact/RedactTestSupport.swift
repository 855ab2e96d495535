@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditScan
import Foundation
import Testing

/// Fake, format-valid secrets and helpers for the redaction tests. Expectations are written on
/// booleans and counts, never on the texts that hold a secret, so that a failing test does not
/// print the value it looked for.
enum RedactFixtures {
    /// GitHub tokens from `scripts/fake-secret github-pat` (CRC32 valid).
    static let github = "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"
    static let github2 = "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"
    static let stripe = "sk_live_kULqtrjJMQ0ZbrHF8iGyXOZ1"
    static let aws = "AKIAX473TCUH7AY5AQC2"
    static let slack = "xoxb-689135185277-4576776480228-3UJgvv9PjmiAOp8v8YygIMsZ"
    static let google = "AIzao-qaOPBnfupBPM1gXwlMNBAcFu1778WMFMx"
    /// HS256 header, `{"sub":"u-42","iat":1764547200}`, a 43-character signature.
    static let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIiwiaWF0IjoxNzY0NTQ3MjAwfQ.Xp3X2mV6YH4mQ1fJ8u3mWkzQbqRv6NnTq9t2cL0e7Hc"
    /// A password a person chose, judged credible under a password name.
    static let password = "hunter2-Kiwi"

    static let pack = TestSupport.builtinPack

    /// Redacts `text` with the built-in pack.
    static func redact(_ text: String, name: String = "input", options: ScanOptions = ScanOptions()) throws(RedactError) -> RedactionResult {
        try redact(Array(text.utf8), name: name, options: options)
    }

    static func redact(_ bytes: [UInt8], name: String = "input", options: ScanOptions = ScanOptions()) throws(RedactError) -> RedactionResult {
        try Redactor(rules: pack, options: options).redact(bytes, name: name)
    }

    static func text(_ result: RedactionResult) -> String { String(decoding: result.output, as: UTF8.self) }

    /// Whether `haystack` holds `needle` (compare the result, never print the haystack).
    static func holds(_ haystack: [UInt8], _ needle: String) -> Bool {
        haystack.firstRange(of: Array(needle.utf8)) != nil
    }

    static func holds(_ haystack: String, _ needle: String) -> Bool { holds(Array(haystack.utf8), needle) }

    /// The secret and transport findings of a scan of `bytes`, and its input errors.
    static func secretFindings(_ bytes: [UInt8], name: String = "input") -> (findings: [Finding], errors: [InputError]) {
        let scanner = Scanner(rules: pack)
        var content = bytes
        // `scan(bytes:)` reads no compressed input (docs/robustness.md): decompressed here.
        if let coding = bytes.withUnsafeBytes(FormatDetector.compression), case .success(let plain) = bytes.withUnsafeBytes(coding.decode) {
            content = plain
        }
        let outcome = content.withUnsafeBytes { scanner.scan(bytes: $0, name: name) }
        return (outcome.findings.filter { $0.family != .policy }, outcome.errors)
    }

    /// `findings` as `rule at path` lines: what a failing expectation may print.
    static func describe(_ findings: [Finding]) -> [String] {
        findings.map { "\($0.ruleId) at \($0.path) line \($0.position.line)" }
    }

    /// The format the scanner reads `bytes` as.
    static func format(_ bytes: [UInt8]) -> String? {
        let scanner = Scanner(rules: pack)
        return bytes.withUnsafeBytes { scanner.scan(bytes: $0, name: "check").summary.format }
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    static func decodeBase64(_ text: String) -> String? {
        Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Gzip of `text` with a fixed header (no name, mtime 0).
    static func gzip(_ text: String) -> [UInt8] {
        GzipEncoder.compress(Array(text.utf8), headerFrom: [])!
    }

    /// The JSON string value at `pointer` (`/a/0/b`) of a JSON text, parsed with Foundation.
    static func jsonString(_ bytes: [UInt8], at pointer: String) -> String? {
        guard var node = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        for token in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = node as? [String: Any], let next = object[key] {
                node = next
            } else if let array = node as? [Any], let index = Int(key), index < array.count {
                node = array[index]
            } else {
                return nil
            }
        }
        return node as? String
    }
}

/// Expects `actual` to equal `expected`; on a mismatch reports only where they differ, never
/// the text (which may still hold a secret when redaction failed).
func expectText<C: Collection>(_ actual: C?, equals expected: String, _ what: String = "the output",
                               sourceLocation: SourceLocation = #_sourceLocation) where C.Element == UInt8 {
    guard let actual else {
        Issue.record("\(what) is missing", sourceLocation: sourceLocation)
        return
    }
    let expectedBytes = Array(expected.utf8)
    guard !actual.elementsEqual(expectedBytes) else { return }
    let common = zip(actual, expectedBytes).prefix { $0 == $1 }.count
    let line = expectedBytes.prefix(common).filter { $0 == 0x0A }.count + 1
    Issue.record("\(what) differs from the expected text at byte \(common) (line \(line)); lengths \(actual.count) and \(expectedBytes.count)",
                 sourceLocation: sourceLocation)
}

func expectText(_ actual: String?, equals expected: String, _ what: String = "the output", sourceLocation: SourceLocation = #_sourceLocation) {
    expectText(actual.map { Array($0.utf8) }, equals: expected, what, sourceLocation: sourceLocation)
}

/// Expects `haystack` to hold `needle` (an expected text without secrets); prints neither.
func expectHolds<C: Collection>(_ haystack: C, _ needle: String, _ what: String = "the output",
                                sourceLocation: SourceLocation = #_sourceLocation) where C.Element == UInt8 {
    let found = Array(haystack).firstRange(of: Array(needle.utf8)) != nil
    #expect(found, "\(what) lacks an expected text of \(needle.utf8.count) bytes", sourceLocation: sourceLocation)
}

func expectHolds(_ haystack: String, _ needle: String, _ what: String = "the output", sourceLocation: SourceLocation = #_sourceLocation) {
    expectHolds(Array(haystack.utf8), needle, what, sourceLocation: sourceLocation)
}

/// Checks every redaction result should pass: no secret left, the same format, idempotent.
func expectClean(_ result: RedactionResult, leaking secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, secret) in secrets.enumerated() {
        let leaked = RedactFixtures.holds(result.output, secret)
        #expect(!leaked, "secret \(index + 1) of \(secrets.count) is still in the output", sourceLocation: sourceLocation)
    }
    let rescan = RedactFixtures.secretFindings(result.output)
    #expect(rescan.errors.isEmpty, "the redacted copy does not read: \(rescan.errors)", sourceLocation: sourceLocation)
    let remaining = RedactFixtures.describe(rescan.findings.filter { !$0.ruleId.hasPrefix("inventory.") })
    #expect(remaining.isEmpty, "findings remain: \(remaining)", sourceLocation: sourceLocation)
    // Redacting a redacted copy changes nothing.
    if let again = try? RedactFixtures.redact(result.output) {
        let same = again.output == result.output
        #expect(same, "a second redaction changed the copy", sourceLocation: sourceLocation)
    }
}
