/// Decoding of JSON string contents that the reader has already validated.
public enum JSONString {
    /// Appends the UTF-8 bytes that the validated string content `raw` denotes to `output`.
    public static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var i = 0
        let n = raw.count
        while i < n {
            let b = raw[i]
            if b != UInt8(ascii: "\\") {
                // Copy the run up to the next backslash in one go.
                var j = i + 1
                while j < n && raw[j] != UInt8(ascii: "\\") { j += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: raw[i..<j]))
                i = j
                continue
            }
            let e = raw[i + 1]
            switch e {
            case UInt8(ascii: "b"): output.append(0x08); i += 2
            case UInt8(ascii: "f"): output.append(0x0C); i += 2
            case UInt8(ascii: "n"): output.append(0x0A); i += 2
            case UInt8(ascii: "r"): output.append(0x0D); i += 2
            case UInt8(ascii: "t"): output.append(0x09); i += 2
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, i + 2)
                i += 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hex4(raw, i + 2)
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                appendUTF8(scalar, to: &output)
            default: output.append(e); i += 2
            }
        }
    }

    /// The string content `raw` as a Swift string.
    public static func decode(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String {
        if !escaped { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        unescape(raw, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v << 4 | UInt32(hexValue(raw[i + k]) ?? 0) }
        return v
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
