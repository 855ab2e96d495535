import AuditInputs

/// Percent-encoding of redacted parameter values. A placeholder is encoded wholly
/// (`%5BREDACTED%3Atoken%5D`); a value changed inside keeps its unreserved characters and the
/// delimiters it already wrote unencoded (a sloppy `redirect_uri=https://…` keeps its `:` and
/// `/`); a lone `NAME=value` encodes only what would end or escape its value.
enum PercentCoding {
    /// RFC 3986 sub-delimiters, which userinfo may hold unencoded.
    static let subDelimiters: Set<UInt8> = Set("!$&'()*+,;=".utf8)
    /// What a form or query value may hold unencoded besides unreserved characters (never `&`,
    /// `#`, `%` or brackets).
    static let formValueDelimiters: Set<UInt8> = Set("!$'()*+,;=:/?@".utf8)

    /// What the value of a lone `NAME=value` may hold as it is: every character the form
    /// decoder accepts in a value, but `%` (which would start an escape) and `&`.
    static let assignmentValueBytes: Set<UInt8> = Set((0x21...0x7E).filter {
        FormLayerDecoder.valueCharacter($0) && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "&")
    })

    static func isUnreserved(_ b: UInt8) -> Bool {
        (b | 0x20) &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "0") < 10
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }

    /// The delimiters among `allowed` that `raw` writes unencoded (`+` only when it is no space).
    static func literalBytes<C: Collection>(in raw: C, allowed: Set<UInt8>, plusAsSpace: Bool) -> Set<UInt8> where C.Element == UInt8 {
        var literal = Set<UInt8>()
        for b in raw where allowed.contains(b) && !(plusAsSpace && b == UInt8(ascii: "+")) { literal.insert(b) }
        return literal
    }

    static func encode(_ bytes: [UInt8], literal: Set<UInt8>, spaceAsPlus: Bool) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for b in bytes {
            if isUnreserved(b) || literal.contains(b) {
                out.append(b)
            } else if b == 0x20 && spaceAsPlus {
                out.append(UInt8(ascii: "+"))
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return out
    }
}
