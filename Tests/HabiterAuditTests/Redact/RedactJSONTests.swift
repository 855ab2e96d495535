import Foundation
@testable import HabiterAudit
import Testing

private typealias F = RedactFixtures

/// JSON and NDJSON: what is replaced (whole value, secret span, JSON held in a string, keys),
/// what is left alone, and that the rest of the text is copied byte for byte.
@Suite struct RedactJSONTests {
    @Test func nameRuleReplacesTheWholeCredibleValue() throws {
        let input = #"{"user": "lena", "password": "\#(F.password)"}"#
        let result = try F.redact(input, name: "config.json")
        expectText(result.output, equals: #"{"user": "lena", "password": "[REDACTED:password]"}"#)
        #expect(result.replacements == ["name.password": 1])
        #expect(result.format == "json")
        expectClean(result, leaking: [F.password])
    }

    /// A value judged by its sibling name (`NameValuePairs`), in either order, is replaced
    /// whole; the name and the pairs that hold no secret stay.
    @Test func aValueJudgedByItsSiblingNameIsReplaced() throws {
        let input = #"{"env": [{"name": "DB_PASSWORD", "value": "\#(F.password)"}, {"value": "\#(F.password)", "key": "password"}, {"name": "LOG_LEVEL", "value": "debug"}]}"#
        let result = try F.redact(input, name: "deployment.json")
        expectText(result.output, equals: #"{"env": [{"name": "DB_PASSWORD", "value": "[REDACTED:password]"}, {"value": "[REDACTED:password]", "key": "password"}, {"name": "LOG_LEVEL", "value": "debug"}]}"#)
        #expect(result.replacements == ["name.password": 2])
        expectClean(result, leaking: [F.password])
    }

    @Test func patternRuleReplacesOnlyTheSecretSpan() throws {
        let input = #"{"note": "moved the token \#(F.github) to the vault, Authorization: Bearer \#(F.jwt) too"}"#
        let result = try F.redact(input)
        expectText(result.output, equals: #"{"note": "moved the token [REDACTED:github-token] to the vault, Authorization: Bearer [REDACTED:jwt] too"}"#)
        expectClean(result, leaking: [F.github, F.jwt])
    }

    @Test func bearerSchemeStaysAndAVendorRuleNamesTheSpan() throws {
        let result = try F.redact(#"{"authorization": "Bearer \#(F.jwt)"}"#)
        expectText(result.output, equals: #"{"authorization": "Bearer [REDACTED:jwt]"}"#)
    }

    @Test func formattingOutsideRedactedValuesIsKept() throws {
        let input = "{\n    \"a\" : 1.50e2,\n\t\"b\": [true, null, \"caf\\u00e9\"],\n    \"note\": \"key \(F.aws)\"\r\n}\n"
        let result = try F.redact(input)
        expectText(result.output, equals: "{\n    \"a\" : 1.50e2,\n\t\"b\": [true, null, \"caf\\u00e9\"],\n    \"note\": \"key [REDACTED:aws-access-key-id]\"\r\n}\n")
    }

    @Test func jsonHeldInAStringIsRedactedInsideAndSerialisedBack() throws {
        let inner = #"{"provider": "gemini", "apiKey": "\#(F.google)", "temperature": 0.7}"#
        let escaped = inner.replacingOccurrences(of: "\"", with: "\\\"")
        let result = try F.redact(#"{"coachSettings": "\#(escaped)"}"#)
        let value = try #require(F.jsonString(result.output, at: "/coachSettings"))
        expectText(value, equals: #"{"provider": "gemini", "apiKey": "[REDACTED:google-api-key]", "temperature": 0.7}"#, "the inner JSON")
        expectClean(result, leaking: [F.google])
    }

    @Test func aJWTIsReplacedWholeWhereverItIsFound() throws {
        // In a URL query, as a bare value, and after Bearer in free text.
        let input = #"{"links": ["https://app.example/callback?t=\#(F.jwt)&x=1"], "idToken": "\#(F.jwt)", "log": "retry with bearer \#(F.jwt)"}"#
        let result = try F.redact(input)
        // The scan reports the URL's token on its query parameter, so it is percent-encoded there.
        expectText(result.output, equals: #"{"links": ["https://app.example/callback?t=%5BREDACTED%3Ajwt%5D&x=1"], "idToken": "[REDACTED:jwt]", "log": "retry with bearer [REDACTED:jwt]"}"#)
        expectClean(result, leaking: [F.jwt])
    }

    @Test func aSecretUsedAsAKeyIsReplaced() throws {
        let result = try F.redact(#"{"cacheHits": {"\#(F.github)": 3, "other": 1}}"#)
        expectText(result.output, equals: #"{"cacheHits": {"[REDACTED:github-token]": 3, "other": 1}}"#)
        expectClean(result, leaking: [F.github])
    }

    @Test func oneSecretReportedOnceForTwoLayersIsRedactedInBoth() throws {
        // The scan reports the password once (one secret, one finding), on the query parameter;
        // the re-scan after the first round finds it in the userinfo, and a second round
        // redacts it there.
        let password = "Kiwi-LcKgKX-649"
        let input = #"{"backupTarget": "https://lena:\#(password)@cloud.example/dav?password=\#(password)"}"#
        #expect(F.secretFindings(Array(input.utf8)).findings.count == 1)
        let result = try F.redact(input)
        #expect(result.rounds == 2)
        expectText(result.output, equals: #"{"backupTarget": "https://lena:%5BREDACTED%3Apassword%5D@cloud.example/dav?password=%5BREDACTED%3Apassword-in-text%5D"}"#)
        expectClean(result, leaking: [password])
    }

    @Test func policyOnlyFindingsAreNotRedacted() throws {
        // Sync data: a sensitive-looking name with an empty or placeholder value is a policy
        // finding (the contract fails closed on the name); there is no credential to replace.
        let input = #"{"schemaVersion":1,"entityId":"habit/h1","deleted":false,"payload":{"id":"h1","title":"Run","apiKey":"","syncPassword":"<redacted>"}}"#
        let before = F.secretFindings(Array(input.utf8))
        #expect(before.findings.isEmpty)
        let result = try F.redact(input)
        #expect(result.output == Array(input.utf8))
        #expect(result.replacementCount == 0)
    }

    @Test func aCleanInputComesOutByteIdentical() throws {
        let input = ##"{"id": "5f0c8a0e-8d5b-4a57-9d62-1c2e4b7f9a10", "color": "#FF9800", "cursor": "eyJyZXYiOjQxfQ", "tokenType": "Bearer"}"##
        let result = try F.redact(input)
        #expect(result.output == Array(input.utf8))
        #expect(result.replacementCount == 0)
    }

    @Test func asciiEscapedDocumentsStayAsciiEscaped() throws {
        // mitmproxy writes JSON with ensure_ascii: a rewritten string keeps that style.
        let input = #"{"note": "caf\u00e9 \u2615 token \#(F.github)"}"#
        let result = try F.redact(input)
        expectText(result.output, equals: #"{"note": "caf\u00e9 \u2615 token [REDACTED:github-token]"}"#)
    }

    @Test func ndjsonKeepsOneDocumentPerLineAndEachLineItsOwnPaths() throws {
        let lines = [
            #"{"op": 1, "document": {"payload": {"description": "clean line"}}}"#,
            #"{"op": 2, "document": {"payload": {"description": "uses \#(F.stripe) now"}}}"#,
            #"{"op": 3, "document": {"payload": {"description": "clean again"}}}"#,
            #"{"op": 4, "document": {"payload": {"note": "{\"session\": {\"idToken\": \"\#(F.jwt)\"}}"}}}"#,
        ]
        let input = lines.joined(separator: "\n") + "\n"
        let result = try F.redact(input, name: "oplog.ndjson")
        #expect(result.format == "ndjson")
        let output = F.text(result).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(output.count == 5)
        expectText(output[0], equals: lines[0], "line 1")
        expectText(output[1], equals: #"{"op": 2, "document": {"payload": {"description": "uses [REDACTED:stripe-secret-key] now"}}}"#, "line 2")
        expectText(output[2], equals: lines[2], "line 3")
        expectText(output[3], equals: #"{"op": 4, "document": {"payload": {"note": "{\"session\": {\"idToken\": \"[REDACTED:jwt]\"}}"}}}"#, "line 4")
        expectClean(result, leaking: [F.stripe, F.jwt])
    }

    @Test func aSensitiveStoreHoldingAnObjectHasEveryStringReplaced() throws {
        // The legacy storage backup in sync data: the store is the finding; its strings are
        // replaced, its numbers and booleans kept; the copy's store is a contract violation
        // (policy), not a secret.
        let input = #"{"operations":[{"protocolVersion":1,"operationId":"operation/d1/1","kind":"create","revision":{"deviceId":"d1","sequence":1},"document":{"schemaVersion":1,"entityId":"habit/h1","deleted":false,"payload":{"habiter_storage_backup_v0":{"schemaVersion":0,"createdAt":"2025-10-02T18:22:41.093Z","raw":{"reason":"invalid_color","count":2}}}},"changedFields":["habiter_storage_backup_v0"],"changedMetadataFields":[]}]}"#
        let result = try F.redact(input, name: "push.json")
        let text = F.text(result)
        expectHolds(text, #""habiter_storage_backup_v0":{"schemaVersion":0,"createdAt":"[REDACTED:sensitive-store]","raw":{"reason":"[REDACTED:sensitive-store]","count":2}}"#)
        let copy = TestSupport.scan(text, name: "push.json").findings
        #expect(copy.contains { $0.ruleId == "inventory.sensitive-store" && $0.family == .policy })
        #expect(!copy.contains { $0.family == .secret || $0.family == .transport })
    }
}
