@testable import AuditInputs
@testable import AuditScan
import Testing

/// The key a prefs entry's findings name it by: its name without the plugin's prefix, compared
/// and dropped by code units, as the plugin's `startsWith` and `substring` do.
@Suite struct PrefsEntryKeyTests {
    @Test(arguments: [
        ("flutter.api_token", "api_token"),
        ("flutter.", ""),
        ("flutter.flutter.x", "flutter.x"),
        ("flutter.étape", "étape"),
        // A combining mark right after the prefix: still the prefix, by code units (as a
        // comparison by characters would not have it, the dot and the mark being one).
        ("flutter.\u{301}x", "\u{301}x"),
        ("Flutter.x", "Flutter.x"),
        ("flutter", "flutter"),
        ("flutterx", "flutterx"),
        ("other.key", "other.key"),
        ("", ""),
        (FlutterPrefsEncoding.secureStoragePrefix + "refresh_token", "refresh_token"),
    ])
    func keyOfName(name: String, key: String) {
        #expect(String(PrefsEntry.key(ofName: name)).utf8.elementsEqual(key.utf8))
        // The bytes the scan reads the key from: the same, as a suffix of the name's.
        #expect(Array(name.utf8).withUnsafeBufferPointer { Array(PrefsEntry.key(ofName: $0)) } == Array(key.utf8))
    }

    @Test func keysetNamesOnlyStartingWithTheirByte() {
        #expect(!FlutterPrefsEncoding.isEncryptedPrefsKeyset("_"))
        #expect(!FlutterPrefsEncoding.isEncryptedPrefsKeyset(""))
        #expect(!FlutterPrefsEncoding.isEncryptedPrefsKeyset("x__androidx_security_crypto_encrypted_prefs_key_keyset__"))
        for name in FlutterPrefsEncoding.encryptedPrefsKeysetNames {
            #expect(FlutterPrefsEncoding.isEncryptedPrefsKeyset(name))
        }
    }

    /// The forms of a name's bytes, which the scan asks, answer as the forms of a string do.
    @Test(arguments: ["", "_", "flutter.token", FlutterPrefsEncoding.secureStoragePrefix, FlutterPrefsEncoding.secureStoragePrefix + "k",
                      String(FlutterPrefsEncoding.secureStoragePrefix.dropLast()), "x" + FlutterPrefsEncoding.secureStoragePrefix]
                     + FlutterPrefsEncoding.encryptedPrefsKeysetNames.sorted() + FlutterPrefsEncoding.encryptedPrefsKeysetNames.map { $0 + "_" })
    func nameBytesAnswerAsTheString(name: String) {
        Array(name.utf8).withUnsafeBufferPointer { bytes in
            #expect(FlutterPrefsEncoding.isSecureStorageKey(bytes) == FlutterPrefsEncoding.isSecureStorageKey(name))
            #expect(FlutterPrefsEncoding.isEncryptedPrefsKeyset(bytes) == FlutterPrefsEncoding.isEncryptedPrefsKeyset(name))
        }
    }
}
