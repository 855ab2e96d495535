@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditScan
import Foundation
import Testing

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.family.rawValue)/\(f.level.rawValue) \(f.context.rawValue) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

/// The fixtures of `Fixtures/signin/`, written by `make-fixtures.py` the way the app and its
/// server write (routes under the origin, camelCase sign-in bodies, the fragment callback).
enum SignInFixtures {
    static let directory = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/signin")
    static let relative = "Tests/HabiterAuditTests/Fixtures/signin"

    static func bytes(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)!)
    }

    static func scan(_ name: String, options: ScanOptions = ScanOptions()) -> (findings: [Finding], errors: [InputError]) {
        let result = TestSupport.scan(bytes: bytes(name), name: name, options: options)
        return (result.findings, result.errors)
    }
}

/// The app's calls as a capture shows them: sync calls by path suffix, the sign-in as transport.
@Suite struct SignInCaptureTests {
    /// The whole desktop sign-in gives transport warnings only, each at its member.
    @Test func aRealSignInGivesTransportWarningsOnly() {
        let result = SignInFixtures.scan("sign-in-desktop.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.password-verifier transport/warning payload 410:21 /log/entries/2/response/content/text!json/salt key=salt",
            "name.password-verifier transport/warning payload 504:21 /log/entries/3/request/postData/text!json/proof key=proof",
            "name.authorization-response transport/warning payload 597:18 /log/entries/4/request/url!fragment/code key=code",
            "name.authorization-response transport/warning payload 597:18 /log/entries/4/request/url!fragment/state key=state",
            "name.authorization-response transport/warning payload 750:21 /log/entries/5/request/postData/text!form/code key=code",
            "name.authorization-response transport/warning payload 750:21 /log/entries/5/request/postData/text!form/state key=state",
            "name.pkce-verifier transport/warning payload 840:21 /log/entries/6/request/postData/text!json/codeVerifier key=codeVerifier",
            "secret.habiter-access-token transport/warning payload 901:21 /log/entries/6/response/content/text!json/accessToken key=accessToken",
            "name.refresh-token transport/warning payload 901:21 /log/entries/6/response/content/text!json/refreshToken key=refreshToken",
            "secret.habiter-access-token transport/warning payload 954:24 /log/entries/7/request/headers/4/value key=authorization",
        ])
    }

    /// The verifier in the camelCase token body pairs with the `code_challenge` of the authorize
    /// URL's query: a complete exchange, at high confidence.
    @Test func theCamelCaseVerifierPairsWithTheAuthorizeURLsChallenge() {
        let verifier = SignInFixtures.scan("sign-in-desktop.har").findings.first { $0.ruleId == "name.pkce-verifier" }
        #expect(verifier?.confidence == .high)
        #expect(verifier?.message.contains("pairs with a code_challenge (S256)") == true)
    }

    /// With the default gate the sign-in capture passes (its findings are warnings); it fails
    /// with `--fail-on warning`.
    @Test func theGatePassesASignInCaptureAndFailsItOnWarnings() {
        let path = SignInFixtures.directory.appendingPathComponent("sign-in-desktop.har").path
        #expect(TestSupport.runCLI(["scan", "--no-config", "-q", path]).status == 0)
        #expect(TestSupport.runCLI(["scan", "--no-config", "-q", "--fail-on", "warning", path]).status == 1)
    }

    /// Forced into sync context, the sign-in's protocol fields (`tokenType`, the capabilities'
    /// `authorizationCode: true`) are not fail-closed names; its credentials stay transport.
    @Test func forcedSyncContextDoesNotFlagTheSignInsProtocolFields() {
        var options = ScanOptions()
        options.context = .sync
        let findings = SignInFixtures.scan("sign-in-desktop.har", options: options).findings
        #expect(findings.count == 10)
        #expect(findings.allSatisfy { $0.family == .transport })
        #expect(!findings.contains { $0.key == "tokenType" })
        let sync = SignInFixtures.scan("sync-session.har", options: options).findings
        #expect(!sync.contains { $0.key == "tokenType" || $0.key == "authorizationCode" })
    }

    /// A sync session with credentials: the Bearer headers and the refresh are transport; push,
    /// pull and snapshot are sync data, the other calls not.
    @Test func aSyncSessionGivesTransportForItsCredentials() {
        let result = SignInFixtures.scan("sync-session.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "secret.habiter-access-token transport/warning payload 156:24 /log/entries/1/request/headers/4/value key=authorization",
            "secret.habiter-access-token transport/warning sync 279:24 /log/entries/2/request/headers/5/value key=authorization",
            "secret.habiter-access-token transport/warning sync 402:24 /log/entries/3/request/headers/4/value key=authorization",
            "secret.habiter-access-token transport/warning sync 526:24 /log/entries/4/request/headers/4/value key=authorization",
            "secret.habiter-access-token transport/warning sync 654:24 /log/entries/5/request/headers/4/value key=authorization",
            "name.refresh-token transport/warning payload 782:21 /log/entries/6/request/postData/text!json/refreshToken key=refreshToken",
            "secret.habiter-access-token transport/warning payload 843:21 /log/entries/6/response/content/text!json/accessToken key=accessToken",
            "name.refresh-token transport/warning payload 843:21 /log/entries/6/response/content/text!json/refreshToken key=refreshToken",
            "secret.habiter-access-token transport/warning payload 900:24 /log/entries/7/request/headers/5/value key=authorization",
        ])
    }

    /// The same session exported sanitized (no Authorization headers, no refresh) holds nothing
    /// but sync data the app may send: no finding, the contract's included.
    @Test func theCleanSyncSessionGivesNoFindings() {
        let result = SignInFixtures.scan("sync-session-sanitized.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [])
    }

    /// The same verifier, proof, login challenge, token and callback pasted into a log (no call
    /// of the sign-in) are secrets.
    @Test func theSameValuesElsewhereAreSecrets() {
        let result = SignInFixtures.scan("sign-in-values.json")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.password-verifier secret/error payload 9:18 /entries/0/context/proof key=proof",
            "name.pkce-verifier secret/error payload 16:25 /entries/1/context/codeVerifier key=codeVerifier",
            "secret.habiter-access-token secret/error payload 23:20 /entries/2/context/session key=session",
            "name.password-verifier secret/error payload 31:17 /entries/3/context/salt key=salt",
            "name.authorization-response secret/error payload 38:14 /entries/4/url!fragment/code key=code",
            "name.authorization-response secret/error payload 38:14 /entries/4/url!fragment/state key=state",
        ])
    }

    /// The sign-in capture redacts to a copy with nothing left to report.
    @Test func theSignInCaptureRedactsClean() throws {
        let result = try RedactFixtures.redact(SignInFixtures.bytes("sign-in-desktop.har"), name: "sign-in-desktop.har")
        #expect(RedactFixtures.secretFindings(result.output, name: "redacted.har").findings.isEmpty)
        #expect(RedactFixtures.holds(result.output, "callback#code=%5BREDACTED%3Aauthorization-response%5D&state="))
    }

    static func har(_ entries: [(method: String, url: String, body: String?, response: String?)]) -> String {
        let rendered = entries.map { entry in
            let post = entry.body.map { #", "postData": {"mimeType": "application/json", "text": \#(RuleExampleTests.jsonString($0))}"# } ?? ""
            let content = entry.response.map { #"{"mimeType": "application/json", "text": \#(RuleExampleTests.jsonString($0))}"# } ?? "{}"
            return #"{"request": {"method": "\#(entry.method)", "url": "\#(entry.url)", "headers": []\#(post)}, "response": {"status": 200, "content": \#(content)}}"#
        }
        return #"{"log": {"version": "1.2", "entries": ["# + rendered.joined(separator: ",\n") + "]}}"
    }

    static let verifier = "Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPeAz3Kx8Wn2Lb6Hv0Tq4Rs9Dm1Fj7Gk5Py2Ce8Nu3Xw6Zi0Mo4Ba9"
    static let refresh = "Rf7Hs2Bf9Jg4Ua6EiZ1Qk3vT8xLmWd4Hs8Bf2Jg6Ua0"
    static let pair = #"{"tokenType":"Bearer","accessToken":"Ak2vT8xLm4Rz7WcYp1Nd5Hs9Bf3Jg6UaQ0","expiresIn":300,"deviceId":"Zq8vN3xL0pR5tW2yB7cD4fG9","refreshToken":"\#(refresh)","refreshExpiresAt":"2026-12-31T09:30:09.000Z"}"#

    /// A self-hosted origin with a path prefix: the calls are recognised by the end of their
    /// path, with or without a query.
    @Test func callsAreRecognisedByTheirPathSuffix() {
        let text = Self.har([
            ("POST", "https://home.example.net/habiter/v1/token", #"{"grantType":"authorization_code","code":"c","codeVerifier":"\#(Self.verifier)","redirectUri":"https://mobile.habiter.dev/auth/callback","attemptId":"a1"}"#, Self.pair),
            ("GET", "https://home.example.net/habiter/v1/pull?limit=100", nil, #"{"operations":[],"cursor":"x","apiKey":""}"#),
            ("GET", "https://home.example.net/habiter/v1/pullover", nil, #"{"apiKey":""}"#),
        ])
        let result = TestSupport.scan(text, name: "prefixed.har")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.context.rawValue) \($0.path)" } == [
            "name.pkce-verifier transport payload /log/entries/0/request/postData/text!json/codeVerifier",
            "name.token transport payload /log/entries/0/response/content/text!json/accessToken",
            "name.refresh-token transport payload /log/entries/0/response/content/text!json/refreshToken",
            "name.api-key policy sync /log/entries/1/response/content/text!json/apiKey",
        ])
    }

    /// A call the app's routes do not name (a gateway that rewrites paths) shows the sign-in by
    /// its bodies: the camelCase token request and response, the login challenge and proof.
    @Test func theSignInIsRecognisedByItsBodies() {
        let text = Self.har([
            ("POST", "https://gw.example.net/api/exchange", #"{"grantType":"refresh_token","refreshToken":"\#(Self.refresh)"}"#, nil),
            ("POST", "https://gw.example.net/api/exchange", nil, Self.pair),
            ("POST", "https://gw.example.net/api/login", #"{"action":"complete","csrf":"VJmN19e4QGXrd5yUlhuCXYxw","challengeId":"tHiSHXE-QYaSczbytLBzPEAa","proof":"WANbmfc2Lk8Jh3Gf6Dw1Sa5Rt0YuIoPeAz3Kx8Wn2Lb"}"#, nil),
            ("POST", "https://gw.example.net/api/login", nil, #"{"challengeId":"tHiSHXE-QYaSczbytLBzPEAa","salt":"-_MW3vBStFaoetiSfFa85A","iterations":600000,"expiresAt":"2026-12-01T09:35:02.000Z"}"#),
        ])
        let findings = TestSupport.scan(text, name: "gateway.har").findings
        #expect(findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.path)" } == [
            "name.refresh-token transport /log/entries/0/request/postData/text!json/refreshToken",
            "name.token transport /log/entries/1/response/content/text!json/accessToken",
            "name.refresh-token transport /log/entries/1/response/content/text!json/refreshToken",
            "name.password-verifier transport /log/entries/2/request/postData/text!json/proof",
            "name.password-verifier transport /log/entries/3/response/content/text!json/salt",
        ])
    }

    /// A body of a sync call is sync data even when it holds what a sign-in body holds.
    @Test func aSyncCallIsNeverTakenForTheSignIn() {
        let text = Self.har([("POST", "https://sync.example.org/v1/push", #"{"operations":[],"grantType":"refresh_token","refreshToken":"\#(Self.refresh)"}"#, nil)])
        // (The contract also refuses the push body's unknown keys.)
        let findings = TestSupport.scan(text, name: "push.har").findings.filter { !$0.ruleId.hasPrefix("contract.") }
        #expect(findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.context.rawValue)" } == ["name.refresh-token secret sync"])
    }

    /// `/v1/sync/` stays a default marker (captures of earlier test servers); `syncPaths` in the
    /// configuration replaces it; no marker makes the app's sign-in or metadata calls sync data.
    @Test func pathMarkersStillWorkButNeverOverrideTheAppsRoutes() {
        let text = Self.har([
            ("POST", "https://sync.habiter.app/v1/sync/push", #"{"apiKey":""}"#, nil),
            ("POST", "https://sync.example.org/api/v2/sync/upload", #"{"apiKey":""}"#, nil),
            ("POST", "https://sync.example.org/v1/token", nil, Self.pair),
            ("GET", "https://sync.example.org/v1/capabilities", nil, #"{"authentication":{"authorizationCode":true}}"#),
        ])
        let contexts = { (options: ScanOptions) in
            TestSupport.scan(text, name: "markers.har", options: options).findings.map { "\($0.ruleId) \($0.context.rawValue) \($0.path.description.prefix(14))" }
        }
        #expect(contexts(ScanOptions()) == [
            "name.api-key sync /log/entries/0",
            "name.token payload /log/entries/2",
            "name.refresh-token payload /log/entries/2",
        ])
        #expect(contexts(ScanOptions(syncPathMarkers: ["/api/v2/sync/", "/v1/"])) == [
            "name.api-key sync /log/entries/0",
            "name.api-key sync /log/entries/1",
            "name.token payload /log/entries/2",
            "name.refresh-token payload /log/entries/2",
        ])
    }

    /// Raw HTTP messages (`.http` files, proxy saves) follow the same routes and shapes.
    @Test func rawHTTPSignInIsTransport() {
        let challenge = String(decoding: Array(Self.verifier.utf8).withUnsafeBytes { PKCEPairing.challenge(of: $0) }, as: UTF8.self)
        let text = """
        GET https://sync.example.org/v1/authorize?response_type=code&code_challenge=\(challenge)&state=s HTTP/1.1

        ###

        POST https://sync.example.org/v1/token HTTP/1.1
        content-type: application/json; charset=utf-8

        {"grantType":"authorization_code","code":"c","codeVerifier":"\(Self.verifier)","redirectUri":"http://localhost:43823/callback","attemptId":"a1"}

        ###

        POST http://localhost:43823/complete HTTP/1.1
        Content-Type: text/plain

        code=I5jkLzzPGBdJEIh9TQpyxbLwiOyIcIiFewluMW4_PMc&state=VJmN19e4QGXrd5yUlhuCXYxwB7i7RE_03S7jbAhmn1c
        """
        let result = TestSupport.scan(text, name: "sign-in.http")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.pkce-verifier transport/warning payload 8:61 /entries/1/request/postData/text!json/codeVerifier key=codeVerifier",
            "name.authorization-response transport/warning payload 15:1 /entries/2/request/postData/text!form/code key=code",
            "name.authorization-response transport/warning payload 15:1 /entries/2/request/postData/text!form/state key=state",
        ])
        #expect(result.findings.first?.confidence == .high)
    }

    /// The app's own sensitive-name rule still holds in sync data: `tokenType` in a payload fails
    /// closed.
    @Test func tokenTypeInSyncDataStillFailsClosed() {
        let push = #"{"operations":[{"protocolVersion":1,"operationId":"operation/d1/1","kind":"create","revision":{"deviceId":"d1","sequence":1},"document":{"schemaVersion":1,"entityId":"setting/theme","deleted":false,"payload":{"value":"dark","tokenType":"Bearer"}},"changedFields":["value"],"changedMetadataFields":[]}]}"#
        let findings = TestSupport.scan(push, name: "push.json").findings
        #expect(findings.contains { $0.ruleId == "name.token" && $0.key == "tokenType" && $0.family == .policy })
    }
}

/// Password-verifier material outside the sign-in.
@Suite struct PasswordVerifierTests {
    @Test func aSaltCountsOnlyBesideItsIterations() {
        let verifier = #"{"version":1,"algorithm":"PBKDF2-HMAC-SHA-256+A256GCM","salt":"-_MW3vBStFaoetiSfFa85A","iterations":600000}"#
        #expect(TestSupport.scan(verifier).findings.map { "\($0.ruleId) \($0.path)" } == ["name.password-verifier /salt"])
        // A baseline's salt, a salt with no iterations, an iterations count without a salt.
        let baseline = #"{"baselineFormat": 1, "salt": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "findings": []}"#
        #expect(TestSupport.scan(baseline).findings.isEmpty)
        #expect(TestSupport.scan(#"{"cache": {"salt": "-_MW3vBStFaoetiSfFa85A"}, "iterations": 3}"#).findings.isEmpty)
        // In sync data the salt with no iterations is no fail-closed name either.
        var sync = ScanOptions()
        sync.context = .sync
        #expect(TestSupport.scan(#"{"salt": ""}"#, options: sync).findings.isEmpty)
    }

    /// The server's setup body: the PBKDF2-derived password key and its salt.
    @Test func theSetupBodyIsVerifierMaterial() {
        let setup = #"{"username":"mia.k","passwordKey":"Jg4Ua6EiZ1Qk3vT8xLmWd4Hs8Bf2Jg6Ua0Rf7Hs2Bf9","salt":"-_MW3vBStFaoetiSfFa85A","iterations":600000}"#
        #expect(TestSupport.scan(setup).findings.map { "\($0.ruleId) \($0.key ?? "")" } == [
            "name.password-verifier passwordKey", "name.password-verifier salt",
        ])
    }
}

/// An OAuth authorization response written as a form is known by its decoded names: one
/// `state` with one non-empty `code`, or with an `access_token` or `id_token`. Names are
/// percent-decoded (only those that may decode to one of the four are).
@Suite struct AuthorizationResponseTests {
    @Test(arguments: [
        ("code=abcdef&state=xyz", true), ("%63ode=abcdef&%73tate=xyz", true), ("st%61te=xyz&c%6Fde=abcdef", true),
        ("state=xyz&access_token=t", true), ("state=xyz&%69d_token=t", true), ("field=1&state=xyz&code=abcdef&other=2", true),
        ("code=&state=xyz&x=1", false), ("state=1&state=2&code=abcdef", false), ("Code=abcdef&state=xyz", false),
        ("fcode=abcdef&state=xyz", false), ("state=xyz&+code=abcdef", false), ("code=abcdef&code=ghijk&state=x", false),
        ("state=xyz&other=abcdef", false),
    ])
    func aFormIsAnAuthorizationResponse(_ text: String, _ isResponse: Bool) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { HabiterAPI.isAuthorizationResponseText($0) } == isResponse, "\(text)")
    }
}
