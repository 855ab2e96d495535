import AuditInputs

/// Writes `PreferenceMap` entries as DataStore's protobuf-lite writes them: the key (field 1),
/// then the `Value` (field 2), each length a minimal varint computed from what it covers. An entry
/// is written again when its string, string set or bytes is redacted, or its key (a key that is
/// itself a secret), which can hold a value of any type.
enum DataStoreWriter {
    /// One map entry (field 1 of the `PreferenceMap`) from its key and an encoded `Value`.
    static func entry(key: String, value: [UInt8]) -> [UInt8] {
        var content: [UInt8] = []
        lengthDelimited(field: 1, Array(key.utf8), to: &content)
        lengthDelimited(field: 2, value, to: &content)
        var out: [UInt8] = []
        lengthDelimited(field: 1, content, to: &out)
        return out
    }

    /// A `Value` as DataStore writes it, for an entry whose key is rewritten.
    static func value(_ value: DataStoreValue) -> [UInt8] {
        var out: [UInt8] = []
        switch value {
        case .boolean(let flag): out = [0x08, flag ? 1 : 0]
        case .float(let bits): out = [0x15] + littleEndian(UInt64(bits), bytes: 4)
        case .integer(let number):
            // Sign-extended to 64 bits, as protobuf writes a negative int32.
            out = [0x18]
            varint(UInt64(bitPattern: Int64(number)), to: &out)
        case .long(let number):
            out = [0x20]
            varint(UInt64(bitPattern: number), to: &out)
        case .string(let text): out = stringValue(text.bytes)
        case .stringSet(let members): out = stringSetValue(members.map(\.bytes))
        case .double(let bits): out = [0x39] + littleEndian(bits, bytes: 8)
        case .bytes(let bytes): out = bytesValue(bytes.bytes)
        }
        return out
    }

    private static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    /// A `Value` holding a string (field 5).
    static func stringValue(_ string: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        lengthDelimited(field: 5, string, to: &out)
        return out
    }

    /// A `Value` holding a `StringSet` (field 6), whose strings are its field 1.
    static func stringSetValue(_ members: [[UInt8]]) -> [UInt8] {
        var set: [UInt8] = []
        for member in members { lengthDelimited(field: 1, member, to: &set) }
        var out: [UInt8] = []
        lengthDelimited(field: 6, set, to: &out)
        return out
    }

    /// A `Value` holding bytes (field 8).
    static func bytesValue(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        lengthDelimited(field: 8, bytes, to: &out)
        return out
    }

    private static func lengthDelimited(field: UInt64, _ bytes: [UInt8], to out: inout [UInt8]) {
        varint(field << 3 | UInt64(ProtobufWireType.lengthDelimited.rawValue), to: &out)
        varint(UInt64(bytes.count), to: &out)
        out += bytes
    }

    private static func varint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }
}
