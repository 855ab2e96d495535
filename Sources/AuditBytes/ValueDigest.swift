/// A keyed digest of a secret value, for baselines: HMAC-SHA256 (RFC 2104) under a random salt
/// that the baseline file keeps, cut to 128 bits. A reader of a report learns nothing from it
/// (reports never carry it); a reader of a baseline cannot look it up in a table of known
/// values, and no two baselines give the same value the same digest.
public struct ValueDigester: Sendable {
    /// The SHA-256 states after the key's inner and outer blocks, made once: a digest compresses
    /// the value and the inner digest only, two blocks of the four it took when the key's blocks
    /// were hashed again for each value (and were buffered by `SHA256.update`).
    private let inner: SHA256.FirstBlockState
    private let outer: SHA256.FirstBlockState
    /// The salt, as the baseline records it.
    public let salt: [UInt8]

    public init(salt: [UInt8]) {
        self.salt = salt
        var key = salt.count > 64 ? SHA256.hash(salt) : salt
        key += [UInt8](repeating: 0, count: 64 - key.count)
        inner = SHA256.FirstBlockState(block: key.map { $0 ^ 0x36 })
        outer = SHA256.FirstBlockState(block: key.map { $0 ^ 0x5C })
    }

    /// A fresh salt of 32 random bytes.
    public static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The digest of `value` as 32 lowercase hex digits.
    public func digest(_ value: UnsafeRawBufferPointer) -> String {
        let innerDigest = SHA256.hash(after: inner, value)
        return Hex.encode(innerDigest.withUnsafeBytes { SHA256.hash(after: outer, $0) }.prefix(16))
    }
}
