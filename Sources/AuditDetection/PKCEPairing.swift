import AuditBytes

/// Pairs PKCE `code_verifier` values with the `code_challenge` values of the same input
/// (RFC 7636, S256: the challenge is the unpadded base64url SHA-256 of the verifier). A verifier
/// whose challenge was also captured means the capture holds a complete exchange: the
/// authorization request and the token request that redeems it.
public struct PKCEPairing: Sendable {
    /// Values shaped like an S256 challenge (43 base64url characters) seen in the input. Bounded:
    /// past the limit new ones are not kept, and a pairing may go unreported, never a false one.
    private var challengeShaped: Set<[UInt8]> = []
    private static let limit = 65_536

    public init() {}

    /// Notes a value if it has the shape of a challenge. Cheap for every other value: its length
    /// is compared where the scan calls, inlined (the call took some 18 instructions a value).
    @inlinable public mutating func observe(_ value: UnsafeRawBufferPointer) {
        if value.count == 43 { observeChallengeLength(value) }
    }

    /// `observe` for a value of a challenge's length (43).
    @usableFromInline mutating func observeChallengeLength(_ value: UnsafeRawBufferPointer) {
        guard challengeShaped.count < PKCEPairing.limit, value.allSatisfy(PKCEPairing.isBase64URL) else { return }
        challengeShaped.insert(Array(value))
    }

    /// Whether values shaped like a challenge were left out for the limit.
    public var isFull: Bool { challengeShaped.count >= PKCEPairing.limit }

    /// Whether the S256 challenge of `verifier` was seen in the input.
    public func isPaired(challenge: [UInt8]) -> Bool {
        challengeShaped.contains(challenge)
    }

    /// The S256 challenge of a verifier.
    public static func challenge(of verifier: UnsafeRawBufferPointer) -> [UInt8] {
        base64URL(SHA256.hash(verifier))
    }

    static func isBase64URL(_ b: UInt8) -> Bool {
        Validators.base62Digit(b) != nil || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }

    /// Unpadded base64url.
    static func base64URL(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let chunk = bytes[i..<min(i + 3, bytes.count)]
            var n = 0
            for (j, b) in chunk.enumerated() { n |= Int(b) << (16 - 8 * j) }
            for j in 0...chunk.count { out.append(alphabet[(n >> (18 - 6 * j)) & 63]) }
            i += 3
        }
        return out
    }
}
