import AuditBytes
import AuditInputs
import Foundation

/// What an offline validator says about a candidate secret.
public enum ValidatorVerdict: Sendable, Equatable {
    /// The structure (checksum, encoding) is right: high confidence.
    case valid
    /// The format defines a check and it fails: still reported, at low confidence.
    case invalid
    /// The text only looks like the format (a JWT-shaped cursor that does not decode): no finding.
    case notThisFormat
}

/// Offline validators that rules name in their `validator` field.
public enum Validators {
    /// Validator names rule files may use.
    public static let names: Set<String> = ["jwt", "base62-crc32", "pem", "openssh", "pgp-armor", "basic-auth", "bech32", "human-credential",
                                            "habiter-access-token", "pypi-macaroon", "slack-structure"]

    public static func check(_ name: String, _ secret: UnsafeRawBufferPointer) -> ValidatorVerdict {
        switch name {
        case "jwt": return checkJWT(secret)
        case "base62-crc32": return checkBase62CRC32(secret)
        case "pem": return checkPEM(secret)
        case "openssh": return checkOpenSSH(secret)
        case "pgp-armor": return checkPGPArmor(secret)
        case "bech32": return checkBech32(secret)
        case "basic-auth": return checkBasicAuth(secret)
        case "human-credential": return checkHumanCredential(secret)
        case "habiter-access-token": return checkHabiterAccessToken(secret)
        case "pypi-macaroon": return checkPyPIMacaroon(secret)
        case "slack-structure": return checkSlackStructure(secret)
        default: return .valid
        }
    }

    /// GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm (`npm_`) tokens: a prefix, 30
    /// base62 characters, and the CRC32 of those 30 as 6 base62 digits (github.blog,
    /// "Behind GitHub's new authentication token formats", 2021; npm uses the same scheme).
    /// A fine-grained GitHub token (`github_pat_`, 22 base62, `_`, 59 base62) has no published
    /// checksum: its structure is all there is to check.
    static func checkBase62CRC32(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        if token.starts(with: "github_pat_".utf8) {
            let rest = token.dropFirst("github_pat_".count)
            guard rest.count == 82, rest[rest.startIndex + 22] == UInt8(ascii: "_") else { return .notThisFormat }
            for (i, b) in rest.enumerated() where i != 22 && base62Digit(b) == nil { return .notThisFormat }
            return .valid
        }
        // A GitHub App refresh token's long form has no published checksum: its shape only.
        if token.starts(with: "ghr_".utf8) && token.count == 80 {
            return token.dropFirst(4).allSatisfy { base62Digit($0) != nil } ? .valid : .notThisFormat
        }
        guard let underscore = token.firstIndex(of: UInt8(ascii: "_")), token.count - underscore - 1 == 36 else { return .notThisFormat }
        let random = UnsafeRawBufferPointer(rebasing: token[(underscore + 1)..<(token.count - 6)])
        var checksum: UInt64 = 0
        for b in token[(token.count - 6)...] {
            guard let digit = base62Digit(b) else { return .notThisFormat }
            checksum = checksum * 62 + UInt64(digit)
        }
        let crc = Zlib.crc32(random)
        return checksum == UInt64(crc) ? .valid : .invalid
    }

    /// `0-9A-Za-z`, the base62 alphabet of these checksums.
    static func base62Digit(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(b - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(b - UInt8(ascii: "a")) + 36
        default: return nil
        }
    }

    /// A PEM block: `-----BEGIN X-----`, base64 lines (headers such as `Proc-Type:` allowed),
    /// `-----END X-----` with the same label. Without its END line (a truncated paste) it is
    /// still a key, at low confidence; a body that is not base64 is not a key at all.
    static func checkPEM(_ block: UnsafeRawBufferPointer) -> ValidatorVerdict {
        guard let pem = pemBlock(block) else { return .notThisFormat }
        return pem.ended && pem.labelsMatch ? .valid : .invalid
    }

    /// An OpenSSH private key (`-----BEGIN OPENSSH PRIVATE KEY-----`, PROTOCOL.key): a PEM
    /// block whose body starts with the `openssh-key-v1` magic. Without it, a key at low
    /// confidence.
    static func checkOpenSSH(_ block: UnsafeRawBufferPointer) -> ValidatorVerdict {
        guard let pem = pemBlock(block) else { return .notThisFormat }
        guard pem.ended && pem.labelsMatch, pem.body.starts(with: Array("openssh-key-v1\0".utf8)) else { return .invalid }
        return .valid
    }

    /// The parts of a PEM block, or nil when it is not one (no BEGIN line, no base64 body of 12
    /// bytes or more). Line breaks may be real or JSON-escaped (`\n`).
    static func pemBlock(_ block: UnsafeRawBufferPointer) -> (body: [UInt8], ended: Bool, labelsMatch: Bool)? {
        let text = String(decoding: block, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.replacingOccurrences(of: "\\n", with: "\n").split(separator: "\n").map(String.init) }
        guard let first = lines.first, first.hasPrefix("-----BEGIN "), first.hasSuffix("-----") else { return nil }
        let label = first.dropFirst("-----BEGIN ".count).dropLast(5)
        var body = ""
        var ended = false
        var labelsMatch = true
        for line in lines.dropFirst() {
            if line.hasPrefix("-----END ") {
                ended = true
                labelsMatch = line == "-----END \(label)-----"
                break
            }
            if line.contains(":") || line.isEmpty { continue }
            body += line
        }
        guard body.count >= 16, let bytes = Base64.decode(Array(body.utf8), alphabet: .standard), bytes.count >= 12 else {
            return nil
        }
        return (bytes, ended, labelsMatch)
    }

    /// An OpenPGP armored private key (RFC 4880 §6, RFC 9580 §6.2): `-----BEGIN PGP PRIVATE KEY
    /// BLOCK-----`, optional `Key: Value` headers, base64 lines, an optional `=XXXX` CRC-24 line,
    /// `-----END PGP PRIVATE KEY BLOCK-----`. A wrong checksum, a first packet that is not a
    /// secret key (tag 5) or a missing END line: a key all the same, at low confidence. A body
    /// that is not base64: not a key.
    static func checkPGPArmor(_ block: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let text = String(decoding: block, as: UTF8.self).replacingOccurrences(of: "\\n", with: "\n")
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first, first.hasPrefix("-----BEGIN PGP "), first.hasSuffix("-----") else { return .notThisFormat }
        let label = first.dropFirst("-----BEGIN ".count).dropLast(5)
        var body = ""
        var checksum: String?
        var ended = false
        for line in lines.dropFirst() {
            if line.hasPrefix("-----END ") {
                guard line == "-----END \(label)-----" else { return .invalid }
                ended = true
                break
            }
            if line.contains(":") && body.isEmpty { continue }  // an armor header
            if line.hasPrefix("=") && line.count == 5 {
                checksum = String(line.dropFirst())
                continue
            }
            if line.isEmpty { continue }
            body += line
        }
        guard body.count >= 16, let bytes = Base64.decode(Array(body.utf8), alphabet: .standard), bytes.count >= 12 else {
            return .notThisFormat
        }
        // Packet tag 5 (secret key): old format 0b10_0101_xx, new format 0xC5.
        let tag = bytes[0]
        guard (tag & 0xC0 == 0x80 && (tag >> 2) & 0x0F == 5) || tag == 0xC5 else { return .invalid }
        if let checksum {
            guard let sum = Base64.decode(Array(checksum.utf8), alphabet: .standard), sum.count == 3 else { return .invalid }
            let expected = UInt32(sum[0]) << 16 | UInt32(sum[1]) << 8 | UInt32(sum[2])
            guard crc24(bytes) == expected else { return .invalid }
        }
        return ended ? .valid : .invalid
    }

    /// The CRC-24 of OpenPGP armor (RFC 4880 §6.1).
    static func crc24(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xB704CE
        for b in bytes {
            crc ^= UInt32(b) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
            }
        }
        return crc & 0xFF_FFFF
    }

    /// A Bech32 string (BIP 173), as age secret keys are (`AGE-SECRET-KEY-1…`): one case, a
    /// human-readable part, `1`, data characters, and a 6-character BCH checksum over both.
    static func checkBech32(_ text: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let hasUpper = text.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        let hasLower = text.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        guard !(hasUpper && hasLower), let separator = text.lastIndex(of: UInt8(ascii: "1")), separator >= 1,
              text.count - separator - 1 >= 6 else { return .notThisFormat }
        let lower = text.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
        var values: [UInt32] = lower[..<separator].map { UInt32($0 >> 5) } + [0] + lower[..<separator].map { UInt32($0 & 31) }
        for b in lower[(separator + 1)...] {
            guard let v = charset.firstIndex(of: b) else { return .notThisFormat }
            values.append(UInt32(v))
        }
        let generator: [UInt32] = [0x3B6A_57B2, 0x2650_8E6D, 0x1EA1_19FA, 0x3D42_33DD, 0x2A14_62B3]
        var checksum: UInt32 = 1
        for v in values {
            let top = checksum >> 25
            checksum = (checksum & 0x1FF_FFFF) << 5 ^ v
            for i in 0..<5 where (top >> UInt32(i)) & 1 == 1 { checksum ^= generator[i] }
        }
        return checksum == 1 ? .valid : .invalid
    }

    /// A credential a person wrote into prose ("the wifi password is Sommer2024!", "my pin is
    /// 4821"): a PIN of 4 to 12 digits, or six characters or more that mix character classes
    /// (lower, upper, digit, symbol) as chosen passwords do. A plain word ("the password is on
    /// the fridge", "is required"), a placeholder, a date or time, or a URL is not one.
    static func checkHumanCredential(_ secret: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let text = String(decoding: secret, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: ".!?:)"))
        let bytes = Array(text.utf8)
        if (4...12).contains(bytes.count) && bytes.allSatisfy({ $0 &- 0x30 < 10 }) { return .valid }
        guard bytes.count >= 6, !Placeholders.isPlaceholder(text), !SafeShapes.isDateOrTime(text),
              !text.contains("://"), !text.hasPrefix("www.") else { return .notThisFormat }
        var classes: UInt8 = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.isLowercase || (scalar.properties.isAlphabetic && !scalar.properties.isUppercase) {
                classes |= 1
            } else if scalar.properties.isUppercase {
                classes |= 2
            } else if scalar.properties.numericType != nil {
                classes |= 4
            } else {
                classes |= 8
            }
        }
        // One capital at the start is how words begin sentences, not a second class.
        if classes == 3 && text.unicodeScalars.dropFirst().allSatisfy({ !$0.properties.isUppercase }) { classes = 1 }
        return classes.nonzeroBitCount >= 2 ? .valid : .notThisFormat
    }

    /// HTTP Basic credentials (RFC 7617): base64 of `user:password` as UTF-8 text without control
    /// characters. Base64 that decodes to anything else is not credentials; credentials whose
    /// secret half is a placeholder (`user:password`, `admin:changeme`, `:`) are documentation.
    static func checkBasicAuth(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        guard let bytes = Base64.decode(token, alphabet: .standard) ?? Base64.decode(token, alphabet: .url),
              let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return .notThisFormat }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { return .notThisFormat }  // not UTF-8
        let user = String(decoding: bytes[..<colon], as: UTF8.self)
        let password = String(decoding: bytes[(colon + 1)...], as: UTF8.self)
        let secret = password.isEmpty ? user : password
        if secret.isEmpty || Placeholders.isPlaceholder(secret) { return .notThisFormat }
        return .valid
    }

    /// A JWT's header must be base64url JSON naming an `alg`; its claims must be base64url JSON.
    static func checkJWT(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 5 else { return .notThisFormat }
        guard let header = Base64.decode(Array(parts[0]), alphabet: .url),
              let headerJSON = try? JSONValue.parse(header),
              headerJSON.value["alg"]?.stringValue != nil else { return .notThisFormat }
        if parts.count == 5 { return .valid }  // JWE: the rest is ciphertext.
        guard let claims = Base64.decode(Array(parts[1]), alphabet: .url),
              let claimsJSON = try? JSONValue.parse(claims),
              claimsJSON.value.objectMembers != nil else { return .invalid }
        return .valid
    }

    /// The claims a Habiter access token carries (sync-auth `AccessClaims`), by JSON type.
    private static let habiterClaims: [(name: String, isString: Bool)] = [
        ("issuer", true), ("audience", true), ("subject", true), ("deviceId", true), ("tokenId", true),
        ("passwordVersion", false), ("issuedAt", false), ("expiresAt", false),
    ]

    /// A Habiter Personal Sync access token, `v1.<claims>.<signature>` (not a JWT: the first
    /// part is the literal `v1`): the claims are unpadded base64url of a JSON object with
    /// `version` 1 and the string and number claims of `habiterClaims`, the signature is
    /// unpadded base64url of 32 bytes (HMAC-SHA256). Claims that are JSON of another shape, or a
    /// signature of another length, fail the check; claims that are not a JSON object are not the
    /// format.
    static func checkHabiterAccessToken(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("v1".utf8),
              let claims = Base64.decode(Array(parts[1]), alphabet: .url),
              let json = try? JSONValue.parse(claims), json.value.objectMembers != nil else { return .notThisFormat }
        guard Base64.decode(Array(parts[2]), alphabet: .url)?.count == 32, json.value["version"]?.doubleValue == 1 else { return .invalid }
        for claim in habiterClaims {
            guard let value = json.value[claim.name] else { return .invalid }
            let typed = claim.isString ? value.stringValue != nil : value.doubleValue != nil
            if !typed { return .invalid }
        }
        return .valid
    }

    /// A PyPI API token: `pypi-` and a base64url macaroon (version 2: the byte 2, a location
    /// field naming pypi.org or test.pypi.org, and a 32-byte signature field last, `06 20` and
    /// the signature), as pypi.org issues them.
    static func checkPyPIMacaroon(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        guard token.starts(with: "pypi-".utf8) else { return .notThisFormat }
        guard let macaroon = Base64.decode(Array(token.dropFirst(5)), alphabet: .url), macaroon.count > 40 else { return .invalid }
        // Version 2, then field 1 (location) with its length and the location itself.
        guard macaroon[0] == 2, macaroon[1] == 1 else { return .invalid }
        let length = Int(macaroon[2])
        guard 3 + length <= macaroon.count else { return .invalid }
        let location = macaroon[3..<(3 + length)]
        guard location.elementsEqual("pypi.org".utf8) || location.elementsEqual("test.pypi.org".utf8) else { return .invalid }
        let tail = macaroon.suffix(34)
        return tail.first == 6 && tail.dropFirst().first == 32 ? .valid : .invalid
    }

    /// Slack bot and user tokens: `xoxb-<team id>-<bot id>-<24 letters and digits>`,
    /// `xoxp-<team id>-<user id>-<app id>-<32 hex>` (ids of 8 to 13 digits). Other Slack forms
    /// (`xoxa-`, `xoxr-`, `xoxe.`, `xapp-`, `xoxs-`) have no published layout and pass.
    static func checkSlackStructure(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        let parts = token.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        func isID(_ part: ArraySlice<UInt8>) -> Bool { (8...13).contains(part.count) && part.allSatisfy { $0 &- 0x30 < 10 } }
        func isHex(_ b: UInt8) -> Bool { b &- 0x30 < 10 || b &- 0x61 < 6 }
        guard let kind = parts.first else { return .notThisFormat }
        if kind.elementsEqual("xoxb".utf8) {
            guard parts.count == 4 else { return .invalid }
            return isID(Array(parts[1])[...]) && isID(Array(parts[2])[...]) && parts[3].count == 24 && parts[3].allSatisfy(ASCIICase.isLetterOrDigit)
                ? .valid : .invalid
        }
        if kind.elementsEqual("xoxp".utf8) {
            guard parts.count == 5 else { return .invalid }
            return isID(Array(parts[1])[...]) && isID(Array(parts[2])[...]) && isID(Array(parts[3])[...]) && parts[4].count == 32
                && parts[4].allSatisfy(isHex) ? .valid : .invalid
        }
        return .valid
    }
}
