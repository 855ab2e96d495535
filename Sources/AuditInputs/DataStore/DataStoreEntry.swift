/// Receives the entries of a DataStore `PreferenceMap` in file order, one call per entry.
/// Offsets are absolute; resolve them with `window.position(of:)` during the call (a streaming
/// window forgets an entry's bytes once the reader moves on).
public protocol DataStoreVisitor {
    mutating func entry(_ entry: DataStoreEntry) throws
}

/// The value of one preference: the field of the `Value` oneof that is set. Floating-point
/// values keep their bit patterns, so that two reads of a NaN compare equal.
public enum DataStoreValue: Equatable, Sendable {
    case boolean(Bool)
    case float(bitPattern: UInt32)
    /// `int32 integer`: what `intPreferencesKey` writes.
    case integer(Int32)
    /// `int64 long`: what Flutter's `setInt` writes (`longPreferencesKey`).
    case long(Int64)
    /// Validated UTF-8; the offset is that of its first byte (just past the length when empty).
    case string(PrefsText)
    /// The members of a `StringSet`, in file order (a set: order means nothing).
    case stringSet([PrefsText])
    case double(bitPattern: UInt64)
    /// `bytes`: no Flutter API writes it, but any DataStore user can.
    case bytes(PrefsText)
}

/// One entry of the `preferences` map.
public struct DataStoreEntry: Equatable, Sendable {
    /// The key as stored: the name the app passed, with no `flutter.` prefix.
    public var key: String
    /// Absolute offset of the key's first byte.
    public var keyOffset: Int
    public var value: DataStoreValue
    /// Absolute offset of the value's payload: a string's first byte, a set's first member, a
    /// scalar's first byte.
    public var valueOffset: Int
    /// The whole entry as written, from its tag: what a redacted copy replaces.
    public var range: Range<Int>

    public init(key: String, keyOffset: Int, value: DataStoreValue, valueOffset: Int, range: Range<Int>) {
        self.key = key
        self.keyOffset = keyOffset
        self.value = value
        self.valueOffset = valueOffset
        self.range = range
    }
}
