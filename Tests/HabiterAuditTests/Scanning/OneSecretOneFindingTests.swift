@testable import AuditCore
@testable import AuditReport
@testable import AuditScan
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

    /// A password with a percent-escape in a form is one secret read two ways: escaped by the
    /// text rule on the body, unescaped by the name rule on its `!form` pair. It is one finding,
    /// as it is when nothing in it is escaped.
    @Test func anEscapedSecretAndItsUnescapedReadingAreOneFinding() {
        for password in ["Xk9%23mQ2vLp7Rw", "Xk9mQ2vLp7Rw"] {
            #expect(Self.findings("user=alice&password=\(password)") == ["secret.password-in-text /note!form/password"])
        }
    }

    /// Two secrets of one rule in one value are two findings (DESIGN.md: one finding per
    /// distinct secret); the same secret twice is one.
    @Test func twoSecretsInOneValueAreTwoFindings() {
        let a = "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", b = "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"
        #expect(Self.findings("rotated \(a) to \(b)") == ["secret.github-token /note", "secret.github-token /note"])
        #expect(Self.findings("\(a), again \(a)") == ["secret.github-token /note"])
    }

    @Test func aFormPairKeepsItsOwnPath() {
        // The token request body: the verifier is reported on its pair, not also on the body.
        let found = Self.findings("grant_type=authorization_code&code=c1&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(found == ["name.pkce-verifier /note!form/code_verifier"])
    }
}

/// Issue 20's class 10: one secret, one finding per request. A HAR entry carries a cookie in
/// `Set-Cookie` and in `cookies[]`, a form in `postData.text` and `postData.params`, a query in
/// the URL and in `queryString[]`: each secret is one finding, the other places its related
/// locations; the summary counts the requests a secret appears in.
@Suite struct OneSecretPerRequestTests {
    static let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIiwiaWF0IjoxNzY0NTQ3MjAwfQ.Xp3X2mV6YH4mQ1fJ8u3mWkzQbqRv6NnTq9t2cL0e7Hc"
    static let session = "Kq8vT2xR9mK4wZ7pN1cF6hJ3sL5dG0bY"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk8"

    static func entry(_ url: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                      form: [(String, String)]? = nil, setCookie: (String, String)? = nil) -> String {
        func pairs(_ list: [(String, String)]) -> String { list.map { #"{"name": "\#($0.0)", "value": "\#($0.1)"}"# }.joined(separator: ", ") }
        let post = form.map { f in
            #", "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "\#(f.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))", "params": [\#(pairs(f))]}"#
        } ?? ""
        let responseHeaders = setCookie.map { pairs([("set-cookie", "\($0.0)=\($0.1); Path=/; Secure; HttpOnly")]) } ?? ""
        let cookies = setCookie.map { pairs([$0]) } ?? ""
        return #"{"request": {"method": "\#(form == nil ? "GET" : "POST")", "url": "\#(url)", "headers": [\#(pairs(headers))], "queryString": [\#(pairs(query))], "cookies": []\#(post)}, "response": {"status": 200, "headers": [\#(responseHeaders)], "cookies": [\#(cookies)], "content": {"size": 0, "mimeType": "text/plain", "text": ""}}}"#
    }

    static func har(_ entries: [String]) -> String {
        #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [\#(entries.joined(separator: ", "))]}}"#
    }

    @Test func eachPlaceOfASecretInOneRequestIsOneFinding() {
        let capture = Self.har([
            Self.entry("https://app.example.net/login", setCookie: ("sessionid", Self.session)),
            Self.entry("https://app.example.net/oauth/token", form: [("grant_type", "authorization_code"), ("code_verifier", Self.verifier)]),
            Self.entry("https://app.example.net/share?token=\(Self.jwt)", query: [("token", Self.jwt)]),
        ])
        let findings = TestSupport.scan(capture, name: "session.har").findings
        #expect(findings.count == 3, "\(findings.map { "\($0.ruleId) \($0.pathText)" })")
        for finding in findings {
            #expect(finding.relatedLocations.count == 1, "\(finding.ruleId) \(finding.pathText)")
            #expect(finding.relatedLocations.allSatisfy { $0.pathText != finding.pathText })
        }
        #expect(findings.first { $0.ruleId == "secret.jwt" }?.relatedLocations.first?.pathText.contains("queryString") == true
                || findings.first { $0.ruleId == "secret.jwt" }?.pathText.contains("queryString") == true)
    }

    @Test func theSameTokenInEveryRequestIsOneFindingEachAndCounted() {
        let requests = (1...4).map { Self.entry("https://sync.example.net/v\($0)/items", headers: [("Authorization", "Bearer \(Self.jwt)")]) }
        let result = TestSupport.scan(Self.har(requests), name: "session.har")
        #expect(result.findings.count == 4)
        #expect(result.findings.allSatisfy { $0.relatedLocations.isEmpty })
        let input = ReportInput(result: ScanResult(findings: result.findings, errors: [], artifacts: [], inventory: []), rules: TestSupport.builtinPack.rules, exitCode: 1, failOn: .error)
        #expect(TextReport.summaryLine(input).contains("repeated across requests: 1 secret.jwt in 4 requests"))
    }

    @Test func aSecretInTwoPlacesKeepsTheMostSevereFinding() {
        // A transport header and a body that is no protocol field: the error stands.
        let capture = Self.har([
            Self.entry("https://app.example.net/v1/notes", headers: [("Authorization", "Bearer \(Self.jwt)")],
                       form: [("note", "my token is \(Self.jwt)")]),
        ])
        let findings = TestSupport.scan(capture, name: "notes.har").findings
        #expect(findings.count == 1)
        #expect(findings.first?.level == .error, "\(findings.map { "\($0.ruleId) \($0.level)" })")
    }

    @Test func sarifAndJSONCarryTheRelatedLocations() throws {
        let capture = Self.har([Self.entry("https://app.example.net/login", setCookie: ("sessionid", Self.session))])
        let result = TestSupport.scan(capture, name: "session.har")
        let input = ReportInput(result: ScanResult(findings: result.findings, errors: [], artifacts: [], inventory: []), rules: TestSupport.builtinPack.rules, exitCode: 1, failOn: .error)
        let sarif = SARIFReport.render(input)
        #expect(sarif.contains("\"relatedLocations\""))
        #expect(sarif.contains("The same secret, again in this request."))
        #expect(JSONReport.render(input).contains("\"relatedLocations\""))
        #expect(!sarif.contains(Self.session) && !JSONReport.render(input).contains(Self.session))
    }

    @Test func outsideARequestRepeatsStaySeparate() {
        let text = #"{"notes": ["token \#(Self.jwt)", "again \#(Self.jwt)"]}"#
        #expect(TestSupport.scan(text).findings.count == 2)
    }
}
