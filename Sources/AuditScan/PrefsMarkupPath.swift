import AuditCore
import AuditInputs

/// Where prefs markup sits, for the scanner and the redactor alike. Under the path of its entry
/// (or, outside entries, of the input), an element is the entry itself, a `<set>` member's index,
/// or `#element/N` for the Nth element inside an `.other` entry; on that element `@NAME` is an
/// attribute (`@[REDACTED]` when the name is itself a secret) and `#name` the element's name.
/// `#comment/N` is the Nth comment of the entry or of the input. So an unknown attribute reads
/// `/flutter.api_token/@value`, and no path spells a secret.
extension PrefsMarkup {
    public func path(in entryPath: LayeredPath, nameIsSecret: Bool) -> LayeredPath {
        switch kind {
        case .attribute:
            let name = nameIsSecret ? Redaction.maskedKey : String(decoding: name.bytes, as: UTF8.self)
            return elementPath(in: entryPath).appending(.key("@" + name))
        case .element:
            return elementPath(in: entryPath).appending(.key("#name"))
        case .comment(let index):
            return entryPath.appending(.key("#comment")).appending(.index(index))
        }
    }

    private func elementPath(in entryPath: LayeredPath) -> LayeredPath {
        switch owner {
        case .entry: return entryPath
        case .member(let index): return entryPath.appending(.index(index))
        case .content(let index): return entryPath.appending(.key("#element")).appending(.index(index))
        }
    }
}

extension PrefsEntry {
    /// Where a secret in an entry's name is reported: its `name` attribute, under the entry's path
    /// (masked, as the name is the secret: `/[REDACTED]/@name`).
    public static func namePath(in entryPath: LayeredPath) -> LayeredPath {
        entryPath.appending(.key("@name"))
    }

    /// The key findings name an entry by: its name without `flutter.`, or a secure-storage
    /// entry's user key. The pattern rules read an entry's name from there (the prefixes are
    /// fixed), and not at all for an androidx keyset: the secure-storage prefix and the keysets'
    /// names are what a secure-storage dump holds, expected here, while
    /// `secret.secure-storage-dump` is for them found anywhere else.
    public static func key(ofName name: String) -> String {
        // Compared and dropped as UTF-8 bytes, as the plugins do by code units (`String.dropFirst`
        // walked characters: some 670 instructions a name), and the rest made a string from its
        // bytes (a `Substring` of the UTF-8 view, then a `String` of it, took some 680).
        var name = name
        return name.withUTF8 { bytes in
            let key = key(ofName: bytes)
            return key.count == bytes.count ? nil : String(decoding: key, as: UTF8.self)
        } ?? name
    }

    /// `key(ofName:)` of a name's UTF-8: its bytes after the plugin prefix.
    public static func key(ofName name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let prefix = FlutterPrefsEncoding.pluginPrefix(of: name) else { return name }
        return UnsafeBufferPointer(rebasing: name[prefix.count...])
    }
}
