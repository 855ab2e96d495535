import AuditBytes
import AuditCore

/// Receives a SharedPreferences `<map>` as it is read, in document order: each child as
/// `entry`, then its parts, then `endEntry`; the markup outside entries (comments before, between
/// and after them, attributes of `<map>`) as `markup`. Nothing is collected for the visitor, so a
/// hostile entry (a million attributes, members or comments) costs no memory beyond the bytes of
/// the part being read. Offsets are absolute and handed in increasing order: resolve them with
/// `window.position(of:)` during the call that hands them (a streaming window forgets bytes once
/// the reader moves on). `entry` hands the name and a scalar's value early, for the path; their
/// offsets come again as the parts `.name` and `.value`, in their place.
public protocol PrefsXMLVisitor {
    /// An entry whose start tag was read and checked: its name, kind and, for a scalar, value.
    mutating func entry(_ entry: PrefsEntry) throws
    /// The next part of the entry being read.
    mutating func part(_ part: PrefsEntryPart) throws
    /// The end tag of the entry being read.
    mutating func endEntry() throws
    /// Markup outside any entry; required, so that no visitor overlooks it.
    mutating func markup(_ markup: PrefsMarkup) throws
}

/// Decoded bytes (entities, character references and CDATA resolved) and the absolute offset
/// of the first byte as written.
public struct PrefsText: Equatable, Hashable, Sendable {
    public var bytes: [UInt8]
    public var offset: Int

    public init(_ bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }
}

/// The element kinds `XmlUtils.writeValueXml` produces for a SharedPreferences map; `other`
/// covers the rest of its vocabulary (`<list>`, `<map name=…>`, `<int-array>`, …).
public enum PrefsEntryKind: String, Sendable, CaseIterable {
    case string, boolean, int, long, float, double, null, set, other
}

extension PrefsEntryKind {
    /// Whether the entry's value is its `value` attribute (a boolean or a number).
    public var isScalar: Bool {
        switch self {
        case .boolean, .int, .long, .float, .double: return true
        case .string, .null, .set, .other: return false
        }
    }
}

/// One child of the root `<map>`, as its start tag gives it.
public struct PrefsEntry: Equatable, Sendable {
    /// The decoded `name` attribute's UTF-8. Bytes, not a string: a name is longer than a small
    /// string's 15 bytes once it has the `flutter.` prefix, and a string for it was allocated and
    /// freed at every entry. The reader lends its own buffer (`PrefsXMLReader`).
    public var nameBytes: [UInt8]
    /// The decoded `name` attribute, made from `nameBytes` at each call.
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }
    /// Absolute offset of the first byte of the `name` attribute's value (after the quote). It may
    /// come after the value's offset when `value=` is written before `name=`.
    public var nameOffset: Int
    public var kind: PrefsEntryKind
    /// A scalar's `value` attribute, validated: `true`/`false`, a signed decimal in the range of
    /// its type, or a floating-point literal as Java's `toString` writes it (`NaN`, `1.0E10`, …).
    public var value: PrefsText?

    public init(nameBytes: [UInt8], nameOffset: Int, kind: PrefsEntryKind, value: PrefsText? = nil) {
        self.nameBytes = nameBytes
        self.nameOffset = nameOffset
        self.kind = kind
        self.value = value
    }

    public init(name: String, nameOffset: Int, kind: PrefsEntryKind, value: PrefsText? = nil) {
        self.init(nameBytes: Array(name.utf8), nameOffset: nameOffset, kind: kind, value: value)
    }
}

/// A part of the entry being read, handed as soon as it is complete.
public enum PrefsEntryPart: Equatable, Sendable {
    /// The entry's `name` attribute, at `PrefsEntry.nameOffset`.
    case name
    /// A text of the value, decoded: a scalar's `value` attribute or a `<string>`'s text (index
    /// nil; for empty text, `<string name="k" />` included, the offset just after the start tag),
    /// the `index`th `<string>` member of a `<set>` (a HashSet: order means nothing), or the
    /// `index`th text node that holds more than whitespace inside an element outside the
    /// vocabulary (`<list name="k"><string>…</string></list>`), so that its secrets are scanned
    /// and located. The comments inside a text follow it.
    case value(PrefsText, index: Int?)
    /// The entry's markup (see `PrefsMarkup`).
    case markup(PrefsMarkup)
}

/// Text in the markup of a prefs export that is no entry's name or value but can hold a secret
/// all the same: an attribute the reader does not interpret (any but an entry's `name` and a
/// scalar's `value`), a comment, the name of an element outside the SharedPreferences
/// vocabulary. The scanner runs the pattern rules over it: every text in the file is read.
public struct PrefsMarkup: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// `name` is the attribute's name, `text` its decoded value.
        case attribute
        /// `name` is the element's name; `text` is empty.
        case element
        /// `text` is the comment as written, between `<!--` and `-->`; `name` is empty. `index`
        /// counts the comments of the entry (or, outside entries, of the document) from 0.
        case comment(index: Int)
    }

    /// The element an attribute or element name belongs to (for a comment: `.entry`).
    public enum Owner: Equatable, Sendable {
        /// The entry's own element; outside entries, `<map>`.
        case entry
        /// The `<string>` member of a `<set>` at this index.
        case member(Int)
        /// The element at this index, counted in document order from 0, inside an `.other` entry.
        case content(Int)
    }

    public var kind: Kind
    public var owner: Owner
    /// A name as written (names hold no references) and the offset of its first byte.
    public var name: PrefsText
    public var text: PrefsText

    public init(_ kind: Kind, owner: Owner, name: PrefsText, text: PrefsText) {
        self.kind = kind
        self.owner = owner
        self.name = name
        self.text = text
    }

    /// Where it begins: its name, or a comment's text.
    public var offset: Int {
        if case .comment = kind { return text.offset }
        return name.offset
    }
}

/// Number syntax as `java.lang` writes and reads it, shared by the XML reader (`<int>`,
/// `<float>`, … values) and the Flutter decoder (the Double prefix).
enum JavaNumberText {
    /// Signed decimal within `min...max` (`Integer.parseInt` / `Long.parseLong`: optional `+` or
    /// `-`, at least one digit, nothing else).
    static func isInteger<C: Collection>(_ text: C, min: Int64, max: Int64) -> Bool where C.Element == UInt8 {
        guard let value = text.decimalInteger.map(Int64.init) else { return false }
        return value >= min && value <= max
    }

    /// A floating-point literal as `Float.toString`/`Double.toString` write it and
    /// `parseFloat`/`parseDouble` read it: optional sign, then `NaN`, `Infinity`, or decimal
    /// digits with an optional fraction and an optional `e`/`E` exponent. Hex floats and the
    /// `f`/`d` suffixes, which Java never writes, are refused.
    static func isFloatingPoint<C: Collection>(_ text: C) -> Bool where C.Element == UInt8 {
        let t = Array(text)
        var i = 0
        if i < t.count && (t[i] == UInt8(ascii: "-") || t[i] == UInt8(ascii: "+")) { i += 1 }
        let rest = t[i...]
        if rest.elementsEqual("NaN".utf8) || rest.elementsEqual("Infinity".utf8) { return true }
        var digits = 0
        while i < t.count && t[i] &- UInt8(ascii: "0") < 10 { i += 1; digits += 1 }
        if i < t.count && t[i] == UInt8(ascii: ".") {
            i += 1
            while i < t.count && t[i] &- UInt8(ascii: "0") < 10 { i += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if i < t.count && (t[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < t.count && (t[i] == UInt8(ascii: "-") || t[i] == UInt8(ascii: "+")) { i += 1 }
            var exponentDigits = 0
            while i < t.count && t[i] &- UInt8(ascii: "0") < 10 { i += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return false }
        }
        return i == t.count
    }
}
