/// The protobuf wire types (the low three bits of a tag); 3 and 4 (groups) and 6 and 7 are
/// not used by any message DataStore writes, and are refused.
public enum ProtobufWireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// A field tag and where it was written.
struct ProtobufTag {
    var field: UInt32
    var wireType: ProtobufWireType
    var offset: Int
}

/// Reads the protobuf wire format from bytes that are all visible, within one message: every
/// varint, fixed-width value and length is checked against the end of that message, so one that
/// runs past it is an error at its offset, never a read beyond the bytes. Offsets are absolute.
struct ProtobufCursor {
    /// Indexed by absolute offsets (`base - startOffset`, as the prefs reader does).
    private let origin: UnsafePointer<UInt8>
    private(set) var offset: Int
    /// Absolute offset just past the message.
    let end: Int
    /// The message being read, named in errors.
    let message: DataStoreMessage

    init(origin: UnsafePointer<UInt8>, range: Range<Int>, message: DataStoreMessage) {
        self.origin = origin
        offset = range.lowerBound
        end = range.upperBound
        self.message = message
    }

    var isAtEnd: Bool { offset >= end }

    /// A base-128 varint of at most ten bytes; a tenth byte above 1 would carry bits 64 and up.
    mutating func varint() throws(DataStoreError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw DataStoreError(.truncatedVarint(in: message), at: start) }
            let byte = origin[offset]
            offset += 1
            if shift == 63 && byte > 1 { throw DataStoreError(.varintOverflow, at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A field tag: a field number from 1 to 2^29 - 1 and a wire type DataStore uses.
    mutating func tag() throws(DataStoreError) -> ProtobufTag {
        let start = offset
        let raw = try varint()
        guard raw <= UInt64(UInt32.max) else { throw DataStoreError(.tagBeyond32Bits, at: start) }
        let field = UInt32(raw >> 3)
        guard field != 0 else { throw DataStoreError(.fieldNumberZero, at: start) }
        guard let wireType = ProtobufWireType(rawValue: UInt8(raw & 7)) else {
            throw DataStoreError(.invalidWireType(UInt8(raw & 7)), at: start)
        }
        return ProtobufTag(field: field, wireType: wireType, offset: start)
    }

    mutating func fixed32() throws(DataStoreError) -> UInt32 {
        UInt32(truncatingIfNeeded: try fixed(4))
    }

    mutating func fixed64() throws(DataStoreError) -> UInt64 {
        try fixed(8)
    }

    /// `count` little-endian bytes.
    private mutating func fixed(_ count: Int) throws(DataStoreError) -> UInt64 {
        guard end - offset >= count else { throw DataStoreError(.truncatedFixed(bytes: count, in: message), at: offset) }
        var value: UInt64 = 0
        for k in 0..<count { value |= UInt64(origin[offset + k]) << UInt64(8 * k) }
        offset += count
        return value
    }

    /// A length and the bytes it covers, which must end within the message: their absolute range.
    mutating func lengthDelimited() throws(DataStoreError) -> Range<Int> {
        let start = offset
        let length = try varint()
        let available = end - offset
        guard length <= UInt64(available) else {
            throw DataStoreError(.lengthPastEnd(length: length, available: available, in: message), at: start)
        }
        let range = offset..<offset + Int(length)
        offset = range.upperBound
        return range
    }

    /// The bytes of `range` (inside the message), copied.
    func bytes(_ range: Range<Int>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: origin + range.lowerBound, count: range.count))
    }

    /// A cursor over the embedded message at `range`.
    func nested(_ range: Range<Int>, message: DataStoreMessage) -> ProtobufCursor {
        ProtobufCursor(origin: origin, range: range, message: message)
    }

    /// Refuses a field whose wire type is not the one the schema gives it.
    func expect(_ tag: ProtobufTag, _ wireType: ProtobufWireType) throws(DataStoreError) {
        guard tag.wireType == wireType else {
            throw DataStoreError(.wrongWireType(field: tag.field, in: message, found: tag.wireType.rawValue, expected: wireType.rawValue), at: tag.offset)
        }
    }
}
