import AuditBytes

/// What a `<string>` value of Flutter's `shared_preferences` holds once its type prefix is
/// recognised (FORMATS.md D, "Type encoding"). Secrets inside lists hide behind base64 and Java
/// serialization, so the scanner must look at the decoded strings, not at the stored text.
public enum FlutterPrefsValue: Equatable, Sendable {
    /// No Flutter prefix: the value is the string itself.
    case plain
    /// `List<String>` as written since shared_preferences_android 2.4.3: the JSON array text after
    /// the prefix (checked to be an array of strings).
    case jsonStringList(json: [UInt8])
    /// `List<String>` as written before: the UTF-8 bytes of each string of the serialized ArrayList.
    case legacyStringList([[UInt8]])
    /// A Dart double, as Java's `Double.toString` wrote it.
    case double(String)
    /// A Dart int beyond 64 bits, in base 36 (the old Java plugin).
    case bigInteger(String)
    /// A prefix is present but what follows it is not what that prefix promises.
    case malformed(FlutterPrefsMalformation)
}

/// Why a prefixed value could not be decoded. Messages never quote the value.
public enum FlutterPrefsMalformation: Equatable, Sendable {
    case invalidJSONList
    case invalidBase64
    case notJavaSerialization
    case unexpectedJavaClass
    case malformedJavaStream
    case invalidModifiedUTF8
    case invalidDouble
    case invalidBigInteger

    public var message: String {
        switch self {
        case .invalidJSONList: return "the JSON list payload is not a JSON array of strings"
        case .invalidBase64: return "the legacy list payload is not valid base64"
        case .notJavaSerialization: return "the legacy list payload does not start with the Java serialization magic AC ED 00 05"
        case .unexpectedJavaClass: return "the legacy list payload serializes a class other than an ArrayList of strings"
        case .malformedJavaStream: return "the legacy list payload is a truncated or malformed Java serialization stream"
        case .invalidModifiedUTF8: return "a string in the legacy list payload is not valid modified UTF-8"
        case .invalidDouble: return "the Double payload is not a Java double"
        case .invalidBigInteger: return "the BigInteger payload is not a base-36 integer"
        }
    }
}

/// Flutter's magic prefixes and the secure-storage naming conventions, from
/// `shared_preferences_android` (`strings.dart`, the Kotlin constants) and `flutter_secure_storage`.
public enum FlutterPrefsEncoding {
    /// "This is the prefix for a list." in base64, then `!`, which base64 cannot contain.
    public static let jsonListPrefix = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu!"
    /// "This is the prefix for a list." in base64.
    public static let listPrefix = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu"
    /// "This is the prefix for Double." in base64.
    public static let doublePrefix = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBEb3VibGUu"
    /// "This is the prefix for BigInteger" in base64.
    public static let bigIntegerPrefix = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBCaWdJbnRlZ2Vy"
    /// The shared_preferences plugin's prefix of every key the app stores.
    public static let sharedPreferencesPrefix = "flutter."
    /// flutter_secure_storage's default key prefix ("This is the prefix for a secure storage\n",
    /// unpadded base64) and the `_` that joins it to the user's key.
    public static let secureStoragePrefix = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_"
    /// The Tink keysets Jetpack EncryptedSharedPreferences stores beside its encrypted entries.
    public static let encryptedPrefsKeysetNames: Set<String> = [
        "__androidx_security_crypto_encrypted_prefs_key_keyset__",
        "__androidx_security_crypto_encrypted_prefs_value_keyset__",
    ]

    /// Recognises the prefix of a `<string>` value and decodes what follows it. The JSON-list
    /// prefix is tried first: it is the list prefix plus `!`.
    public static func decode(_ value: [UInt8]) -> FlutterPrefsValue {
        if let payload = payload(value, after: jsonListPrefixBytes) {
            return isJSONStringArray(payload) ? .jsonStringList(json: Array(payload)) : .malformed(.invalidJSONList)
        }
        if let payload = payload(value, after: listPrefixBytes) {
            guard let stream = Base64.decode(payload, alphabet: .standard, ignoringLineBreaks: true) else {
                return .malformed(.invalidBase64)
            }
            switch JavaStringList.strings(in: stream) {
            case .success(let strings): return .legacyStringList(strings)
            case .failure(let reason): return .malformed(reason.malformation)
            }
        }
        if let payload = payload(value, after: doublePrefixBytes) {
            return JavaNumberText.isFloatingPoint(payload) ? .double(String(decoding: payload, as: UTF8.self)) : .malformed(.invalidDouble)
        }
        if let payload = payload(value, after: bigIntegerPrefixBytes) {
            return isBase36Integer(payload) ? .bigInteger(String(decoding: payload, as: UTF8.self)) : .malformed(.invalidBigInteger)
        }
        return .plain
    }

    /// A flutter_secure_storage entry name (default key prefix). Its value should be ciphertext;
    /// a plaintext one is the finding.
    public static func isSecureStorageKey(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isSecureStorageKey)
    }

    /// `isSecureStorageKey` of a name's UTF-8.
    public static func isSecureStorageKey(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.hasBytePrefix(secureStoragePrefixBytes)
    }

    /// The two plugins' prefixes as bytes, compared as the plugins compare them, by code units.
    public static let sharedPreferencesPrefixBytes = Array(sharedPreferencesPrefix.utf8), secureStoragePrefixBytes = Array(secureStoragePrefix.utf8)

    /// The plugin prefix a name starts with, by code units, as the plugins write and read it
    /// (`'flutter.' + key`, `startsWith`): secure storage's, then shared_preferences'; nil for
    /// neither. Most names are ruled out by their first byte, before the prefixes are compared.
    public static func pluginPrefix(of name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let first = name.first, first == pluginPrefixLeads.0 || first == pluginPrefixLeads.1 else { return nil }
        return pluginPrefixes.first(where: name.hasBytePrefix)
    }

    private static let pluginPrefixes = [secureStoragePrefixBytes, sharedPreferencesPrefixBytes]
    /// The prefixes' first bytes as literals: read from the prefixes, they took a `swift_once`
    /// check at every name (the contract checks try each payload key). `FlutterPrefsEncodingTests`
    /// holds them to the prefixes.
    static let pluginPrefixLeads = (UInt8(ascii: "V"), UInt8(ascii: "f"))

    /// The user's key of a flutter_secure_storage entry name (what the app passed to `write`),
    /// or nil when the name lacks the prefix.
    public static func secureStorageUserKey(_ name: String) -> String? {
        guard isSecureStorageKey(name) else { return nil }
        return String(name.utf8.dropFirst(secureStoragePrefix.utf8.count))!
    }

    /// One of the two keyset entries that mark a Jetpack EncryptedSharedPreferences file, in
    /// which entry names are encrypted too.
    public static func isEncryptedPrefsKeyset(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isEncryptedPrefsKeyset)
    }

    /// `isEncryptedPrefsKeyset` of a name's UTF-8.
    public static func isEncryptedPrefsKeyset(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        // The first byte before the names: every entry's name is asked about.
        guard let first = name.first, encryptedPrefsKeysetLeads.contains(first) else { return false }
        return encryptedPrefsKeysetNames.contains(String(decoding: name, as: UTF8.self))
    }

    /// The first bytes of `encryptedPrefsKeysetNames` (both start with `_`).
    private static let encryptedPrefsKeysetLeads = Array(Set(encryptedPrefsKeysetNames.compactMap(\.utf8.first)))

    /// Whether an entry name is one that Jetpack EncryptedSharedPreferences encrypted (what
    /// flutter_secure_storage writes with `encryptedSharedPreferences`): standard base64 of a Tink
    /// AES-SIV ciphertext, whose first byte is Tink's output prefix 1 and which holds a 4-byte
    /// key id, a 16-byte synthetic IV and at least one byte of the name. Such a name says nothing
    /// of the store it belongs to, so it is no unknown storage key to review.
    public static func isEncryptedEntryName(_ name: String) -> Bool {
        // The length and first byte before a copy: most names fail on them.
        guard name.utf8.count >= 30, name.utf8.first == UInt8(ascii: "A"),
              let decoded = Base64.decode(Array(name.utf8), alphabet: .standard) else {
            return false
        }
        return decoded.count >= 22 && decoded[0] == 0x01
    }

    /// Whether a secure-storage value looks like what the plugin writes: `Base64.encodeToString`
    /// of IV + ciphertext. That is strict base64 (standard alphabet; CR/LF from Android's line
    /// wrapping allowed) ending with the line break Android appends, decoding to at least 28
    /// bytes (an IV and a tag or block), mixing upper and lower case letters, and decoding to
    /// bytes that are not readable text. A plaintext token (`ghp_…`, `hunter2`, a random key
    /// stored by hand) is not ciphertext and is scanned.
    public static func looksLikeCiphertext(_ value: [UInt8]) -> Bool {
        // Android's Base64.DEFAULT ends every value it writes with a line break (`&#10;` in the
        // XML); a plaintext token someone stored by hand does not.
        guard value.last == 0x0A else { return false }
        var upper = false, lower = false
        for c in value {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): lower = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), 0x0A, 0x0D: break
            default: return false
            }
        }
        guard upper && lower else { return false }
        // An IV (12 or 16 bytes) and at least a tag or a block.
        guard let decoded = Base64.decode(value, alphabet: .standard, ignoringLineBreaks: true), decoded.count >= 28 else {
            return false
        }
        return !isReadableText(decoded)
    }

    // MARK: - Helpers

    /// The prefixes `decode` tries, as bytes for `memcmp`: compared through `String.UTF8View`,
    /// a list's 40-byte prefix cost some 700 instructions a value.
    private static let jsonListPrefixBytes = Array(jsonListPrefix.utf8), listPrefixBytes = Array(listPrefix.utf8),
                       doublePrefixBytes = Array(doublePrefix.utf8), bigIntegerPrefixBytes = Array(bigIntegerPrefix.utf8)

    private static func payload(_ value: [UInt8], after prefix: [UInt8]) -> ArraySlice<UInt8>? {
        value.withUnsafeBufferPointer { $0.hasBytePrefix(prefix) } ? value[prefix.count...] : nil
    }

    /// Valid UTF-8 without control characters other than tab, LF and CR.
    private static func isReadableText(_ bytes: [UInt8]) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        for b in bytes where (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F {
            return false
        }
        return true
    }

    /// `BigInteger(text, 36)` syntax: an optional sign, then at least one base-36 digit.
    private static func isBase36Integer(_ text: ArraySlice<UInt8>) -> Bool {
        var digits = text[...]
        if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return false }
        return digits.allSatisfy { c in
            c &- UInt8(ascii: "0") < 10 || (c | 0x20) &- UInt8(ascii: "a") < 26
        }
    }

    /// A JSON text that is an array of strings (what `jsonEncode(List<String>)` writes).
    private static func isJSONStringArray(_ json: ArraySlice<UInt8>) -> Bool {
        json.withUnsafeBytes { readStringArray($0, collects: false) } != nil
    }

    /// The strings of a list `decode` found valid (`jsonStringList`), as `JSONValue` decodes
    /// them (escapes undone, then made a `String`, which repairs what is not UTF-8): their bytes
    /// one after another, and where each ends. One read of the list, where a tree of it made an
    /// array, a node and a `String` for every string, and each string's bytes another array.
    public static func strings(inJSONStringList json: [UInt8]) -> (bytes: [UInt8], ends: [Int])? {
        json.withUnsafeBytes { readStringArray($0, collects: true) }.map { ($0.bytes, $0.ends) }
    }

    /// `json` read as an array of strings (nil when it is not one), its strings kept with `collects`.
    private static func readStringArray(_ json: UnsafeRawBufferPointer, collects: Bool) -> StringArrayShape? {
        var reader = JSONReader(json)
        var shape = StringArrayShape(collects: collects)
        do {
            try reader.readText(&shape)
            return shape
        } catch {
            return nil
        }
    }

    /// Accepts the events of `["…", …]` only; with `collects`, keeps the strings as `strings`
    /// gives them.
    private struct StringArrayShape: JSONVisitor {
        struct WrongShape: Error {}
        var collects = false
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var depth = 0
        mutating func arrayStart(at offset: Int) throws {
            guard depth == 0 else { throw WrongShape() }
            depth = 1
        }
        mutating func arrayEnd(at offset: Int) throws { depth = 0 }
        mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
            guard depth == 1 else { throw WrongShape() }
            guard collects else { return }
            // The reader has checked the UTF-8 of a string without escapes: it is as it is.
            if escaped { bytes.append(contentsOf: JSONString.decode(raw, escaped: true).utf8) } else { bytes.append(contentsOf: raw) }
            ends.append(bytes.count)
        }
        mutating func objectStart(at offset: Int) throws { throw WrongShape() }
        mutating func objectEnd(at offset: Int) throws { throw WrongShape() }
        mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws { throw WrongShape() }
        mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws { throw WrongShape() }
        mutating func literal(_ value: JSONLiteral, at offset: Int) throws { throw WrongShape() }
    }
}

/// Extracts the strings of a Java-serialized `ArrayList<String>` (or `Arrays$ArrayList` backed by
/// a `String[]`), the only classes Flutter's `StringListObjectInputStream` admits. It walks the
/// stream grammar for exactly those shapes (class descriptor, fields, `writeObject` block data,
/// `TC_STRING`/`TC_LONGSTRING`, back-references to strings) and instantiates nothing: any other
/// class or type code is refused.
public enum JavaStringList {
    enum Failure: Error, Equatable {
        case notSerialization, unexpectedClass, malformed, invalidModifiedUTF8

        var malformation: FlutterPrefsMalformation {
            switch self {
            case .notSerialization: return .notJavaSerialization
            case .unexpectedClass: return .unexpectedJavaClass
            case .malformed: return .malformedJavaStream
            case .invalidModifiedUTF8: return .invalidModifiedUTF8
            }
        }
    }

    // Type codes (java.io.ObjectStreamConstants).
    public static let tcNull: UInt8 = 0x70, tcReference: UInt8 = 0x71, tcClassDesc: UInt8 = 0x72, tcObject: UInt8 = 0x73
    public static let tcString: UInt8 = 0x74, tcArray: UInt8 = 0x75, tcBlockData: UInt8 = 0x77, tcEndBlockData: UInt8 = 0x78
    public static let tcBlockDataLong: UInt8 = 0x7A, tcLongString: UInt8 = 0x7C
    static let baseWireHandle = 0x7E_0000
    static let scWriteMethod: UInt8 = 0x01

    static let listClasses: [[UInt8]] = [Array("java.util.ArrayList".utf8), Array("java.util.Arrays$ArrayList".utf8)]
    static let stringArrayClass = Array("[Ljava.lang.String;".utf8)

    /// The list's strings as standard UTF-8, in order.
    static func strings(in bytes: [UInt8]) -> Result<[[UInt8]], Failure> {
        var stream = Stream(bytes: bytes)
        do {
            return .success(try stream.readList())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.malformed)
        }
    }

    private struct ClassDesc {
        var name: [UInt8]
        var flags: UInt8
        /// Field type codes in stream order (`B C D F I J S Z` primitive, `L [` object).
        var fieldTypes: [UInt8]
    }

    private enum Handle {
        case string([UInt8])
        case classDesc(ClassDesc)
        case other
    }

    private struct Stream {
        let bytes: [UInt8]
        var i = 0
        var handles: [Handle] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func readList() throws -> [[UInt8]] {
            guard bytes.count >= 4, bytes[0] == 0xAC, bytes[1] == 0xED, bytes[2] == 0x00, bytes[3] == 0x05 else {
                throw Failure.notSerialization
            }
            i = 4
            guard try u8() == tcObject else { throw Failure.unexpectedClass }
            let desc = try classDesc()
            guard JavaStringList.listClasses.contains(desc.name) else { throw Failure.unexpectedClass }
            handles.append(.other)
            var strings: [[UInt8]] = []
            // Field values, in descriptor order: primitives are skipped; the one object field of
            // Arrays$ArrayList holds the String[].
            for type in desc.fieldTypes {
                switch type {
                case UInt8(ascii: "B"), UInt8(ascii: "Z"): try skip(1)
                case UInt8(ascii: "C"), UInt8(ascii: "S"): try skip(2)
                case UInt8(ascii: "I"), UInt8(ascii: "F"): try skip(4)
                case UInt8(ascii: "J"), UInt8(ascii: "D"): try skip(8)
                default: strings += try element(allowArray: true)
                }
            }
            // ArrayList.writeObject: the capacity as block data, then each element.
            if desc.flags & scWriteMethod != 0 {
                loop: while true {
                    switch try u8() {
                    case tcEndBlockData: break loop
                    case tcBlockData: try skip(Int(try u8()))
                    case tcBlockDataLong: try skip(Int(try u32()))
                    default:
                        i -= 1
                        strings += try element(allowArray: false)
                    }
                }
            }
            guard i == bytes.count else { throw Failure.malformed }
            return strings
        }

        /// A list element or array field: a string (new or back-reference), null, or, where
        /// allowed, a `String[]`.
        mutating func element(allowArray: Bool) throws -> [[UInt8]] {
            switch try u8() {
            case tcString:
                return [try newString(length: Int(try u16()))]
            case tcLongString:
                let length = try u64()
                guard length <= UInt64(bytes.count - i) else { throw Failure.malformed }
                return [try newString(length: Int(length))]
            case tcReference:
                return [try referencedString()]
            case tcNull:
                return []
            case tcArray where allowArray:
                let desc = try classDesc()
                guard desc.name == JavaStringList.stringArrayClass else { throw Failure.unexpectedClass }
                handles.append(.other)
                let count = Int(Int32(bitPattern: try u32()))
                guard count >= 0 else { throw Failure.malformed }
                var strings: [[UInt8]] = []
                for _ in 0..<count {
                    // Each element takes at least one byte, so a bogus count fails quickly.
                    guard i < bytes.count else { throw Failure.malformed }
                    strings += try element(allowArray: false)
                }
                return strings
            case tcObject, tcArray, tcClassDesc:
                throw Failure.unexpectedClass
            default:
                throw Failure.malformed
            }
        }

        /// A class descriptor: new (`TC_CLASSDESC`) or a back-reference.
        mutating func classDesc() throws -> ClassDesc {
            switch try u8() {
            case tcReference:
                guard case .classDesc(let desc)? = try referenced() else { throw Failure.malformed }
                return desc
            case tcClassDesc:
                let name = try utf(length: Int(try u16()))
                try skip(8)  // serialVersionUID
                let handle = handles.count
                handles.append(.other)
                let flags = try u8()
                let fieldCount = Int(try u16())
                var types: [UInt8] = []
                for _ in 0..<fieldCount {
                    let type = try u8()
                    _ = try utf(length: Int(try u16()))
                    switch type {
                    case UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "D"), UInt8(ascii: "F"),
                         UInt8(ascii: "I"), UInt8(ascii: "J"), UInt8(ascii: "S"), UInt8(ascii: "Z"):
                        break
                    case UInt8(ascii: "L"), UInt8(ascii: "["):
                        // The field's type signature, itself a string object.
                        switch try u8() {
                        case tcString: _ = try newString(length: Int(try u16()))
                        case tcReference: _ = try referencedString()
                        default: throw Failure.malformed
                        }
                    default:
                        throw Failure.malformed
                    }
                    types.append(type)
                }
                // No class annotations, and no serializable superclass (AbstractList is not).
                guard try u8() == tcEndBlockData else { throw Failure.unexpectedClass }
                // Read as one byte, not a nested descriptor: no recursion on hostile chains.
                guard try u8() == tcNull else { throw Failure.unexpectedClass }
                let desc = ClassDesc(name: name, flags: flags, fieldTypes: types)
                handles[handle] = .classDesc(desc)
                return desc
            default:
                throw Failure.malformed
            }
        }

        mutating func newString(length: Int) throws -> [UInt8] {
            let s = try utf(length: length)
            handles.append(.string(s))
            return s
        }

        mutating func referencedString() throws -> [UInt8] {
            guard case .string(let s)? = try referenced() else { throw Failure.malformed }
            return s
        }

        mutating func referenced() throws -> Handle? {
            let index = Int(try u32()) - JavaStringList.baseWireHandle
            guard index >= 0 && index < handles.count else { return nil }
            return handles[index]
        }

        /// `length` bytes of modified UTF-8, converted to standard UTF-8.
        mutating func utf(length: Int) throws -> [UInt8] {
            guard length <= bytes.count - i else { throw Failure.malformed }
            let start = i
            i += length
            guard let utf8 = modifiedUTF8ToUTF8(bytes[start..<i]) else { throw Failure.invalidModifiedUTF8 }
            return utf8
        }

        mutating func skip(_ n: Int) throws {
            guard n <= bytes.count - i else { throw Failure.malformed }
            i += n
        }

        mutating func u8() throws -> UInt8 {
            guard i < bytes.count else { throw Failure.malformed }
            i += 1
            return bytes[i - 1]
        }

        mutating func u16() throws -> UInt16 { UInt16(try u8()) << 8 | UInt16(try u8()) }
        mutating func u32() throws -> UInt32 { UInt32(try u16()) << 16 | UInt32(try u16()) }
        mutating func u64() throws -> UInt64 { UInt64(try u32()) << 32 | UInt64(try u32()) }
    }

    /// Java's modified UTF-8 (`DataOutput.writeUTF`: NUL as C0 80, supplementary characters as
    /// two 3-byte surrogates) to standard UTF-8. A lone surrogate, which a Java string may hold
    /// but UTF-8 cannot, becomes U+FFFD. Nil for bytes that are not modified UTF-8.
    static func modifiedUTF8ToUTF8(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingHigh: UInt32?
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            let unit: UInt32
            if c < 0x80 {
                if c == 0 { return nil }
                if pendingHigh == nil {
                    out.append(c)
                    i += 1
                    continue
                }
                unit = UInt32(c)
                i += 1
            } else if c & 0xE0 == 0xC0 {
                guard i + 1 < end, bytes[i + 1] & 0xC0 == 0x80 else { return nil }
                unit = UInt32(c & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                i += 2
            } else if c & 0xF0 == 0xE0 {
                guard i + 2 < end, bytes[i + 1] & 0xC0 == 0x80, bytes[i + 2] & 0xC0 == 0x80 else { return nil }
                unit = UInt32(c & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                i += 3
            } else {
                return nil
            }
            switch unit {
            case 0xD800...0xDBFF:
                if pendingHigh != nil { JSONString.appendUTF8(0xFFFD, to: &out) }
                pendingHigh = unit
            case 0xDC00...0xDFFF:
                if let high = pendingHigh {
                    JSONString.appendUTF8(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &out)
                    pendingHigh = nil
                } else {
                    JSONString.appendUTF8(0xFFFD, to: &out)
                }
            default:
                if pendingHigh != nil {
                    JSONString.appendUTF8(0xFFFD, to: &out)
                    pendingHigh = nil
                }
                JSONString.appendUTF8(unit, to: &out)
            }
        }
        if pendingHigh != nil { JSONString.appendUTF8(0xFFFD, to: &out) }
        return out
    }
}
