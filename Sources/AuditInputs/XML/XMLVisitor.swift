/// Receives an XML document (`XMLReader`) as it is read, in document order. Offsets are
/// absolute and handed in increasing order: resolve them during the call that hands them.
public protocol XMLVisitor {
    /// A start tag, its attributes decoded. Every start tag is followed, after its content, by
    /// `endElement` (at once for `<empty/>`).
    mutating func startElement(_ tag: XMLStartTag) throws
    mutating func endElement() throws
    /// A text node that holds more than whitespace: its character data and CDATA sections,
    /// references resolved, at the offset of its first byte.
    mutating func text(_ text: PrefsText) throws
    /// A comment's or a processing instruction's content, as written (after the text node it
    /// interrupts, when it stands inside one).
    mutating func comment(_ text: PrefsText) throws
}

/// A start tag: the element's name (with its prefix: `android:name`), where its `<` stands, and
/// its attributes in document order.
public struct XMLStartTag: Equatable, Sendable {
    public var name: [UInt8]
    public var offset: Int
    public var attributes: [XMLAttribute]
}

/// An attribute: its qualified name, and its value decoded (at the offset after the quote).
public struct XMLAttribute: Equatable, Sendable {
    public var name: [UInt8]
    public var value: PrefsText
}
