import AuditBytes

/// How a JSON text writes its strings, so that a replaced string is escaped the same way:
/// non-ASCII as `\u` escapes (Python's `ensure_ascii`, mitmproxy) or as UTF-8, `/` as `\/` or not.
struct JSONEscapeStyle {
    var escapeNonASCII = false
    var escapeSlash = false

    init(escapeNonASCII: Bool = false, escapeSlash: Bool = false) {
        self.escapeNonASCII = escapeNonASCII
        self.escapeSlash = escapeSlash
    }

    /// The style of `text`: non-ASCII escaped when the text has `\u` escapes above U+007F and no
    /// raw non-ASCII byte; `/` escaped when the text has a `\/`.
    init(of text: UnsafeRawBufferPointer) {
        var rawNonASCII = false
        var escapedNonASCII = false
        var i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            if b >= 0x80 {
                rawNonASCII = true
                break
            }
            if b == UInt8(ascii: "\\"), i + 1 < n {
                let e = text[i + 1]
                if e == UInt8(ascii: "/") { escapeSlash = true }
                if e == UInt8(ascii: "u"), i + 5 < n {
                    var unit: UInt32 = 0
                    for k in 2...5 { unit = unit << 4 | UInt32(hexValue(text[i + k]) ?? 0) }
                    if unit >= 0x80 { escapedNonASCII = true }
                }
                i += 2
                continue
            }
            i += 1
        }
        escapeNonASCII = escapedNonASCII && !rawNonASCII
    }

    /// `value` (UTF-8) as JSON string content, without the quotes.
    func escape(_ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count + 8)
        let hex = Array("0123456789abcdef".utf8)
        func unicodeEscape(_ unit: UInt32) {
            out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[Int(unit >> 12 & 0xF)], hex[Int(unit >> 8 & 0xF)],
                    hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]]
        }
        var i = 0
        while i < value.count {
            let b = value[i]
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), b]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
            case UInt8(ascii: "/") where escapeSlash: out += [UInt8(ascii: "\\"), b]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: unicodeEscape(UInt32(b))
            case 0x80...:
                guard escapeNonASCII, let (scalar, length) = RedactionUTF8.scalar(in: value, at: i) else {
                    out.append(b)
                    i += 1
                    continue
                }
                if scalar >= 0x10000 {
                    let v = scalar - 0x10000
                    unicodeEscape(0xD800 + (v >> 10))
                    unicodeEscape(0xDC00 + (v & 0x3FF))
                } else {
                    unicodeEscape(scalar)
                }
                i += length
                continue
            default: out.append(b)
            }
            i += 1
        }
        return out
    }
}

/// UTF-8 decoding of one scalar, for re-escaping.
enum RedactionUTF8 {
    /// The scalar starting at `i` and its length in bytes, or nil when the bytes there are not
    /// well-formed UTF-8.
    static func scalar(in bytes: [UInt8], at i: Int) -> (UInt32, Int)? {
        let b = bytes[i]
        let length: Int
        var scalar: UInt32
        switch b {
        case 0xC2...0xDF: length = 2; scalar = UInt32(b & 0x1F)
        case 0xE0...0xEF: length = 3; scalar = UInt32(b & 0x0F)
        case 0xF0...0xF4: length = 4; scalar = UInt32(b & 0x07)
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(c & 0x3F)
        }
        return (scalar, length)
    }
}
