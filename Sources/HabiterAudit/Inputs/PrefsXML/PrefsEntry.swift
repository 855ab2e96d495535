/// Receives the children of a SharedPreferences `<map>` in document order, one call per entry,
/// and the markup outside entries (comments before, between and after them, attributes of
/// `<map>`) as it is read. Offsets are absolute; resolve them with `window.position(of:)` during
/// the call and in increasing order (a streaming window forgets bytes once the reader moves on).
public protocol PrefsXMLVisitor {
    mutating func entry(_ entry: PrefsEntry) throws
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
    var isScalar: Bool {
        switch self {
        case .boolean, .int, .long, .float, .double: return true
        case .string, .null, .set, .other: return false
        }
    }
}

/// The value of one entry.
public enum PrefsValue: Equatable, Sendable {
    /// The element's text. For empty text (`<string name="k"></string>` or `<string name="k" />`)
    /// the offset is the one just after the start tag.
    case string(PrefsText)
    /// A validated `value` attribute: `true`/`false`.
    case boolean(PrefsText)
    /// A validated `value` attribute: signed decimal in the 32-bit range.
    case int(PrefsText)
    /// A validated `value` attribute: signed decimal in the 64-bit range.
    case long(PrefsText)
    /// A validated `value` attribute as Java's `Float.toString` writes it (`NaN`, `1.0E10`, …).
    case float(PrefsText)
    /// A validated `value` attribute as Java's `Double.toString` writes it.
    case double(PrefsText)
    case null
    /// The `<string>` members of a `<set>`, in document order (a HashSet: order means nothing).
    case set([PrefsText])
    /// An element outside the SharedPreferences vocabulary. `content` is everything between the
    /// start and end tag exactly as written (checked for well-formedness, not decoded); `texts`
    /// are the decoded text nodes inside it that hold more than whitespace, so that a secret in
    /// `<list name="k"><string>…</string></list>` can still be scanned and located.
    case other(element: String, content: PrefsText, texts: [PrefsText])
}

/// One child of the root `<map>`.
public struct PrefsEntry: Equatable, Sendable {
    /// The decoded `name` attribute.
    public var name: String
    /// Absolute offset of the first byte of the `name` attribute's value (after the quote). It may
    /// come after the value's offset when `value=` is written before `name=`.
    public var nameOffset: Int
    public var value: PrefsValue
    /// The entry's markup that holds no value, in document order (see `PrefsMarkup`).
    public var markup: [PrefsMarkup]

    public init(name: String, nameOffset: Int, value: PrefsValue, markup: [PrefsMarkup] = []) {
        self.name = name
        self.nameOffset = nameOffset
        self.value = value
        self.markup = markup
    }

    public var kind: PrefsEntryKind {
        switch value {
        case .string: return .string
        case .boolean: return .boolean
        case .int: return .int
        case .long: return .long
        case .float: return .float
        case .double: return .double
        case .null: return .null
        case .set: return .set
        case .other: return .other
        }
    }

    /// The text of a `<string>` or the `value` attribute of a scalar, if the entry has one.
    public var text: PrefsText? {
        switch value {
        case .string(let t), .boolean(let t), .int(let t), .long(let t), .float(let t), .double(let t): return t
        case .null, .set, .other: return nil
        }
    }
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
        var it = text.makeIterator()
        guard var c = it.next() else { return false }
        var negative = false
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
            negative = c == UInt8(ascii: "-")
            guard let d = it.next() else { return false }
            c = d
        }
        // Accumulate as a negative number so that Int64.min fits.
        var value: Int64 = 0
        while true {
            let digit = c &- UInt8(ascii: "0")
            guard digit < 10 else { return false }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(digit))
            if o1 || o2 { return false }
            value = s
            guard let d = it.next() else { break }
            c = d
        }
        if negative { return value >= min }
        if value == Int64.min { return false }
        return -value <= max
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
