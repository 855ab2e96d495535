@testable import AuditReport
import Foundation
import Testing

/// A secret found by several rules, or in several layers of one value, is reported once: on its
/// innermost layer, by a pattern rather than a name, by a vendor rule rather than a generic one.
@Suite struct OneSecretOneFindingTests {
    static func findings(_ value: String) -> [String] {
        let text = "{\"note\": " + String(JSONOutput.string(value).renderedOnOneLine()) + "}"
        return TestSupport.scan(text).findings.map { "\($0.ruleId) \($0.path)" }
    }

    @Test func aVendorRuleWinsOverTheGenericBearerRule() {
        #expect(Self.findings("Authorization: Bearer glsa_mBvIeocUvou1PCGrXMqMfMuJ6NJxcrcU_75d0aaa2") == ["secret.grafana-token /note"])
        // A JWT is more than "a bearer token".
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIiwiaWF0IjoxNzY0NTQ3MjAwfQ.Xp3X2mV6YH4mQ1fJ8u3mWkzQbqRv6NnTq9t2cL0e7Hc"
        #expect(Self.findings("Bearer \(jwt)") == ["secret.jwt /note"])
    }

    @Test func anEnvironmentAssignmentIsScannedAsTextToo() {
        // Read as a one-pair form, `+` would decode to a space and break the token.
        let token = "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"
        // The vendor rule names it; the pair gives it its name and path.
        #expect(Self.findings("SENTRY_AUTH_TOKEN=\(token)") == ["secret.sentry-org-token /note!form/SENTRY_AUTH_TOKEN"])
        let aws = "AWS_SECRET_ACCESS_KEY=TGhKGVmdKc4XQuN6XEMej+tFFg3Nc2W1CdTB0WKS"
        #expect(Self.findings(aws) == ["secret.aws-secret-access-key /note!form/AWS_SECRET_ACCESS_KEY"])
    }

    @Test func aSASQueryOnItsOwnIsFound() {
        let sas = "sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-12-31T23:59:59Z&st=2025-12-01T00:00:00Z&spr=https&sig=yqzanQEnFTBl7ZxHNVLgn1C2qL36XA46Ga7JtQMa1YA%3D"
        #expect(Self.findings(sas) == ["secret.azure-sas-token /note"])
    }

    @Test func aCredentialInAURLIsOneFinding() {
        let found = Self.findings("postgres://habiter_app:OvnA4Ho6My3RqG!Y81G@db.internal.habiter.app:5432/habiter")
        #expect(found.count == 1, "\(found)")
    }

    @Test func aPatternOrALayerUnderASensitiveNameSaysMoreThanTheName() {
        let github = "ghp_eN4QrCIu1isc4UxdJDJmATl4GjUQg1AoeaSY"
        func found(_ text: String) -> [String] { TestSupport.scan(text).findings.map { "\($0.ruleId) \($0.path)" } }
        // A pattern on the value itself.
        #expect(found(#"{"apiToken": "\#(github)"}"#) == ["secret.github-token /apiToken"])
        // A hit inside a layer of the value: JSON text, then a base64 one.
        #expect(found(#"{"apiToken": "{\"inner\": \"\#(github)\"}"}"#) == ["secret.github-token /apiToken!json/inner"])
        let encoded = Data(#"{"inner": "\#(github)"}"#.utf8).base64EncodedString()
        #expect(found(#"{"apiToken": "\#(encoded)"}"#) == ["secret.github-token /apiToken!base64!json/inner"])
        // Nothing found in the value: the name judges it.
        #expect(found(#"{"apiToken": "Zq8vN3xL0pR5tW2yB7cD4fG9hJ1kM6nQ"}"#).map { $0.hasPrefix("name.") } == [true])
    }

    @Test func aFormPairKeepsItsOwnPath() {
        // The token request body: the verifier is reported on its pair, not also on the body.
        let found = Self.findings("grant_type=authorization_code&code=c1&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(found == ["name.pkce-verifier /note!form/code_verifier"])
    }
}
