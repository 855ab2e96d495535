@testable import AuditDetection
import Testing

/// Every offline validator with inputs it must accept, reject as a failed check (low confidence)
/// and reject as another format altogether. Tokens here come from `scripts/fake-secret`.
@Suite struct ValidatorTests {
    static func check(_ name: String, _ text: String) -> ValidatorVerdict {
        Array(text.utf8).withUnsafeBytes { Validators.check(name, $0) }
    }

    @Test(arguments: [
        ("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", ValidatorVerdict.valid),
        ("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", .valid),
        // One character of the random part changed: the checksum no longer matches.
        ("ghp_MuJYTC5UZzM7NbDiSMrZQyE6N1mofL2E6p6z", .invalid),
        // The checksum itself changed.
        ("ghp_MuJYTC5UZzM7NbDiSMrZQyE6N1mofK2E6p6y", .invalid),
        ("ghp_MuJYTC5UZzM7NbDiSMrZQyE6N1mofK2E6p6", .notThisFormat),
        ("ghp_MuJYTC5UZzM7NbDiSMrZQyE6N1mofK2E6p6-", .notThisFormat),
        ("ghp-MuJYTC5UZzM7NbDiSMrZQyE6N1mofK2E6p6z", .notThisFormat),
    ])
    func base62CRC32(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("base62-crc32", token) == verdict)
    }

    /// Fine-grained tokens have no published checksum: the structure decides.
    @Test(arguments: [
        ("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", ValidatorVerdict.valid),
        ("github_pat_1zt7PAhr3MN22hy3Wm89mv_hNqBi4iDX9v055Re0YfKnOqqsqtGDAScnB938ol95SfGy3myfAneTXxIk3", .notThisFormat),
        ("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", .notThisFormat),
        ("github_pat_1zt7PAhr3MN22hy3Wm89mv_hNqBi4iDX9v055Re0YfKnOqqsqtGDAScnB938ol95SfGy3myfAneTXxIk3-", .notThisFormat),
    ])
    func fineGrainedGitHubTokens(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("base62-crc32", token) == verdict)
    }

    /// A GitHub App refresh token's long form (`ghr_` and 76 base62 characters): by shape only.
    @Test(arguments: [
        ("ghr_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFRIBXu", ValidatorVerdict.valid),
        ("ghr_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFRIBX-", .notThisFormat),
        ("ghr_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFRIBX", .notThisFormat),
    ])
    func longGitHubRefreshTokens(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("base62-crc32", token) == verdict)
    }

    /// Habiter access tokens (`v1.<claims>.<HMAC-SHA256>`, made like sync-auth's with a fake key).
    static let accessClaims = "eyJ2ZXJzaW9uIjoxLCJpc3N1ZXIiOiJodHRwczovL3N5bmMuZXhhbXBsZS5vcmciLCJhdWRpZW5jZSI6ImhhYml0ZXItbW9iaWxlIiwic3ViamVjdCI6Im1pYS5rIiwiZGV2aWNlSWQiOiJVdkltWmFZTUV0S0pHRjJWRHVpQk5na1ciLCJwYXNzd29yZFZlcnNpb24iOjEsImlzc3VlZEF0IjoxNzk2MTE3NDAwLCJleHBpcmVzQXQiOjE3OTYxMTc3MDAsInRva2VuSWQiOiJiMnNSUFJlTmJBX1RrQl95T2FHZ2xRIn0"

    @Test(arguments: [
        ("v1.\(accessClaims).gImWuSIpeeH6adRLwYlUvT2BzsOM22dcxVAVzn98fhE", ValidatorVerdict.valid),
        // A signature of 31 bytes, and one whose last symbol has trailing bits set.
        ("v1.\(accessClaims).gImWuSIpeeH6adRLwYlUvT2BzsOM22dcxVAVzn98f", .invalid),
        ("v1.\(accessClaims).gImWuSIpeeH6adRLwYlUvT2BzsOM22dcxVAVzn98fhF", .invalid),
        // JSON claims of another shape: `{"cursor":42,"generation":"epoch-a"}`, `{"version":2,…}`.
        ("v1.eyJjdXJzb3IiOjQyLCJnZW5lcmF0aW9uIjoiZXBvY2gtYSJ9.i_18ICNrlRf_1pdtKOFcqXcjx0o-dt1K8eF_zuLFHgk", .invalid),
        ("v1.eyJ2ZXJzaW9uIjoyfQ.i_18ICNrlRf_1pdtKOFcqXcjx0o-dt1K8eF_zuLFHgk", .invalid),
        // Claims that are not a JSON object, another version prefix, a JWT.
        ("v1.eyJub3QganNvbiBhdCBhbGwsIGp1c3QgYnl0ZXM.DzfESSG9P2Vk6t9_FCpyZoxH4iPRbt2MR7Rq_Fuu4mE", .notThisFormat),
        ("v2.\(accessClaims).gImWuSIpeeH6adRLwYlUvT2BzsOM22dcxVAVzn98fhE", .notThisFormat),
        ("eyJhbGciOiJIUzI1NiJ9.\(accessClaims).gImWuSIpeeH6adRLwYlUvT2BzsOM22dcxVAVzn98fhE", .notThisFormat),
    ])
    func habiterAccessTokens(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("habiter-access-token", token) == verdict)
    }

    @Test func base62DigitsFollowTheDigitsUpperLowerOrder() {
        #expect(Validators.base62Digit(UInt8(ascii: "0")) == 0)
        #expect(Validators.base62Digit(UInt8(ascii: "A")) == 10)
        #expect(Validators.base62Digit(UInt8(ascii: "a")) == 36)
        #expect(Validators.base62Digit(UInt8(ascii: "z")) == 61)
        #expect(Validators.base62Digit(UInt8(ascii: "_")) == nil)
    }

    static let pemBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n"

    @Test func pemBlocks() {
        #expect(Self.check("pem", "-----BEGIN PRIVATE KEY-----\n\(Self.pemBody)-----END PRIVATE KEY-----") == .valid)
        // As JSON writers escape it: literal backslash-n sequences.
        let escaped = "-----BEGIN PRIVATE KEY-----\\n" + Self.pemBody.replacingOccurrences(of: "\n", with: "\\n") + "-----END PRIVATE KEY-----\\n"
        #expect(Self.check("pem", escaped) == .valid)
        #expect(Self.check("pem", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n\(Self.pemBody)-----END RSA PRIVATE KEY-----") == .valid)
        // Mismatched END label, or a block cut off: a key all the same, at low confidence.
        #expect(Self.check("pem", "-----BEGIN PRIVATE KEY-----\n\(Self.pemBody)-----END PUBLIC KEY-----") == .invalid)
        #expect(Self.check("pem", "-----BEGIN PRIVATE KEY-----\n\(Self.pemBody)") == .invalid)
        // A body that is not base64, or none: documentation, not a key.
        #expect(Self.check("pem", "-----BEGIN PRIVATE KEY-----\n...your key here...\n-----END PRIVATE KEY-----") == .notThisFormat)
        #expect(Self.check("pem", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----") == .notThisFormat)
    }

    @Test func pemBlocksWithCRLFLineEnds() {
        let block = "-----BEGIN PRIVATE KEY-----\n\(Self.pemBody)-----END PRIVATE KEY-----".replacingOccurrences(of: "\n", with: "\r\n")
        #expect(Self.check("pem", block) == .valid)
    }

    @Test func openSSHKeys() {
        let body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUfO+SgfvtJmRWeLVCNuyBASBSTn+FQLktsRdHZp2q2SeRM5IetT2DF+g97qAo="
        #expect(Self.check("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\n\(body)\n-----END OPENSSH PRIVATE KEY-----\n") == .valid)
        #expect(Self.check("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\\n\(body)\\n-----END OPENSSH PRIVATE KEY-----\\n") == .valid)
        // Base64 without the openssh-key-v1 magic, or cut off: a key at low confidence.
        let other = "rq+f6kBA2m1Yx1P6cg+SSJ7fqxB4aKTZ7GPlrbQhelDJzdLyku2VE9WNw2bF+ACskeIwLyJ6Hcn9yEiHIUb6Ig=="
        #expect(Self.check("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\n\(other)\n-----END OPENSSH PRIVATE KEY-----") == .invalid)
        #expect(Self.check("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\n\(body)\n") == .invalid)
        #expect(Self.check("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\n...\n-----END OPENSSH PRIVATE KEY-----") == .notThisFormat)
    }

    static func pgp(_ body: String, _ checksum: String?, end: Bool = true) -> String {
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: test\n\n\(body)\n" + (checksum.map { "=\($0)\n" } ?? "")
            + (end ? "-----END PGP PRIVATE KEY BLOCK-----\n" : "")
    }

    @Test func pgpArmor() {
        // A new-format secret-key packet (0xC5) and an old-format one (0x95), with their CRC-24.
        let body = "xZA6fQm2ulg26SzOnSKMbOKZpOoqsjEPaC2lpSB3P64s0QRu+IYdyGbXBLJdZdCs"
        #expect(Self.check("pgp-armor", Self.pgp(body, "UKHH")) == .valid)
        #expect(Self.check("pgp-armor", Self.pgp("lQE6vEhmZX0QF0/wtSvwxqagODYhEP8E+L2aQXeCiSpoKDn6ordP8Ow8SNPJe0Ck", "sX0b")) == .valid)
        // RFC 9580 makes the checksum optional.
        #expect(Self.check("pgp-armor", Self.pgp(body, nil)) == .valid)
        #expect(Self.check("pgp-armor", Self.pgp(body, "UKHH").replacingOccurrences(of: "\n", with: "\\n")) == .valid)
        // A wrong checksum, a public-key packet (0xC6), no END line: low confidence.
        #expect(Self.check("pgp-armor", Self.pgp(body, "UKHG")) == .invalid)
        #expect(Self.check("pgp-armor", Self.pgp("xpA6fQm2ulg26SzOnSKMbOKZpOoqsjEPaC2lpSB3P64s0QRu+IYdyGbXBLJdZdCs", "5GHg")) == .invalid)
        #expect(Self.check("pgp-armor", Self.pgp(body, "UKHH", end: false)) == .invalid)
        #expect(Self.check("pgp-armor", Self.pgp("(your exported key goes here)", nil)) == .notThisFormat)
        #expect(Validators.crc24([]) == 0xB704CE)
    }

    @Test(arguments: [
        ("AGE-SECRET-KEY-1AW4SJRVVJNUVU9QHHZ0PKMMFW2FKPCLZH4KLY4SXUWKQ8EMSWVJQGELF8T", ValidatorVerdict.valid),
        ("age-secret-key-1aw4sjrvvjnuvu9qhhz0pkmmfw2fkpclzh4kly4sxuwkq8emswvjqgelf8t", .valid),
        // One character changed: the BCH checksum catches it.
        ("AGE-SECRET-KEY-1AW4SNRVVJNUVU9QHHZ0PKMMFW2FKPCLZH4KLY4SXUWKQ8EMSWVJQGELF8T", .invalid),
        // Mixed case, or a character outside the Bech32 alphabet: not Bech32.
        ("AGE-SECRET-KEY-1aw4sjrvvjnuvu9qhhz0pkmmfw2fkpclzh4kly4sxuwkq8emswvjqgelf8t", .notThisFormat),
        ("AGE-SECRET-KEY-1BW4SJRVVJNUVU9QHHZ0PKMMFW2FKPCLZH4KLY4SXUWKQ8EMSWVJQGELF8T", .notThisFormat),
        // BIP 173's own test vector.
        ("A12UEL5L", .valid),
    ])
    func bech32(_ text: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("bech32", text) == verdict)
    }

    @Test(arguments: [
        ("aGFiaXRlci1pbXBvcnQ6ZjE2NWpNNExERjFhdWJtMQ==", ValidatorVerdict.valid),  // habiter-import:…
        ("a2V5LTQ1ZmFlZjY0OGRlYWY4MWMzMTM0YjUzYTI5MzExOTZjOg==", .valid),  // an API key as the user name, no password
        ("dXNlcjpwYXNzd29yZA==", .notThisFormat),  // user:password
        ("Og==", .notThisFormat),  // ":"
        ("aGVsbG8gd29ybGQ=", .notThisFormat),  // no colon
        ("/w==", .notThisFormat),  // not text
        ("not base64!", .notThisFormat),
    ])
    func basicCredentials(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("basic-auth", token) == verdict)
    }

    @Test(arguments: [
        ("4821", ValidatorVerdict.valid), ("Sommer2024!", .valid), ("kX7-mQ2p-Rv9", .valid), ("hunter2x", .valid),
        ("Gartenzwerg#12", .valid), ("123456789012", .valid),
        ("written", .notThisFormat), ("Fridge", .notThisFormat), ("required", .notThisFormat), ("123", .notThisFormat),
        ("2025-12-01", .notThisFormat), ("07:30:00", .notThisFormat), ("https://habiter.app/help", .notThisFormat),
        ("<redacted>", .notThisFormat), ("1234567890123", .notThisFormat),
    ])
    func humanCredential(_ text: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("human-credential", text) == verdict, "\(text)")
    }

    @Test func jwtStructure() {
        // A JWS whose header names an alg but whose claims are not JSON: a token, low confidence.
        #expect(Self.check("jwt", "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.bm90IGpzb24gYXQgYWxs.c2lnbmF0dXJlLWJ5dGVz") == .invalid)
        // Five parts with a header: a JWE, its body is ciphertext.
        #expect(Self.check("jwt", "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.a.b.c.d") == .valid)
        // Four parts, or a header without alg: not a JWT.
        #expect(Self.check("jwt", "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.a.b.c") == .notThisFormat)
        #expect(Self.check("jwt", "eyJ0eXAiOiAiSldUIn0.eyJzdWIiOiAiMSJ9.c2ln") == .notThisFormat)
    }
}

/// Issue 21's offline checks: PyPI's macaroon structure and Slack's token layout.
@Suite struct StructureValidatorTests {
    static func check(_ name: String, _ token: String) -> ValidatorVerdict {
        var bytes = Array(token.utf8)
        return bytes.withUnsafeMutableBytes { Validators.check(name, UnsafeRawBufferPointer($0)) }
    }

    /// Version 2, location pypi.org, an identifier, a caveat, the signature last (as pypi.org
    /// issues them; made for this test, never issued).
    static let pypi = "pypi-AgEIcHlwaS5vcmcCJDRkODBjZWY5LWM0MzctNDIzNi04ZDY3LTM5ZjBiNjUzNWI5MgACJXsicGVybWlzc2lvbnMiOiAidXNlciIsICJ2ZXJzaW9uIjogMX0AAAYgG6jeAJseNiT4J9t7vSqGrF2lxvgN8PdJBQgGGHwXTp0"

    @Test func aPyPIMacaroonIsChecked() {
        #expect(Self.check("pypi-macaroon", Self.pypi) == .valid)
        // The same prefix with a tail that is no macaroon's, and a signature that is not last.
        #expect(Self.check("pypi-macaroon", String(Self.pypi.prefix(40)) + String(repeating: "A", count: 120)) == .invalid)
        #expect(Self.check("pypi-macaroon", "pypi-AgEIcHlwaS5vcmc!!!") == .invalid)
        #expect(Self.check("pypi-macaroon", Self.pypi + "AAAA") == .invalid)
    }

    @Test(arguments: [
        ("xoxb-223803405610-7695985490486-FXQf1pjwaSyrEGVkOPntkrZe", ValidatorVerdict.valid),
        ("xoxp-433433702220-077728172504-0442314668975-031770d50970c03490ba324909ffc5be", .valid),
        ("xoxb-2238-7695985490486-FXQf1pjwaSyrEGVkOPntkrZe", .invalid),
        ("xoxb-223803405610-7695985490486-FXQf1pjwaSyrEGV", .invalid),
        ("xoxp-433433702220-077728172504-0442314668975-031770d50970c03490ba324909ffc5bZ", .invalid),
        ("xoxa-2-1111111111-2222222222-abcdef", .valid),
    ])
    func slackLayouts(_ token: String, _ verdict: ValidatorVerdict) {
        #expect(Self.check("slack-structure", token) == verdict, "\(token.prefix(8))…")
    }
}
