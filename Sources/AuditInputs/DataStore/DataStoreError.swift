/// The messages of a DataStore preferences file (androidx.datastore `PreferencesProto`), named
/// in errors so that a reader knows which length or field is wrong.
public enum DataStoreMessage: String, Equatable, Sendable {
    case preferenceMap = "PreferenceMap"
    case entry = "a preferences map entry"
    case value = "Value"
    case stringSet = "StringSet"
}

/// Why a DataStore preferences file was rejected. Messages name the field and the kind of
/// problem, never the bytes: these files hold the secrets we report.
public enum DataStoreReason: Equatable, Sendable {
    case emptyInput
    case truncatedVarint(in: DataStoreMessage)
    case varintOverflow
    case truncatedFixed(bytes: Int, in: DataStoreMessage)
    case tagBeyond32Bits
    case fieldNumberZero
    case invalidWireType(UInt8)
    case lengthPastEnd(length: UInt64, available: Int, in: DataStoreMessage)
    case unknownField(UInt32, in: DataStoreMessage)
    case wrongWireType(field: UInt32, in: DataStoreMessage, found: UInt8, expected: UInt8)
    case duplicateField(String, in: DataStoreMessage)
    case missingField(String, in: DataStoreMessage)
    case valueWithoutType
    case valueWithTwoTypes
    case invalidUTF8(String)
    case integerOutOfRange

    public var message: String {
        switch self {
        case .emptyInput: return "empty input"
        case .truncatedVarint(let message): return "a varint runs past the end of \(message.end)"
        case .varintOverflow: return "a varint longer than 64 bits"
        case .truncatedFixed(let bytes, let message): return "a fixed-width value of \(bytes) bytes runs past the end of \(message.end)"
        case .tagBeyond32Bits: return "a field tag beyond 32 bits"
        case .fieldNumberZero: return "field number 0 (not a valid protobuf field)"
        case .invalidWireType(let type): return "wire type \(type) (DataStore uses varint, 64-bit, length-delimited and 32-bit fields only)"
        case .lengthPastEnd(let length, let available, let message):
            return "a length of \(length) \(length == 1 ? "byte" : "bytes") runs past the end of \(message.end) (\(available) left)"
        case .unknownField(let field, let message): return "unknown field \(field) in \(message.article)"
        case .wrongWireType(let field, let message, let found, let expected):
            return "field \(field) of \(message.article) has wire type \(found), expected \(expected)"
        case .duplicateField(let name, let message): return "a second \(name) in \(message.article)"
        case .missingField(let name, let message): return "\(message.article) without its \(name)"
        case .valueWithoutType: return "a Value with none of its fields set (DataStore refuses it too)"
        case .valueWithTwoTypes: return "a Value with more than one of its fields set"
        case .invalidUTF8(let what): return "\(what) that is not valid UTF-8"
        case .integerOutOfRange: return "an int32 Value outside the 32-bit range"
        }
    }
}

extension DataStoreMessage {
    /// The message as an error names it.
    var article: String {
        switch self {
        case .preferenceMap, .value, .stringSet: return "the \(rawValue)"
        case .entry: return rawValue
        }
    }

    /// What a value that runs past the end of the message runs past: the input, for the
    /// `PreferenceMap`, which is the whole file.
    var end: String {
        self == .preferenceMap ? "the input" : article
    }
}

/// A DataStore error at an absolute byte offset of the input.
public struct DataStoreError: Error, Equatable, Sendable {
    public var reason: DataStoreReason
    public var offset: Int

    public init(_ reason: DataStoreReason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}
