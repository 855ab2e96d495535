import AuditInputs

/// Writes a `java.util.ArrayList<String>` as `ObjectOutputStream` does (what Flutter's old
/// `shared_preferences` stored behind its list prefix), so that a redacted legacy list reads
/// back as a list. The class descriptor is the JDK's own (serialVersionUID 8683452581122892189,
/// one `int size` field, a `writeObject` method), so an unredacted list is written byte for
/// byte as Java writes it.
enum JavaStringListWriter {
    static func serialize(_ strings: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [0xAC, 0xED, 0x00, 0x05, JavaStringList.tcObject, JavaStringList.tcClassDesc]
        appendUTF(Array("java.util.ArrayList".utf8), to: &out)
        out += [0x78, 0x81, 0xD2, 0x1D, 0x99, 0xC7, 0x61, 0x9D]  // serialVersionUID
        out += [0x03, 0x00, 0x01, UInt8(ascii: "I")]  // SC_SERIALIZABLE | SC_WRITE_METHOD, one field
        appendUTF(Array("size".utf8), to: &out)
        out += [JavaStringList.tcEndBlockData, JavaStringList.tcNull]
        appendInt(UInt32(strings.count), to: &out)
        // ArrayList.writeObject: the capacity as block data, then the elements.
        out += [JavaStringList.tcBlockData, 4]
        appendInt(UInt32(strings.count), to: &out)
        for string in strings {
            let modified = modifiedUTF8(string)
            if modified.count <= 0xFFFF {
                out.append(JavaStringList.tcString)
                out += [UInt8(modified.count >> 8), UInt8(modified.count & 0xFF)]
            } else {
                out.append(JavaStringList.tcLongString)
                for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(modified.count) >> UInt64(shift))) }
            }
            out += modified
        }
        out.append(JavaStringList.tcEndBlockData)
        return out
    }

    private static func appendUTF(_ bytes: [UInt8], to out: inout [UInt8]) {
        out += [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        out += bytes
    }

    private static func appendInt(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Standard UTF-8 as Java's modified UTF-8 (`DataOutput.writeUTF`): NUL as C0 80,
    /// supplementary characters as two three-byte surrogates.
    static func modifiedUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        func append3(_ unit: UInt32) {
            out += [UInt8(0xE0 | unit >> 12), UInt8(0x80 | unit >> 6 & 0x3F), UInt8(0x80 | unit & 0x3F)]
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0 {
                out += [0xC0, 0x80]
                i += 1
            } else if b < 0x80 {
                out.append(b)
                i += 1
            } else if let (scalar, length) = RedactionUTF8.scalar(in: bytes, at: i) {
                if scalar >= 0x10000 {
                    let v = scalar - 0x10000
                    append3(0xD800 + (v >> 10))
                    append3(0xDC00 + (v & 0x3FF))
                } else {
                    out += bytes[i..<i + length]
                }
                i += length
            } else {
                append3(0xFFFD)
                i += 1
            }
        }
        return out
    }
}
