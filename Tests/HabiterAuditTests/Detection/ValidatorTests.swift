import Testing
@testable import HabiterAudit

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
}
