/// A reader of Jetpack DataStore preferences files (`files/datastore/*.preferences_pb`), where
/// Flutter's `SharedPreferencesAsync` keeps an Android app's main stores. The file is one
/// protobuf `PreferenceMap` (androidx.datastore `PreferencesProto`):
///
///     message PreferenceMap { map<string, Value> preferences = 1; }
///     message Value { oneof value { bool boolean = 1; float float = 2; int32 integer = 3;
///         int64 long = 4; string string = 5; StringSet string_set = 6; double double = 7;
///         bytes bytes = 8; } }
///     message StringSet { repeated string strings = 1; }
///
/// The wire format is read by hand, and only this schema: a field the schema does not have, a
/// wrong wire type, a second key, value or oneof field, a value with none, text that is not
/// UTF-8, or a length or varint that runs past its message is an error at its offset (fail
/// closed: a value the reader skipped could hold a secret). The schema nests three messages
/// deep at most and unknown messages are never entered, so nothing recurses. It streams through
/// a `ByteWindow` an entry at a time: memory is bounded by the largest entry.
public struct DataStoreReader {
    public let window: ByteWindow

    /// A reader over `window` from its current start.
    public init(window: ByteWindow) {
        self.window = window
    }

    /// A reader over a whole buffer (offsets are offsets into `bytes`).
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.init(window: ByteWindow(whole: bytes))
    }

    /// Reads the whole file and calls `visitor` once per entry. An empty input is an error, as
    /// for every format (DataStore writes an empty map as an empty file, which a cut file also
    /// is). When the window fails to read, this reports a truncation: check `window.failure`.
    public mutating func read<V: DataStoreVisitor>(_ visitor: inout V) throws {
        var next = window.start
        guard window.ensure(next, keeping: next) else { throw DataStoreError(.emptyInput, at: next) }
        while window.ensure(next, keeping: next) {
            // The tag and the length: two varints of at most ten bytes each.
            _ = window.ensure(next + 19, keeping: next)
            var header = cursor(next..<window.end, message: .preferenceMap)
            let tag = try header.tag()
            guard tag.field == 1 else { throw DataStoreError(.unknownField(tag.field, in: .preferenceMap), at: tag.offset) }
            try header.expect(tag, .lengthDelimited)
            let lengthOffset = header.offset
            let length = try header.varint()
            let contentStart = header.offset
            // Clamped, so that a length beyond the address space fails as one past the end.
            let contentEnd = length > UInt64(Int.max - contentStart) ? Int.max : contentStart + Int(length)
            if contentEnd > contentStart && !window.ensure(contentEnd - 1, keeping: next) {
                throw DataStoreError(.lengthPastEnd(length: length, available: window.end - contentStart, in: .preferenceMap), at: lengthOffset)
            }
            var entry = cursor(contentStart..<contentEnd, message: .entry)
            try visitor.entry(try DataStoreReader.entry(&entry, range: next..<contentEnd))
            next = contentEnd
        }
    }

    /// A cursor over visible bytes (absolute offsets).
    private func cursor(_ range: Range<Int>, message: DataStoreMessage) -> ProtobufCursor {
        ProtobufCursor(origin: window.base - window.start, range: range, message: message)
    }

    /// The entry whose content `cursor` covers (`range` is the whole entry, from its tag).
    static func entry(_ cursor: inout ProtobufCursor, range: Range<Int>) throws(DataStoreError) -> DataStoreEntry {
        var key: (text: String, offset: Int)?
        var value: (value: DataStoreValue, offset: Int)?
        while !cursor.isAtEnd {
            let tag = try cursor.tag()
            switch tag.field {
            case 1:
                try cursor.expect(tag, .lengthDelimited)
                guard key == nil else { throw DataStoreError(.duplicateField("key", in: .entry), at: tag.offset) }
                let text = try string(&cursor, "a key")
                key = (String(decoding: text.bytes, as: UTF8.self), text.offset)
            case 2:
                try cursor.expect(tag, .lengthDelimited)
                guard value == nil else { throw DataStoreError(.duplicateField("value", in: .entry), at: tag.offset) }
                var inner = cursor.nested(try cursor.lengthDelimited(), message: .value)
                value = try self.value(&inner)
            default:
                throw DataStoreError(.unknownField(tag.field, in: .entry), at: tag.offset)
            }
        }
        guard let key else { throw DataStoreError(.missingField("key", in: .entry), at: range.lowerBound) }
        guard let value else { throw DataStoreError(.missingField("value", in: .entry), at: range.lowerBound) }
        return DataStoreEntry(key: key.text, keyOffset: key.offset, value: value.value, valueOffset: value.offset, range: range)
    }

    /// The one field of a `Value` that is set, and the offset of its payload.
    private static func value(_ cursor: inout ProtobufCursor) throws(DataStoreError) -> (value: DataStoreValue, offset: Int) {
        let start = cursor.offset
        var found: (value: DataStoreValue, offset: Int)?
        while !cursor.isAtEnd {
            let tag = try cursor.tag()
            guard found == nil else { throw DataStoreError(.valueWithTwoTypes, at: tag.offset) }
            let payload = cursor.offset
            switch tag.field {
            case 1:
                try cursor.expect(tag, .varint)
                found = (.boolean(try cursor.varint() != 0), payload)
            case 2:
                try cursor.expect(tag, .fixed32)
                found = (.float(bitPattern: try cursor.fixed32()), payload)
            case 3:
                try cursor.expect(tag, .varint)
                // Negative int32 values are written sign-extended to 64 bits.
                let integer = Int64(bitPattern: try cursor.varint())
                guard let narrow = Int32(exactly: integer) else { throw DataStoreError(.integerOutOfRange, at: payload) }
                found = (.integer(narrow), payload)
            case 4:
                try cursor.expect(tag, .varint)
                found = (.long(Int64(bitPattern: try cursor.varint())), payload)
            case 5:
                try cursor.expect(tag, .lengthDelimited)
                let text = try string(&cursor, "a string")
                found = (.string(text), text.offset)
            case 6:
                try cursor.expect(tag, .lengthDelimited)
                let range = try cursor.lengthDelimited()
                var set = cursor.nested(range, message: .stringSet)
                var members: [PrefsText] = []
                while !set.isAtEnd {
                    let member = try set.tag()
                    guard member.field == 1 else { throw DataStoreError(.unknownField(member.field, in: .stringSet), at: member.offset) }
                    try set.expect(member, .lengthDelimited)
                    members.append(try string(&set, "a string set member"))
                }
                found = (.stringSet(members), members.first?.offset ?? range.lowerBound)
            case 7:
                try cursor.expect(tag, .fixed64)
                found = (.double(bitPattern: try cursor.fixed64()), payload)
            case 8:
                try cursor.expect(tag, .lengthDelimited)
                let range = try cursor.lengthDelimited()
                found = (.bytes(PrefsText(cursor.bytes(range), at: range.lowerBound)), range.lowerBound)
            default:
                throw DataStoreError(.unknownField(tag.field, in: .value), at: tag.offset)
            }
        }
        guard let found else { throw DataStoreError(.valueWithoutType, at: start) }
        return found
    }

    /// A length-delimited field that must be UTF-8 (`what` names it in the error).
    private static func string(_ cursor: inout ProtobufCursor, _ what: String) throws(DataStoreError) -> PrefsText {
        let range = try cursor.lengthDelimited()
        let bytes = cursor.bytes(range)
        guard String(validating: bytes, as: UTF8.self) != nil else { throw DataStoreError(.invalidUTF8(what), at: range.lowerBound) }
        return PrefsText(bytes, at: range.lowerBound)
    }

    // MARK: - Detection

    /// Whether `bytes`, the start of an input (all of it when `isComplete`), begin as DataStore
    /// writes a `PreferenceMap`. The format has no magic, so this is strict: the first byte is
    /// the tag of a map entry (0x0A), every entry that `bytes` hold whole reads without error,
    /// and one cut by the end of `bytes` (an entry larger than the sniffed prefix, or a cut file
    /// whose reading will report the cut) has a UTF-8 key, the value's tag and length adding up
    /// to the entry's, and a `Value` field with its wire type. Text never holds the 0x12 tag
    /// byte where a value must start.
    static func looksLikePreferenceMap(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.first == 0x0A else { return false }
        var map = ProtobufCursor(origin: base, range: 0..<bytes.count, message: .preferenceMap)
        do {
            while !map.isAtEnd {
                let start = map.offset
                let tag = try map.tag()
                guard tag.field == 1, tag.wireType == .lengthDelimited else { return false }
                let length = try map.varint()
                let contentStart = map.offset
                guard length <= UInt64(bytes.count - contentStart) else {
                    return entryHeaderIsConsistent(map.nested(contentStart..<bytes.count, message: .entry), length: length)
                }
                var entry = map.nested(contentStart..<contentStart + Int(length), message: .entry)
                _ = try DataStoreReader.entry(&entry, range: start..<entry.end)
                map = map.nested(entry.end..<bytes.count, message: .preferenceMap)
            }
            return true
        } catch {
            return false
        }
    }

    /// The start of an entry of `length` bytes, cut by the end of the visible bytes: key, then
    /// the value's header, as DataStore writes them.
    private static func entryHeaderIsConsistent(_ visible: ProtobufCursor, length: UInt64) -> Bool {
        var cursor = visible
        do {
            let keyTag = try cursor.tag()
            guard keyTag.field == 1, keyTag.wireType == .lengthDelimited else { return false }
            _ = try string(&cursor, "a key")
            let valueTag = try cursor.tag()
            guard valueTag.field == 2, valueTag.wireType == .lengthDelimited else { return false }
            let valueLength = try cursor.varint()
            let header = UInt64(cursor.offset - visible.offset)
            guard header <= length, valueLength == length - header else { return false }
            let field = try cursor.tag()
            let wireTypes: [UInt32: ProtobufWireType] = [1: .varint, 2: .fixed32, 3: .varint, 4: .varint,
                                                         5: .lengthDelimited, 6: .lengthDelimited, 7: .fixed64, 8: .lengthDelimited]
            return wireTypes[field.field] == field.wireType
        } catch {
            return false
        }
    }
}
