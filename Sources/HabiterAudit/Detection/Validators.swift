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
    public static let names: Set<String> = ["jwt"]

    public static func check(_ name: String, _ secret: UnsafeRawBufferPointer) -> ValidatorVerdict {
        switch name {
        case "jwt": return checkJWT(secret)
        default: return .valid
        }
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
