@testable import AuditInputs
import Foundation
import Testing

/// Builds the Java serialization streams that `ObjectOutputStream.writeObject` produces for the
/// lists Flutter stores, so the tests do not depend on a JVM.
private enum JavaSerialization {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
    static func be64(_ v: Int) -> [UInt8] { be32(v >> 32) + be32(v & 0xFFFF_FFFF) }

    /// `DataOutput.writeUTF`'s encoding: UTF-16 units, NUL as C0 80, no 4-byte sequences.
    static func modifiedUTF8(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        for unit in s.utf16 {
            let u = Int(unit)
            if u != 0 && u < 0x80 {
                out.append(UInt8(u))
            } else if u < 0x800 {
                out += [UInt8(0xC0 | u >> 6), UInt8(0x80 | u & 0x3F)]
            } else {
                out += [UInt8(0xE0 | u >> 12), UInt8(0x80 | u >> 6 & 0x3F), UInt8(0x80 | u & 0x3F)]
            }
        }
        return out
    }

    /// A string object: TC_STRING, or TC_LONGSTRING beyond 65535 bytes (or when forced).
    static func string(_ s: String, long: Bool = false) -> [UInt8] {
        let m = modifiedUTF8(s)
        if long || m.count > 0xFFFF { return [0x7C] + be64(m.count) + m }
        return [0x74] + be16(m.count) + m
    }

    /// `new ArrayList<>(strings)` serialized; repeated strings become back-references, as
    /// Java writes them when the same String instance appears twice.
    static func arrayList(_ strings: [String], longStrings: Bool = false) -> [UInt8] {
        var b: [UInt8] = [0xAC, 0xED, 0x00, 0x05, 0x73, 0x72] + be16(19) + Array("java.util.ArrayList".utf8)
        b += [0x78, 0x81, 0xD2, 0x1D, 0x99, 0xC7, 0x61, 0x9D, 0x03] + be16(1) + [0x49] + be16(4) + Array("size".utf8) + [0x78, 0x70]
        b += be32(strings.count) + [0x77, 0x04] + be32(strings.count)
        var handles: [String: Int] = [:]
        var nextHandle = 0x7E_0002  // 0: the class descriptor, 1: the list
        for s in strings {
            if let h = handles[s] {
                b += [0x71] + be32(h)
            } else {
                b += string(s, long: longStrings)
                handles[s] = nextHandle
                nextHandle += 1
            }
        }
        return b + [0x78]
    }

    /// `Arrays.asList(strings)` serialized: a `String[]` in the field `a`.
    static func arraysAsList(_ strings: [String]) -> [UInt8] {
        var b: [UInt8] = [0xAC, 0xED, 0x00, 0x05, 0x73, 0x72] + be16(26) + Array("java.util.Arrays$ArrayList".utf8)
        b += [0xD9, 0xA4, 0x3C, 0xBE, 0xCD, 0x88, 0x06, 0xD2, 0x02] + be16(1)
        b += [0x5B] + be16(1) + Array("a".utf8) + string("[Ljava/lang/Object;") + [0x78, 0x70]
        b += [0x75, 0x72] + be16(19) + Array("[Ljava.lang.String;".utf8) + [0xAD, 0xD2, 0x56, 0xE7, 0xE9, 0x1D, 0x7B, 0x47, 0x02] + be16(0) + [0x78, 0x70]
        b += be32(strings.count)
        // Handles: 0 descriptor, 1 field type, 2 list, 3 array descriptor, 4 array, then strings.
        var handles: [String: Int] = [:]
        var nextHandle = 0x7E_0005
        for s in strings {
            if let h = handles[s] {
                b += [0x71] + be32(h)
            } else {
                b += string(s)
                handles[s] = nextHandle
                nextHandle += 1
            }
        }
        return b
    }

    /// `Base64.encodeToString(bytes, Base64.DEFAULT)`: 76-character lines, trailing newline.
    static func androidBase64(_ bytes: [UInt8]) -> String {
        let flat = Data(bytes).base64EncodedString()
        var out = ""
        var line = ""
        for c in flat {
            line.append(c)
            if line.count == 76 {
                out += line + "\n"
                line = ""
            }
        }
        if !line.isEmpty { out += line + "\n" }
        return out
    }

    static func legacyValue(_ stream: [UInt8]) -> [UInt8] {
        Array((FlutterPrefsEncoding.listPrefix + androidBase64(stream)).utf8)
    }
}

private func decode(_ s: String) -> FlutterPrefsValue { FlutterPrefsEncoding.decode(Array(s.utf8)) }
private func strings(_ list: [String]) -> FlutterPrefsValue { .legacyStringList(list.map { Array($0.utf8) }) }

@Suite struct FlutterPrefsEncodingTests {
    static let abStream: [UInt8] = [
        0xAC, 0xED, 0x00, 0x05, 0x73, 0x72, 0x00, 0x13,
        0x6A, 0x61, 0x76, 0x61, 0x2E, 0x75, 0x74, 0x69, 0x6C, 0x2E, 0x41, 0x72, 0x72, 0x61, 0x79, 0x4C, 0x69, 0x73, 0x74,
        0x78, 0x81, 0xD2, 0x1D, 0x99, 0xC7, 0x61, 0x9D, 0x03, 0x00, 0x01, 0x49, 0x00, 0x04, 0x73, 0x69, 0x7A, 0x65,
        0x78, 0x70, 0x00, 0x00, 0x00, 0x02, 0x77, 0x04, 0x00, 0x00, 0x00, 0x02,
        0x74, 0x00, 0x01, 0x61, 0x74, 0x00, 0x01, 0x62, 0x78,
    ]

    @Test func exactLegacyListFromFormatsDocument() {
        #expect(JavaSerialization.arrayList(["a", "b"]) == Self.abStream)
        let base64 = JavaSerialization.androidBase64(Self.abStream)
        #expect(base64 == "rO0ABXNyABNqYXZhLnV0aWwuQXJyYXlMaXN0eIHSHZnHYZ0DAAFJAARzaXpleHAAAAACdwQAAAAC\ndAABYXQAAWJ4\n")
        #expect(decode(FlutterPrefsEncoding.listPrefix + base64) == strings(["a", "b"]))
    }

    /// The value as it sits in FlutterSharedPreferences.xml, through the XML reader.
    @Test func legacyListThroughTheXMLReader() throws {
        let xml = "<map>\n    <string name=\"flutter.l\">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3QurO0ABXNyABNqYXZhLnV0aWwuQXJyYXlMaXN0eIHSHZnHYZ0DAAFJAARzaXpleHAAAAACdwQAAAAC&#10;dAABYXQAAWJ4&#10;</string>\n</map>\n"
        struct Texts: PrefsXMLVisitor {
            var values: [[UInt8]] = []
            mutating func entry(_ entry: PrefsEntry) {}
            mutating func part(_ part: PrefsEntryPart) {
                if case .value(let text, nil) = part { values.append(text.bytes) }
            }
            mutating func endEntry() {}
            mutating func markup(_ markup: PrefsMarkup) {}
        }
        var texts = Texts()
        try Array(xml.utf8).withUnsafeBytes { buffer in
            var reader = PrefsXMLReader(buffer)
            try reader.read(&texts)
        }
        #expect(texts.values.count == 1)
        #expect(FlutterPrefsEncoding.decode(texts.values[0]) == strings(["a", "b"]))
    }

    @Test func legacyListsOfEveryShape() {
        let tricky = ["", "ghp_0123456789abcdefghijABCDEFGHIJ0123", "nul\u{0}inside", "é ü", "emoji 😀 pair", String(repeating: "x", count: 300)]
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(JavaSerialization.arrayList(tricky))) == strings(tricky))
        // The same instance twice is written once, then referenced.
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(JavaSerialization.arrayList(["k", "v", "k"]))) == strings(["k", "v", "k"]))
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(JavaSerialization.arrayList([]))) == strings([]))
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(JavaSerialization.arrayList(["long", "form"], longStrings: true))) == strings(["long", "form"]))
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(JavaSerialization.arraysAsList(["x", "y", "x"]))) == strings(["x", "y", "x"]))
        // Without line breaks (another encoder) and with CRLF ones.
        let flat = FlutterPrefsEncoding.listPrefix + Data(Self.abStream).base64EncodedString()
        #expect(decode(flat) == strings(["a", "b"]))
        #expect(decode(flat.replacingOccurrences(of: "AAAC", with: "AAAC\r\n")) == strings(["a", "b"]))
    }

    @Test func modifiedUTF8Conversion() {
        func convert(_ bytes: [UInt8]) -> [UInt8]? { JavaStringList.modifiedUTF8ToUTF8(bytes[...]) }
        #expect(convert([0x61, 0xC0, 0x80, 0x62]) == [0x61, 0x00, 0x62])
        #expect(convert(JavaSerialization.modifiedUTF8("😀")) == Array("😀".utf8))
        #expect(convert([0xC3, 0xA9]) == Array("é".utf8))
        #expect(convert([0xED, 0xA0, 0xBD]) == Array("\u{FFFD}".utf8))          // lone high surrogate
        #expect(convert([0xED, 0xB8, 0x80, 0x61]) == Array("\u{FFFD}a".utf8))   // lone low surrogate
        #expect(convert([0x00]) == nil)
        #expect(convert([0xF0, 0x9F, 0x98, 0x80]) == nil)                       // 4-byte form is not modified UTF-8
        #expect(convert([0xC3]) == nil)
        #expect(convert([0xE2, 0x82]) == nil)
    }

    @Test func malformedLegacyLists() {
        let stream = Self.abStream
        #expect(decode(FlutterPrefsEncoding.listPrefix + "not base64!") == .malformed(.invalidBase64))
        #expect(decode(FlutterPrefsEncoding.listPrefix + "rO0AB") == .malformed(.invalidBase64))
        #expect(decode(FlutterPrefsEncoding.listPrefix) == .malformed(.notJavaSerialization))
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(Array("plain text, not a stream".utf8))) == .malformed(.notJavaSerialization))
        // Cut anywhere: an error value, never a crash, never a partial list.
        for cut in 4..<stream.count {
            let value = FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(Array(stream[..<cut])))
            #expect(value == .malformed(.malformedJavaStream), "cut at \(cut)")
        }
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(stream + [0x78])) == .malformed(.malformedJavaStream))
        // Another class with the same layout is refused: the app's own decoder refuses it too.
        var linked = stream
        linked.replaceSubrange(8..<27, with: Array("java.util.ArrayLisx".utf8))
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(linked)) == .malformed(.unexpectedJavaClass))
        // An element that is an object rather than a string.
        var objectElement = stream
        objectElement.replaceSubrange(57..<61, with: [0x73, 0x71, 0x00, 0x7E, 0x00, 0x00])
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(objectElement)) == .malformed(.unexpectedJavaClass))
        // A back-reference to the class descriptor where a string belongs.
        var badReference = stream
        badReference.replaceSubrange(57..<61, with: [0x71, 0x00, 0x7E, 0x00, 0x00])
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(badReference)) == .malformed(.malformedJavaStream))
        // A TC_LONGSTRING claiming more bytes than exist.
        var hugeString = stream
        hugeString.replaceSubrange(57..<61, with: [0x7C, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x61])
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(hugeString)) == .malformed(.malformedJavaStream))
        // A raw NUL inside a string's bytes.
        var nul = stream
        nul[60] = 0x00
        #expect(FlutterPrefsEncoding.decode(JavaSerialization.legacyValue(nul)) == .malformed(.invalidModifiedUTF8))
        #expect(FlutterPrefsMalformation.malformedJavaStream.message == "the legacy list payload is a truncated or malformed Java serialization stream")
    }

    @Test func jsonLists() {
        let prefix = FlutterPrefsEncoding.jsonListPrefix
        #expect(decode(prefix + #"["a","b"]"#) == .jsonStringList(json: Array(#"["a","b"]"#.utf8)))
        #expect(decode(prefix + #"[ "x\"y\u00e9" ]"#) == .jsonStringList(json: Array(#"[ "x\"y\u00e9" ]"#.utf8)))
        #expect(decode(prefix + "[]") == .jsonStringList(json: Array("[]".utf8)))
        for bad in ["", "[", #"{"a":"b"}"#, "[1]", #"["a",null]"#, #"[["a"]]"#, #""a""#, #"["a"] x"#] {
            #expect(decode(prefix + bad) == .malformed(.invalidJSONList), "\(bad)")
        }
    }

    /// A list's strings read in one pass are the strings of its `JSONValue` tree, byte for byte:
    /// escapes of every kind, a surrogate pair, UTF-8, empty strings and lists, on random lists.
    @Test func jsonListStringsAreTheTreesStrings() throws {
        let pieces = ["a", "é", #"\u00e9"#, #"\ud83d\ude00"#, #"\\"#, #"\""#, #"\/"#, #"\b\f\n\r\t"#, "😀", "habit",
                      "279a9423-87fe-4804-aab1-68de5bbb635c", " ", ""]
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<2000 {
            let strings = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let json = Array(("[" + strings.map { "\"\($0)\"" }.joined(separator: ", ") + "]").utf8)
            guard case .jsonStringList(let list) = FlutterPrefsEncoding.decode(Array(FlutterPrefsEncoding.jsonListPrefix.utf8) + json) else {
                Issue.record("not a list: \(strings)")
                continue
            }
            let tree = try #require(try JSONValue.parse(list).value.arrayElements).map { Array($0.value.stringValue!.utf8) }
            let read = try #require(FlutterPrefsEncoding.strings(inJSONStringList: list))
            var start = 0
            let pieces = read.ends.map { end in defer { start = end }; return Array(read.bytes[start..<end]) }
            #expect(pieces == tree, "\(strings)")
        }
        #expect(FlutterPrefsEncoding.strings(inJSONStringList: Array(#"["a", 1]"#.utf8)) == nil)
    }

    @Test func doublesAndBigIntegers() {
        for text in ["0.75", "1.0E10", "-1.5E-5", "NaN", "Infinity", "-Infinity", "4.9E-324"] {
            #expect(decode(FlutterPrefsEncoding.doublePrefix + text) == .double(text))
        }
        for bad in ["", "abc", "1.0f", "1,5", " 1.0"] {
            #expect(decode(FlutterPrefsEncoding.doublePrefix + bad) == .malformed(.invalidDouble), "\(bad)")
        }
        for text in ["0", "-zz9", "3w5e11264sgsg", "1Z"] {
            #expect(decode(FlutterPrefsEncoding.bigIntegerPrefix + text) == .bigInteger(text))
        }
        for bad in ["", "-", "12_3", "1.5", "ü"] {
            #expect(decode(FlutterPrefsEncoding.bigIntegerPrefix + bad) == .malformed(.invalidBigInteger), "\(bad)")
        }
    }

    @Test func plainValues() {
        for text in ["", "hello", "ghp_abc", "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3", "vghpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu"] {
            #expect(decode(text) == .plain, "\(text)")
        }
    }

    @Test func secureStorageAndEncryptedPrefsNames() {
        let key = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_refresh_token"
        #expect(FlutterPrefsEncoding.isSecureStorageKey(key))
        #expect(FlutterPrefsEncoding.secureStorageUserKey(key) == "refresh_token")
        #expect(FlutterPrefsEncoding.secureStorageUserKey("VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_") == "")
        #expect(!FlutterPrefsEncoding.isSecureStorageKey("VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg"))
        #expect(!FlutterPrefsEncoding.isSecureStorageKey("flutter.token"))
        #expect(FlutterPrefsEncoding.secureStorageUserKey("flutter.token") == nil)
        #expect(FlutterPrefsEncoding.isEncryptedPrefsKeyset("__androidx_security_crypto_encrypted_prefs_key_keyset__"))
        #expect(FlutterPrefsEncoding.isEncryptedPrefsKeyset("__androidx_security_crypto_encrypted_prefs_value_keyset__"))
        #expect(!FlutterPrefsEncoding.isEncryptedPrefsKeyset("__androidx_security_crypto_encrypted_prefs_keyset__"))
    }

    /// `pluginPrefix(of:)` rules names out by their first byte, tested against literals: they
    /// are the prefixes' first bytes, and it answers as a plain search of the prefixes does.
    @Test func pluginPrefixRulesNamesOutByLiteralLeads() {
        let prefixes = [FlutterPrefsEncoding.secureStoragePrefixBytes, FlutterPrefsEncoding.sharedPreferencesPrefixBytes]
        let leads = FlutterPrefsEncoding.pluginPrefixLeads
        #expect(Set(prefixes.map { $0[0] }) == [leads.0, leads.1])
        let names = ["", "f", "flutter", "flutter.", "flutter.token", "Flutter.token", "V", "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg",
                     "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_", "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_token",
                     "id", "name", "frequency", "Value", "flutteR.x"]
        for var name in names {
            let plain = prefixes.first { Array(name.utf8).starts(with: $0) }
            #expect(name.withUTF8 { FlutterPrefsEncoding.pluginPrefix(of: $0) } == plain, "\(name)")
        }
    }

    @Test func ciphertextVersusPlaintext() {
        // IV + AES-CBC ciphertext as the plugin stores it, with Android's line breaks.
        var generator = SystemRandomNumberGenerator()
        for length in [28, 32, 48, 64, 200] {
            let blob = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let stored = Array(JavaSerialization.androidBase64(blob).utf8)
            #expect(FlutterPrefsEncoding.looksLikeCiphertext(stored), "\(length) random bytes")
        }
        let fixed: [UInt8] = [0x8F, 0x11, 0xA0, 0x03, 0xFE, 0x7C, 0x42, 0x99, 0x10, 0xC3, 0x28, 0x00, 0x5B, 0xE1, 0x77, 0x9A,
                              0x31, 0xD4, 0x06, 0x88, 0xB2, 0x4F, 0xEE, 0x1A, 0x65, 0x90, 0x0C, 0xF3]
        #expect(FlutterPrefsEncoding.looksLikeCiphertext(Array((Data(fixed).base64EncodedString() + "\r\n").utf8)))
        let plaintexts = [
            "hunter2",
            "ghp_0123456789abcdefghijABCDEFGHIJ0123",
            "0123456789abcdef0123456789abcdef01234567",          // hex
            Data("my database password is hunter2".utf8).base64EncodedString(),  // base64 of text
            Data((0..<15).map { UInt8($0 * 17) }).base64EncodedString(),      // too short
            "correct horse battery staple",
            "",
        ]
        for text in plaintexts {
            #expect(!FlutterPrefsEncoding.looksLikeCiphertext(Array(text.utf8)), "\(text)")
        }
    }
}
