@testable import AuditDetection
import Testing

/// PKCE verifiers paired with the challenges of the same input (RFC 7636, appendix B vector).
@Suite struct PKCEPairingTests {
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func s256OfTheRFCVector() {
        let computed = Array(Self.verifier.utf8).withUnsafeBytes { PKCEPairing.challenge(of: $0) }
        #expect(String(decoding: computed, as: UTF8.self) == Self.challenge)
    }

    static func capture(challenge: String?) -> String {
        let authorize = challenge.map { #"{"url": "https://auth.habiter.app/authorize?response_type=code&code_challenge=\#($0)&code_challenge_method=S256"},"# } ?? ""
        return #"[\#(authorize) {"body": "grant_type=authorization_code&code=c1&code_verifier=\#(verifier)"}]"#
    }

    @Test func aVerifierWhoseChallengeWasCapturedIsReportedAsAPair() {
        let finding = TestSupport.scan(Self.capture(challenge: Self.challenge)).findings.first { $0.ruleId == "name.pkce-verifier" }
        #expect(finding?.message.hasSuffix("It pairs with a code_challenge (S256) in this input: the capture holds a complete PKCE exchange.") == true)
        #expect(finding?.confidence == .high)
        #expect(finding?.message.contains(Self.verifier) == false)
    }

    @Test(arguments: [nil, "Z9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"])
    func withoutItsChallengeAVerifierIsNotPaired(_ challenge: String?) {
        let finding = TestSupport.scan(Self.capture(challenge: challenge)).findings.first { $0.ruleId == "name.pkce-verifier" }
        #expect(finding != nil)
        #expect(finding?.message.contains("pairs") == false)
        #expect(finding?.confidence == .medium)
    }
}
