/// XML held in a string or carried as a body: a SOAP call or response, an XML API's body, a
/// SAML message behind base64. A value whose first non-blank character opens a tag (`<?xml`,
/// `<!--`, `<!DOCTYPE` or an element) and whose last closes one. The XML reader decides whether
/// it really is XML, as it does for an XML file; a value that is not (HTML with `<br>`, a
/// template) is scanned as text. Read, every text node and attribute is judged by its element's
/// or attribute's name, as in an XML file: `<password>…</password>` is a password. The value is
/// scanned as text too, for the pattern rules written for XML text (`<add key="…Password"
/// value="…"/>`); a secret both scans find is one finding, at the inner path.
///
/// A SharedPreferences export (a `<map>` root) is left to be scanned as text, as before: its
/// entries' names are not element names, and a secure-storage dump is one finding on the whole
/// value (its ciphertext is never scanned), which read as XML it would not be.
public struct XMLLayerDecoder: LayerDecoder {
    public var name: String { "xml" }
    /// `<a>b</a>`: the shortest element with text in it.
    public var gate: LayerGate { LayerGate(minimumLength: 8, firstBytes: "< \t\r\n") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard Self.looksLikeXML(value), !FormatDetector.rootIsMap(value.bindMemory(to: UInt8.self), from: 0) else { return nil }
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

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
