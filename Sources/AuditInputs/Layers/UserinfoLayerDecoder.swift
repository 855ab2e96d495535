/// The credentials in a URL's userinfo: `postgres://app:s3cret@db.example.internal:5432/habits`
/// gives (`username`, `app`) and (`password`, `s3cret`), percent-decoded (`+` stays a plus:
/// userinfo is not form-encoded). Any scheme: https, postgres, mysql, mongodb+srv, redis, amqp,
/// and JDBC's `jdbc:mysql://`.
///
/// Strict because every string is offered: the value must start with the scheme and `://`
/// (prose that mentions a URL is left to the pattern rules), the authority, which ends at the
/// first `/`, `?` or `#` as RFC 3986 says, must hold an `@` with a host after it, there must be
/// a `:` and a non-empty password, and no blanks or control characters. A password with an
/// unencoded `/`, `?` or `#` therefore does not open (the pattern rules still see the URL). The
/// last `@` of the authority ends the userinfo, so an unencoded `@` in a password is kept, as
/// most URL libraries do. The URL is still scanned as text.
public struct UserinfoLayerDecoder: LayerDecoder {
    public let name = "userinfo"
    // Computed, so that the decoder holds nothing reference-counted: scans on several threads copy
    // it without contending for one string's reference count.
    public var gate: LayerGate { LayerGate(minimumLength: 8, firstBytes: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", requiredByte: UInt8(ascii: "@")) }

    public init() {}

    /// Schemes longer than this are not schemes (bounds the scan of text that starts like one).
    static let maxSchemeLength = 40

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first, Self.isLetter(first) else { return nil }
        // Scheme: letters, digits, `+`, `-`, `.`, and `:` for JDBC's nested schemes, then `://`.
        var i = 1
        var authorityStart = -1
        while i < value.count && i <= Self.maxSchemeLength {
            let b = value[i]
            if b == UInt8(ascii: ":") {
                if i + 2 < value.count && value[i + 1] == UInt8(ascii: "/") && value[i + 2] == UInt8(ascii: "/") {
                    authorityStart = i + 3
                    break
                }
            } else if !(Self.isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                        || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")) {
                return nil
            }
            i += 1
        }
        guard authorityStart > 0 else { return nil }
        var at = -1
        var authorityEnd = value.count
        for j in authorityStart..<value.count {
            let b = value[j]
            if b <= 0x20 || b == 0x7F { return nil }
            if b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") {
                authorityEnd = j
                break
            }
            if b == UInt8(ascii: "@") { at = j }
        }
        // A userinfo, and a host after it.
        guard at > authorityStart, at + 1 < authorityEnd else { return nil }
        let userinfo = value[authorityStart..<at]
        guard let colon = userinfo.firstIndex(of: UInt8(ascii: ":")), colon + 1 < at else { return nil }
        for j in authorityEnd..<value.count where value[j] <= 0x20 || value[j] == 0x7F { return nil }
        let pairs = [
            DecodedPair(name: Array("username".utf8), value: LayerBytes.percentDecode(value[authorityStart..<colon], plusAsSpace: false)),
            DecodedPair(name: Array("password".utf8), value: LayerBytes.percentDecode(value[(colon + 1)..<at], plusAsSpace: false)),
        ]
        return DecodedLayer(bytes: [], content: .pairs(PairList(pairs)), replacesValue: false)
    }

    @inline(__always)
    static func isLetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }
}
