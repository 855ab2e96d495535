/// Writes `PreferenceMap` entries as DataStore's protobuf-lite writes them: the key (field 1),
/// then the `Value` (field 2), each length a minimal varint computed from what it covers. Only
/// the values a redaction rewrites are ever written: strings, string sets and bytes.
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
