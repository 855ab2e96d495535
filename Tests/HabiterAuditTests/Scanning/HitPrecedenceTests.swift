@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Foundation
import Testing

/// The precedence rules of `HitPrecedence`, one table each: the input that makes the rule apply,
/// and next to it the same input without what the rule looks for, so that each row shows the
/// rule deciding (what wins, and what would be reported without it).
@Suite struct HitPrecedenceTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name = "input.json"
        var text: String
        var context: ScanContext? = nil
        /// `ruleId family path` of each finding, in report order.
        var expected: [String]
        var testDescription: String { "\(name) \(context.map { "\($0)" } ?? "auto"): \(expected)" }
    }

    static let token = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1"
    static let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLWZha2UtMDEyMzQ1Njc4OQ"

    static func check(_ row: Row) {
        var options = ScanOptions()
        options.context = row.context
        let result = TestSupport.scan(row.text, name: row.name, options: options)
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.path)" } == row.expected)
    }

    /// One secret, one finding: the bearer rule and the GitHub rule on the same token.
    @Test(arguments: [
        Row(text: #"{"authorization": "Bearer \#(token)"}"#, expected: ["secret.github-token secret /authorization"]),
        Row(text: #"{"authorization": "\#(token)", "note": "\#(token)"}"#,
            expected: ["secret.github-token secret /authorization", "secret.github-token secret /note"]),
    ])
    func oneSecretOneFinding(_ row: Row) { Self.check(row) }

    /// The innermost layer wins: a JWT in a URL and again in its query parameter.
    @Test(arguments: [
        Row(text: #"{"link": "https://x.example/cb?token=\#(jwt)"}"#, expected: ["secret.jwt secret /link!query/token"]),
        Row(text: #"{"link": "\#(jwt)"}"#, expected: ["secret.jwt secret /link"]),
    ])
    func theInnermostLayerWins(_ row: Row) { Self.check(row) }

    /// A value hit beats a name hit on the same value: the pattern says more than the name.
    @Test(arguments: [
        Row(text: #"{"password": "\#(token)"}"#, expected: ["secret.github-token secret /password"]),
        Row(text: #"{"password": "Tr0ub4dor-3xK9q-Lm2zP"}"#, expected: ["name.password secret /password"]),
    ])
    func aValueHitBeatsANameHit(_ row: Row) { Self.check(row) }

    /// A name on a value that is no secret fails closed in sync data only.
    @Test(arguments: [
        Row(text: #"{"apiKey": ""}"#, expected: []),
        Row(text: #"{"apiKey": ""}"#, context: .sync, expected: ["name.api-key policy /apiKey"]),
    ])
    func aNameOnNoSecretCountsInSyncOnly(_ row: Row) { Self.check(row) }

    /// A salt is password-verifier material beside its iterations only.
    @Test(arguments: [
        Row(text: #"{"salt": "c2FsdC1mYWtlLTAxMjM0NTY3ODk="}"#, context: .sync, expected: []),
        Row(text: #"{"salt": "c2FsdC1mYWtlLTAxMjM0NTY3ODk=", "iterations": 310000}"#, expected: ["name.password-verifier secret /salt"]),
    ])
    func aSaltNeedsItsIterations(_ row: Row) { Self.check(row) }

    /// A store and what it holds: a pattern on the value beats the store; a store that holds
    /// a value is a secret-family finding, an empty one is policy in sync and nothing elsewhere;
    /// in secure storage the store is allowed and the name rule judges the plaintext.
    @Test(arguments: [
        Row(text: #"{"flutter.classly_token": "\#(token)"}"#, expected: ["secret.github-token secret /flutter.classly_token"]),
        Row(text: #"{"flutter.classly_token": "opaque-session-value-123"}"#, expected: ["inventory.sensitive-store secret /flutter.classly_token"]),
        Row(text: #"{"flutter.classly_token": ""}"#, context: .sync, expected: ["inventory.sensitive-store policy /flutter.classly_token"]),
        Row(text: #"{"flutter.classly_token": ""}"#, expected: []),
        Row(name: "FlutterSecureStorage.xml",
            text: "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"\(FlutterPrefsEncoding.secureStoragePrefix)_classly_token\">opaque-session-value-123</string>\n</map>\n",
            expected: ["name.token secret /\(FlutterPrefsEncoding.secureStoragePrefix)_classly_token"]),
    ])
    func aStoreAndWhatItHolds(_ row: Row) { Self.check(row) }

    /// The contract governs sync data only.
    @Test(arguments: [
        Row(text: #"{"schemaVersion": 2, "entityId": "habit/h1", "deleted": false, "payload": {"id": "h1"}}"#,
            expected: ["contract.required-field policy ", "contract.schema-version policy "]),
        Row(text: #"{"schemaVersion": 2, "entityId": "habit/h1", "deleted": false, "payload": {"id": "h1"}}"#, context: .backup, expected: []),
    ])
    func theContractGovernsSyncDataOnly(_ row: Row) { Self.check(row) }

    /// A pattern hit's message, written into a string of its size, reads as the interpolation
    /// it replaced, with a key and without one, with UTF-8, quotes and empty parts.
    @Test(arguments: [
        ("GitHub token", "token", "ghp_…(40 characters)"),
        ("Bearer token in text", nil, "40 characters"),
        ("Clé d’API", "clé 'x'", "ü ∑ 🔑"),
        ("", "", ""),
        ("t", nil, ""),
    ] as [(String, String?, String)])
    func patternMessageIsTheInterpolation(title: String, key: String?, preview: String) {
        let under = key.map { " under '\($0)'" } ?? ""
        #expect(ArtifactScan.patternMessage(title: title, key: key, preview: preview) == "\(title)\(under) (\(preview)).")
    }
}
