internal import CZlib
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
    public static let names: Set<String> = ["jwt", "base62-crc32", "pem"]

    public static func check(_ name: String, _ secret: UnsafeRawBufferPointer) -> ValidatorVerdict {
        switch name {
        case "jwt": return checkJWT(secret)
        case "base62-crc32": return checkBase62CRC32(secret)
        case "pem": return checkPEM(secret)
        default: return .valid
        }
    }

    /// GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm (`npm_`) tokens: a prefix, 30
    /// base62 characters, and the CRC32 of those 30 as 6 base62 digits (github.blog,
    /// "Behind GitHub's new authentication token formats", 2021; npm uses the same scheme).
    static func checkBase62CRC32(_ token: UnsafeRawBufferPointer) -> ValidatorVerdict {
        guard let underscore = token.firstIndex(of: UInt8(ascii: "_")), token.count - underscore - 1 == 36 else { return .notThisFormat }
        let random = UnsafeRawBufferPointer(rebasing: token[(underscore + 1)..<(token.count - 6)])
        var checksum: UInt64 = 0
        for b in token[(token.count - 6)...] {
            guard let digit = base62Digit(b) else { return .notThisFormat }
            checksum = checksum * 62 + UInt64(digit)
        }
        let crc = random.withMemoryRebound(to: UInt8.self) { crc32(0, $0.baseAddress, UInt32($0.count)) }
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
        let text = String(decoding: block, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.replacingOccurrences(of: "\\n", with: "\n").split(separator: "\n").map(String.init) }
        guard let first = lines.first, first.hasPrefix("-----BEGIN "), first.hasSuffix("-----") else { return .notThisFormat }
        let label = first.dropFirst("-----BEGIN ".count).dropLast(5)
        var body = ""
        var ended = false
        for line in lines.dropFirst() {
            if line.hasPrefix("-----END ") {
                guard line == "-----END \(label)-----" else { return .invalid }
                ended = true
                break
            }
            if line.contains(":") || line.isEmpty { continue }
            body += line
        }
        guard body.count >= 16, let bytes = Base64.decode(Array(body.utf8), alphabet: .standard), bytes.count >= 12 else {
            return .notThisFormat
        }
        return ended ? .valid : .invalid
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
}
