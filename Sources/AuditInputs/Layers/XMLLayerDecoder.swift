/// XML held in a string or carried as a body: a SOAP call or response, an XML API's body, a
/// SAML message behind base64. A value whose first non-blank character opens a tag (`<?xml`,
/// `<!--`, `<!DOCTYPE` or an element) and whose last closes one. The XML reader decides whether
/// it really is XML, as it does for an XML file; a value that is not (HTML with `<br>`, a
/// template) is scanned as text. Read, every text node and attribute is judged by its element's
/// or attribute's name, as in an XML file: `<password>…</password>` is a password. The value is
/// scanned as text too, for the pattern rules written for XML text (`<add key="…Password"
/// value="…"/>`); a secret both scans find is one finding, at the inner path.
///
/// A SharedPreferences export (a `<map>` root: a support upload's `FlutterSharedPreferences.xml`)
/// is read as one, by the prefs reader: each entry judged by its key and its store, Flutter's
/// encodings undone, secure storage's ciphertext left alone.
public struct XMLLayerDecoder: LayerDecoder {
    public var name: String { "xml" }
    /// `<a>b</a>`: the shortest element with text in it.
    public var gate: LayerGate { LayerGate(minimumLength: 8, firstBytes: "< \t\r\n") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard Self.looksLikeXML(value) else { return nil }
        return DecodedLayer(bytes: [], content: .valueIsXML, replacesValue: false)
    }

    /// Whether `value` opens with a tag and ends with one: the reader is asked only then.
    public static func looksLikeXML(_ value: UnsafeRawBufferPointer) -> Bool {
        var first = 0
        while first < value.count && isBlank(value[first]) { first += 1 }
        var last = value.count - 1
        while last > first && isBlank(value[last]) { last -= 1 }
        guard last - first >= 3, value[first] == UInt8(ascii: "<"), value[last] == UInt8(ascii: ">") else { return false }
        let opening = value[first + 1]
        return opening == UInt8(ascii: "?") || opening == UInt8(ascii: "!") || opening == UInt8(ascii: "_") || opening == UInt8(ascii: ":")
            || (opening | 0x20 >= UInt8(ascii: "a") && opening | 0x20 <= UInt8(ascii: "z")) || opening >= 0x80
    }

    /// Whether the XML `value` is a SharedPreferences export: its root element is `<map>`.
    public static func isSharedPreferencesExport(_ value: UnsafeRawBufferPointer) -> Bool {
        FormatDetector.rootIsMap(value.bindMemory(to: UInt8.self), from: 0)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
