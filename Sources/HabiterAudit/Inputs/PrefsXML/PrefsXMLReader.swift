#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte-level reader of Android SharedPreferences XML exports (what `XmlUtils.writeMapXml`
/// writes, plus what hand-edited and third-party dumps add: single quotes, `&apos;`, CDATA,
/// comments). It streams through a `ByteWindow`, keeping only the entry being read, never
/// recurses and never builds a tree: it hands each child of `<map>` to a visitor.
///
/// It is deliberately not a general XML parser. Everything that lets an XML file reach outside
/// itself or grow when expanded is refused: DOCTYPE (so no entity definitions, no billion
/// laughs, no external entities), entity references other than the five predefined ones, and
/// processing instructions. Elements outside the SharedPreferences vocabulary (`<list>`,
/// `<map name=…>`, `<int-array>`, `<byte-array>`, …, which `XmlUtils` can write) are checked and
/// reported as `.other` entries with their raw content, not refused. Text that holds no value
/// (attributes it does not interpret, comments, names of unknown elements) is handed over as
/// `PrefsMarkup`, so that a scan reads every text in the file.
///
/// Character references must name characters XML 1.0 allows, with one exception: Android's
/// `FastXmlSerializer` writes every control character as `&#N;` (decimal, no leading zeros, `&#0;`
/// included) and Android reads them back, so exactly that spelling of a control character is
/// accepted. Any other reference to a control character (`&#x1B;`, `&#027;`), a surrogate,
/// U+FFFE, U+FFFF or a number beyond U+10FFFF is refused, as are raw control bytes other than
/// tab, LF and CR. Work is linear in the input however it is built (a tag of a million
/// attributes, a million entries, comments or references).
public struct PrefsXMLReader {
    /// Default limit on element nesting (the root `<map>` counts as 1).
    public static let defaultMaxDepth = 256

    public let window: ByteWindow
    public let maxDepth: Int
    /// `window.base - window.start`: indexed by absolute offsets; refreshed after every extend.
    private var origin: UnsafePointer<UInt8>
    /// Absolute offset just past the visible bytes.
    private var limit: Int
    /// Absolute offset of the next unread byte (between tokens only).
    private var next: Int
    /// Bytes from this absolute offset on stay visible: the start of the entry or token being
    /// read, so that any range inside it can be sliced without copying as we go.
    private var keep: Int
    /// Attribute names of the tag being read, for the duplicate check.
    private var attributeNames = AttributeNameSet()
    /// Open element name ranges inside an `.other` entry.
    private var openElements: [(Int, Int)] = []
    /// Markup of the entry (or the `<map>` tag) being read, in document order.
    private var markup: [PrefsMarkup] = []
    /// Comments read so far in the entry being read.
    private var entryComments = 0
    /// Comments read so far outside entries.
    private var documentComments = 0

    /// A reader over `window` from its current start.
    public init(window: ByteWindow, maxDepth: Int = PrefsXMLReader.defaultMaxDepth) {
        self.window = window
        self.maxDepth = maxDepth
        origin = window.base - window.start
        limit = window.end
        next = window.start
        keep = window.start
    }

    /// A reader over a whole buffer (offsets are offsets into `bytes`).
    public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = PrefsXMLReader.defaultMaxDepth) {
        self.init(window: ByteWindow(whole: bytes), maxDepth: maxDepth)
    }

    // MARK: - Document

    /// Reads the whole document and calls `visitor` once per child of `<map>`. When the window
    /// fails to read, this reports an unexpected end: check `window.failure` first.
    public mutating func read<V: PrefsXMLVisitor>(_ visitor: inout V) throws {
        try readProlog(&visitor)
        let rootStart = next
        keep = rootStart
        markup.removeAll()
        let root = try startTag(at: rootStart, role: .plain(owner: .entry, nameIsMarkup: false))
        guard nameIs(root.nameStart, root.nameEnd, "map") else { throw PrefsXMLError(.rootNotMap, at: rootStart) }
        for attribute in markup { try visitor.markup(attribute) }
        markup.removeAll()
        next = root.end
        var open = !root.selfClosing
        while open {
            keep = next
            guard let lt = skipSpace(from: next) else { throw PrefsXMLError(.unexpectedEnd(.map), at: limit) }
            guard origin[lt] == UInt8(ascii: "<") else { throw PrefsXMLError(unexpectedTextReason(origin[lt]), at: lt) }
            switch try markupKind(at: lt) {
            case .comment:
                next = try documentComment(at: lt, &visitor)
            case .cdata:
                throw PrefsXMLError(.unexpectedText, at: lt)
            case .endTag:
                let close = try endTag(at: lt)
                guard nameIs(close.nameStart, close.nameEnd, "map") else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
                next = close.end
                open = false
            case .element:
                keep = lt
                let entry = try readEntry(at: lt)
                try visitor.entry(entry)
            }
        }
        try readEpilog(&visitor)
    }

    /// Byte-order mark, binary-XML magic, XML declaration, then whitespace and comments up to
    /// the root element, leaving `next` at its `<`.
    private mutating func readProlog<V: PrefsXMLVisitor>(_ visitor: inout V) throws {
        let s = next
        let b0 = peek(s), b1 = peek(s + 1), b2 = peek(s + 2), b3 = peek(s + 3)
        if b0 == nil { throw PrefsXMLError(.noRootElement, at: s) }
        if b0 == UInt8(ascii: "A"), b1 == UInt8(ascii: "B"), b2 == UInt8(ascii: "X"), b3 == 0 {
            throw PrefsXMLError(.binaryXML, at: s)
        }
        if b0 == 0, b1 == 0, b2 == 0xFE, b3 == 0xFF { throw PrefsXMLError(.unsupportedEncoding("UTF-32"), at: s) }
        if (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) {
            throw PrefsXMLError(.unsupportedEncoding(b2 == 0 && b3 == 0 ? "UTF-32" : "UTF-16"), at: s)
        }
        if b0 == 0xEF, b1 == 0xBB, b2 == 0xBF { next = s + 3 }
        if prefix("<?xml", at: next) == true, let c = peek(next + 5), isSpace(c) {
            next = try xmlDeclaration(at: next)
        }
        while true {
            keep = next
            guard let lt = skipSpace(from: next) else { throw PrefsXMLError(.noRootElement, at: limit) }
            guard origin[lt] == UInt8(ascii: "<") else { throw PrefsXMLError(unexpectedTextReason(origin[lt]), at: lt) }
            switch try markupKind(at: lt) {
            case .comment: next = try documentComment(at: lt, &visitor)
            case .cdata: throw PrefsXMLError(.unexpectedText, at: lt)
            case .endTag: throw PrefsXMLError(.unexpectedEndTag, at: lt)
            case .element:
                next = lt
                return
            }
        }
    }

    /// Whitespace and comments after the root element, then the end of the input.
    private mutating func readEpilog<V: PrefsXMLVisitor>(_ visitor: inout V) throws {
        while true {
            keep = next
            guard let i = skipSpace(from: next) else { return }
            guard origin[i] == UInt8(ascii: "<") else {
                throw PrefsXMLError(origin[i] == 0 ? .nulByte : .trailingContent, at: i)
            }
            switch try markupKind(at: i) {
            case .comment: next = try documentComment(at: i, &visitor)
            case .element: throw PrefsXMLError(.secondRoot, at: i)
            case .endTag: throw PrefsXMLError(.unexpectedEndTag, at: i)
            case .cdata: throw PrefsXMLError(.trailingContent, at: i)
            }
        }
    }

    /// `<?xml` + pseudo-attributes + `?>` at `lt`; returns the offset after it. XML 1.0's
    /// `XMLDecl`, strictly: `version='1.0'`, then optionally `encoding` (which must name UTF-8) and
    /// `standalone` (`yes` or `no`), in that order. The values can spell nothing else, so no text
    /// hides in the declaration.
    private mutating func xmlDeclaration(at lt: Int) throws -> Int {
        var q = lt + 5
        while true {
            guard let at = find(UInt8(ascii: "?"), from: q) else { throw PrefsXMLError(.unexpectedEnd(.xmlDeclaration), at: limit) }
            guard let after = peek(at + 1) else { throw PrefsXMLError(.unexpectedEnd(.xmlDeclaration), at: limit) }
            if after == UInt8(ascii: ">") { q = at; break }
            q = at + 1
        }
        var i = lt + 5
        var pseudoAttributes = 0  // version, encoding, standalone: how far along that order.
        while true {
            while i < q && isSpace(origin[i]) { i += 1 }
            if i == q { break }
            let nameStart = i
            while i < q && isNameByte(origin[i]) { i += 1 }
            let order: Int
            if nameIs(nameStart, i, "version") { order = 1 } else if nameIs(nameStart, i, "encoding") { order = 2 } else if nameIs(nameStart, i, "standalone") { order = 3 } else {
                throw PrefsXMLError(.invalidXMLDeclaration, at: nameStart)
            }
            guard order > pseudoAttributes, pseudoAttributes > 0 || order == 1 else {
                throw PrefsXMLError(.invalidXMLDeclaration, at: nameStart)
            }
            pseudoAttributes = order
            while i < q && isSpace(origin[i]) { i += 1 }
            guard i < q, origin[i] == UInt8(ascii: "=") else { throw PrefsXMLError(.invalidXMLDeclaration, at: i) }
            i += 1
            while i < q && isSpace(origin[i]) { i += 1 }
            guard i < q, origin[i] == UInt8(ascii: "\"") || origin[i] == UInt8(ascii: "'") else { throw PrefsXMLError(.invalidXMLDeclaration, at: i) }
            let quote = origin[i]
            let valueStart = i + 1
            i = valueStart
            while i < q && origin[i] != quote {
                let c = origin[i]
                guard c > 0x20 && c < 0x7F else { throw PrefsXMLError(.invalidXMLDeclaration, at: i) }
                i += 1
            }
            guard i < q else { throw PrefsXMLError(.invalidXMLDeclaration, at: valueStart - 1) }
            switch order {
            case 1:
                guard nameIs(valueStart, i, "1.0") else { throw PrefsXMLError(.invalidXMLDeclaration, at: valueStart) }
            case 2:
                guard nameIs(valueStart, i, "utf-8", caseInsensitive: true) || nameIs(valueStart, i, "utf8", caseInsensitive: true) else {
                    throw PrefsXMLError(.declaredEncodingNotUTF8, at: valueStart)
                }
            default:
                guard nameIs(valueStart, i, "yes") || nameIs(valueStart, i, "no") else {
                    throw PrefsXMLError(.invalidXMLDeclaration, at: valueStart)
                }
            }
            i += 1
            if i < q && !isSpace(origin[i]) { throw PrefsXMLError(.invalidXMLDeclaration, at: i) }
        }
        if pseudoAttributes == 0 { throw PrefsXMLError(.invalidXMLDeclaration, at: lt) }
        return q + 2
    }

    // MARK: - Entries

    /// Reads the child of `<map>` whose `<` is at `lt` (visible, and kept).
    private mutating func readEntry(at lt: Int) throws -> PrefsEntry {
        entryComments = 0
        let tag = try startTag(at: lt, role: .entry)
        let kind = tag.kind
        guard let name = tag.name else { throw PrefsXMLError(.missingAttribute("name"), at: lt) }
        let entryName = String(decoding: name.bytes, as: UTF8.self)
        let value: PrefsValue
        switch kind {
        case .string:
            if tag.selfClosing {
                value = .string(PrefsText([], at: tag.end))
                next = tag.end
            } else {
                var text: [UInt8] = []
                next = try readText(from: tag.end, closing: tag, into: &text)
                value = .string(PrefsText(text, at: tag.end))
            }
        case .boolean, .int, .long, .float, .double:
            guard let v = tag.value else { throw PrefsXMLError(.missingAttribute("value"), at: lt) }
            let valid: Bool
            switch kind {
            case .boolean: valid = v.bytes.elementsEqual("true".utf8) || v.bytes.elementsEqual("false".utf8)
            case .int: valid = JavaNumberText.isInteger(v.bytes, min: Int64(Int32.min), max: Int64(Int32.max))
            case .long: valid = JavaNumberText.isInteger(v.bytes, min: Int64.min, max: Int64.max)
            default: valid = JavaNumberText.isFloatingPoint(v.bytes)
            }
            guard valid else { throw PrefsXMLError(.invalidValue(kind), at: v.offset) }
            next = try closeEmpty(tag)
            switch kind {
            case .boolean: value = .boolean(v)
            case .int: value = .int(v)
            case .long: value = .long(v)
            case .float: value = .float(v)
            default: value = .double(v)
            }
        case .null:
            next = try closeEmpty(tag)
            value = .null
        case .set:
            value = .set(try readSetMembers(tag))
        case .other:
            value = try readOther(tag)
        }
        defer { markup = [] }
        return PrefsEntry(name: entryName, nameOffset: name.offset, value: value, markup: markup)
    }

    /// The text of an element that may hold only text (and comments, CDATA), up to its end tag;
    /// returns the offset after the end tag.
    private mutating func readText(from start: Int, closing tag: StartTag, into text: inout [UInt8]) throws -> Int {
        let (lt, kind) = try readContent(from: start, into: &text, textAllowed: true, place: .stringText)
        if kind == .element { throw PrefsXMLError(.unexpectedElement(.stringText), at: lt) }
        let close = try endTag(at: lt)
        guard sameName(close, tag) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
        return close.end
    }

    /// The end of an element that holds nothing but whitespace and comments.
    private mutating func closeEmpty(_ tag: StartTag) throws -> Int {
        if tag.selfClosing { return tag.end }
        var none: [UInt8] = []
        let (lt, kind) = try readContent(from: tag.end, into: &none, textAllowed: false, place: .valueElement)
        if kind == .element { throw PrefsXMLError(.unexpectedElement(.valueElement), at: lt) }
        let close = try endTag(at: lt)
        guard sameName(close, tag) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
        return close.end
    }

    /// The `<string>` members of a `<set>`.
    private mutating func readSetMembers(_ tag: StartTag) throws -> [PrefsText] {
        var members: [PrefsText] = []
        if tag.selfClosing {
            next = tag.end
            return members
        }
        var i = tag.end
        var none: [UInt8] = []
        while true {
            let (lt, kind) = try readContent(from: i, into: &none, textAllowed: false, place: .set)
            if kind == .endTag {
                let close = try endTag(at: lt)
                guard sameName(close, tag) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
                next = close.end
                return members
            }
            let member = try startTag(at: lt, role: .plain(owner: .member(members.count), nameIsMarkup: false))
            guard nameIs(member.nameStart, member.nameEnd, "string") else { throw PrefsXMLError(.unexpectedElement(.set), at: lt) }
            if member.selfClosing {
                members.append(PrefsText([], at: member.end))
                i = member.end
                continue
            }
            var text: [UInt8] = []
            i = try readText(from: member.end, closing: member, into: &text)
            members.append(PrefsText(text, at: member.end))
        }
    }

    /// An element outside the SharedPreferences vocabulary: checked for well-formedness with an
    /// explicit stack of open elements, its raw content sliced, its non-blank texts decoded.
    private mutating func readOther(_ tag: StartTag) throws -> PrefsValue {
        let element = String(decoding: UnsafeBufferPointer(start: origin + tag.nameStart, count: tag.nameEnd - tag.nameStart), as: UTF8.self)
        if tag.selfClosing {
            next = tag.end
            return .other(element: element, content: PrefsText([], at: tag.end), texts: [])
        }
        openElements.removeAll(keepingCapacity: true)
        openElements.append((tag.nameStart, tag.nameEnd))
        var texts: [PrefsText] = []
        var text: [UInt8] = []
        var elements = 0
        var i = tag.end
        while true {
            text.removeAll(keepingCapacity: true)
            let (lt, kind) = try readContent(from: i, into: &text, textAllowed: true, place: .otherElement)
            if text.contains(where: { !isSpace($0) }) { texts.append(PrefsText(text, at: i)) }
            if kind == .endTag {
                let close = try endTag(at: lt)
                let open = openElements.removeLast()
                guard sameName(close.nameStart, close.nameEnd, open.0, open.1) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
                i = close.end
                if openElements.isEmpty {
                    next = i
                    let content = Array(UnsafeBufferPointer(start: origin + tag.end, count: lt - tag.end))
                    return .other(element: element, content: PrefsText(content, at: tag.end), texts: texts)
                }
            } else {
                // The map is level 1 and the entry level 2, so this child is at `count + 2`.
                if openElements.count + 2 > maxDepth { throw PrefsXMLError(.nestingTooDeep(limit: maxDepth), at: lt) }
                let child = try startTag(at: lt, role: .plain(owner: .content(elements), nameIsMarkup: true))
                elements += 1
                if !child.selfClosing { openElements.append((child.nameStart, child.nameEnd)) }
                i = child.end
            }
        }
    }

    // MARK: - Content

    private enum Markup { case element, endTag, comment, cdata }

    /// Reads character data, CDATA sections and comments from `start` up to the next start or
    /// end tag, and returns that tag's `<` and kind. With `textAllowed`, text is decoded and
    /// appended to `text`; otherwise only whitespace may appear.
    private mutating func readContent(from start: Int, into text: inout [UInt8], textAllowed: Bool, place: PrefsXMLPlace) throws -> (Int, Markup) {
        var i = start
        while true {
            let lt: Int
            if textAllowed {
                guard let found = find(UInt8(ascii: "<"), from: i) else { throw PrefsXMLError(.unexpectedEnd(place), at: limit) }
                lt = found
                if lt > i { try decode(from: i, to: lt, mode: .text, collect: true, into: &text) }
            } else {
                guard let found = skipSpace(from: i) else { throw PrefsXMLError(.unexpectedEnd(place), at: limit) }
                guard origin[found] == UInt8(ascii: "<") else { throw PrefsXMLError(unexpectedTextReason(origin[found]), at: found) }
                lt = found
            }
            switch try markupKind(at: lt) {
            case .comment:
                let (comment, end) = try readComment(at: lt, index: entryComments)
                entryComments += 1
                markup.append(comment)
                i = end
            case .cdata:
                guard textAllowed else { throw PrefsXMLError(.unexpectedText, at: lt) }
                i = try readCDATA(at: lt, into: &text)
            case let tag:
                return (lt, tag)
            }
        }
    }

    /// Classifies the markup whose `<` is at `lt`, refusing the kinds never allowed.
    private mutating func markupKind(at lt: Int) throws -> Markup {
        guard let c = peek(lt + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
        switch c {
        case UInt8(ascii: "/"):
            return .endTag
        case UInt8(ascii: "?"):
            if prefix("<?xml", at: lt) == true, let d = peek(lt + 5), isSpace(d) || d == UInt8(ascii: "?") {
                throw PrefsXMLError(.misplacedXMLDeclaration, at: lt)
            }
            throw PrefsXMLError(.processingInstruction, at: lt)
        case UInt8(ascii: "!"):
            var cut = false
            switch prefix("<!--", at: lt) {
            case true?: return .comment
            case nil: cut = true
            case false?: break
            }
            switch prefix("<![CDATA[", at: lt) {
            case true?: return .cdata
            case nil: cut = true
            case false?: break
            }
            switch prefix("<!DOCTYPE", at: lt) {
            case true?: throw PrefsXMLError(.doctype, at: lt)
            case nil: cut = true
            case false?: break
            }
            switch prefix("<!ENTITY", at: lt) {
            case true?: throw PrefsXMLError(.entityDeclaration, at: lt)
            case nil: cut = true
            case false?: break
            }
            throw PrefsXMLError(cut ? .unexpectedEnd(.tag) : .unknownMarkupDeclaration, at: cut ? limit : lt)
        default:
            if isNameStart(c) { return .element }
            throw PrefsXMLError(unexpectedCharacterReason(c), at: lt + 1)
        }
    }

    /// Reads the comment at `lt`, the `index`th of its entry or of the document; returns it and
    /// the offset after `-->`. `--` may not occur inside.
    private mutating func readComment(at lt: Int, index: Int) throws -> (PrefsMarkup, end: Int) {
        let start = lt + 4
        var i = start
        var none: [UInt8] = []
        while true {
            guard let dash = find(UInt8(ascii: "-"), from: i) else { throw PrefsXMLError(.unexpectedEnd(.comment), at: limit) }
            try decode(from: i, to: dash, mode: .comment, collect: false, into: &none)
            guard let c = peek(dash + 1) else { throw PrefsXMLError(.unexpectedEnd(.comment), at: limit) }
            if c != UInt8(ascii: "-") {
                i = dash + 1
                continue
            }
            guard let d = peek(dash + 2) else { throw PrefsXMLError(.unexpectedEnd(.comment), at: limit) }
            guard d == UInt8(ascii: ">") else { throw PrefsXMLError(.doubleHyphenInComment, at: dash) }
            let text = PrefsText(Array(UnsafeBufferPointer(start: origin + start, count: dash - start)), at: start)
            return (PrefsMarkup(.comment(index: index), owner: .entry, name: PrefsText([], at: start), text: text), dash + 3)
        }
    }

    /// Reads the comment at `lt`, outside any entry, and hands it to `visitor`; returns the
    /// offset after it.
    private mutating func documentComment<V: PrefsXMLVisitor>(at lt: Int, _ visitor: inout V) throws -> Int {
        let (comment, end) = try readComment(at: lt, index: documentComments)
        documentComments += 1
        try visitor.markup(comment)
        return end
    }

    /// Appends the content of the CDATA section at `lt` to `text`; returns the offset after `]]>`.
    private mutating func readCDATA(at lt: Int, into text: inout [UInt8]) throws -> Int {
        let contentStart = lt + 9
        var i = contentStart
        while true {
            guard let gt = find(UInt8(ascii: ">"), from: i) else { throw PrefsXMLError(.unexpectedEnd(.cdata), at: limit) }
            if gt - 2 >= contentStart && origin[gt - 1] == UInt8(ascii: "]") && origin[gt - 2] == UInt8(ascii: "]") {
                try decode(from: contentStart, to: gt - 2, mode: .cdata, collect: true, into: &text)
                return gt + 1
            }
            i = gt + 1
        }
    }

    // MARK: - Tags

    private struct StartTag {
        var nameStart: Int
        var nameEnd: Int
        /// Offset just after `>` or `/>`.
        var end: Int
        var selfClosing: Bool
        /// For an entry: its kind, by the element's name.
        var kind: PrefsEntryKind
        var name: PrefsText?
        var value: PrefsText?
    }

    /// What a start tag is, and so which of its attributes the reader interprets.
    private enum TagRole {
        /// A child of `<map>`: `name` is the entry's name and, on a scalar (`<int>`, …), `value`
        /// its value. Any other attribute is markup, and so is the element's name when it is
        /// outside the vocabulary (an `.other` entry).
        case entry
        /// Any other element: every attribute is markup of `owner`, and so is the element's name
        /// when `nameIsMarkup` (it is not for `<map>` and `<set>` members, whose names are known).
        case plain(owner: PrefsMarkup.Owner, nameIsMarkup: Bool)
    }

    /// Reads the start tag at `lt`: name, attributes (checked; the interpreted ones decoded into
    /// the tag, the others appended to `markup`), then `>` or `/>`.
    private mutating func startTag(at lt: Int, role: TagRole) throws -> StartTag {
        let nameStart = lt + 1
        var i = try scanName(from: nameStart)
        var tag = StartTag(nameStart: nameStart, nameEnd: i, end: i, selfClosing: false, kind: .other, name: nil, value: nil)
        let owner: PrefsMarkup.Owner
        let nameIsMarkup: Bool
        let interpretsValue: Bool
        switch role {
        case .entry:
            tag.kind = entryKind(nameStart, i)
            owner = .entry
            nameIsMarkup = tag.kind == .other
            interpretsValue = tag.kind.isScalar
        case .plain(let o, let n):
            owner = o
            nameIsMarkup = n
            interpretsValue = false
        }
        if nameIsMarkup {
            markup.append(PrefsMarkup(.element, owner: owner, name: slice(nameStart, i), text: PrefsText([], at: i)))
        }
        attributeNames.removeAll()
        while true {
            let before = i
            i = try skipSpaceInTag(from: i)
            let c = origin[i]
            if c == UInt8(ascii: ">") {
                tag.end = i + 1
                return tag
            }
            if c == UInt8(ascii: "/") {
                guard let d = peek(i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                guard d == UInt8(ascii: ">") else { throw PrefsXMLError(unexpectedCharacterReason(d), at: i + 1) }
                tag.end = i + 2
                tag.selfClosing = true
                return tag
            }
            if i == before { throw PrefsXMLError(unexpectedCharacterReason(c), at: i) }
            guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .expectedName, at: i) }
            let attributeStart = i
            i = try scanName(from: i)
            let attributeEnd = i
            guard attributeNames.insert(attributeStart, attributeEnd, in: origin) else {
                throw PrefsXMLError(.duplicateAttribute, at: attributeStart)
            }
            i = try skipSpaceInTag(from: i)
            guard origin[i] == UInt8(ascii: "=") else { throw PrefsXMLError(.expectedEquals, at: i) }
            i = try skipSpaceInTag(from: i + 1)
            let quote = origin[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw PrefsXMLError(.expectedQuote, at: i) }
            let valueStart = i + 1
            guard let valueEnd = find(quote, from: valueStart) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            var decoded: [UInt8] = []
            try decode(from: valueStart, to: valueEnd, mode: .attribute, collect: true, into: &decoded)
            let value = PrefsText(decoded, at: valueStart)
            if case .entry = role, nameIs(attributeStart, attributeEnd, "name") {
                tag.name = value
            } else if interpretsValue, nameIs(attributeStart, attributeEnd, "value") {
                tag.value = value
            } else {
                markup.append(PrefsMarkup(.attribute, owner: owner, name: slice(attributeStart, attributeEnd), text: value))
            }
            i = valueEnd + 1
        }
    }

    /// The visible bytes `[start, end)`, copied.
    private func slice(_ start: Int, _ end: Int) -> PrefsText {
        PrefsText(Array(UnsafeBufferPointer(start: origin + start, count: end - start)), at: start)
    }

    /// Reads the end tag at `lt` (`</name>`, whitespace allowed before `>`).
    private mutating func endTag(at lt: Int) throws -> (nameStart: Int, nameEnd: Int, end: Int) {
        let nameStart = lt + 2
        guard let c = peek(nameStart) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
        guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .expectedName, at: nameStart) }
        let nameEnd = try scanName(from: nameStart)
        let i = try skipSpaceInTag(from: nameEnd)
        guard origin[i] == UInt8(ascii: ">") else { throw PrefsXMLError(unexpectedCharacterReason(origin[i]), at: i) }
        return (nameStart, nameEnd, i + 1)
    }

    /// Returns the offset after the name starting at `start` (whose first byte was checked).
    private mutating func scanName(from start: Int) throws -> Int {
        var i = start
        while true {
            guard let c = peek(i) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            if c < 0x80 {
                if !isNameByte(c) { return i }
                i += 1
            } else {
                let expected = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2
                _ = peek(i + expected - 1)
                let n = utf8SequenceLength(origin, at: i, end: limit)
                if n == 0 { throw PrefsXMLError(.invalidUTF8, at: i) }
                i += n
            }
        }
    }

    // MARK: - Character data

    private enum CharMode { case text, attribute, cdata, comment }

    /// Validates the character data in `[from, to)` (all visible) and, with `collect`, appends
    /// its decoded bytes to `out`: references resolved (text and attributes), line ends
    /// normalised to LF (attribute whitespace to spaces, as XML specifies).
    private func decode(from: Int, to: Int, mode: CharMode, collect: Bool, into out: inout [UInt8]) throws {
        guard collect else {
            _ = try decode(from: from, to: to, mode: mode, writingTo: nil)
            return
        }
        try out.appendDecoded(UnsafeBufferPointer(start: origin + from, count: to - from)) {
            try decode(from: from, to: to, mode: mode, writingTo: $0)
        }
    }

    /// Validates `[from, to)` and writes its decoded bytes to `destination` (which holds a copy
    /// of the source; only what moves is written), or only validates when it is nil. Returns
    /// the decoded length.
    private func decode(from: Int, to: Int, mode: CharMode, writingTo destination: UnsafeMutablePointer<UInt8>?) throws -> Int {
        let p = origin
        var i = from
        var run = from  // The first source byte not yet accounted for in the output.
        var length = 0
        /// Accounts for the source bytes up to `end`, copying them when earlier ones shrank.
        @inline(__always) func keep(upTo end: Int) {
            if let destination, length != run - from { (destination + length).update(from: p + run, count: end - run) }
            length += end - run
        }
        @inline(__always) func put(_ byte: UInt8) {
            destination?[length] = byte
            length += 1
        }
        while i < to {
            // Eight bytes at a time while none is '&', '<', ']', a control or a non-ASCII byte.
            while i &+ 8 <= to {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if let first = PrefsXMLReader.firstSpecialByte(w) {
                    i &+= first
                    break
                }
                i &+= 8
            }
            guard i < to else { break }
            let b = p[i]
            if b >= 0x80 {
                let n = utf8SequenceLength(p, at: i, end: to)
                if n == 0 { throw PrefsXMLError(.invalidUTF8, at: i) }
                i += n
                continue
            }
            switch b {
            case UInt8(ascii: "&") where mode == .text || mode == .attribute:
                keep(upTo: i)
                if let (replacement, count) = predefinedEntity(at: i + 1, to: to) {
                    put(replacement)
                    i += 1 + count
                } else {
                    let (next, scalar) = try characterReference(at: i, to: to)
                    if let destination {
                        length += JSONString.writeUTF8(scalar, to: destination + length)
                    } else {
                        length += 1
                    }
                    i = next
                }
                run = i
            case UInt8(ascii: "<") where mode == .attribute:
                throw PrefsXMLError(.lessThanInAttributeValue, at: i)
            case UInt8(ascii: "]") where mode == .text:
                if i + 2 < to && p[i + 1] == UInt8(ascii: "]") && p[i + 2] == UInt8(ascii: ">") {
                    throw PrefsXMLError(.cdataEndInText, at: i)
                }
                i += 1
            case 0x0D:
                keep(upTo: i)
                put(mode == .attribute ? 0x20 : 0x0A)
                i += 1
                if i < to && p[i] == 0x0A { i += 1 }
                run = i
            case 0x09, 0x0A:
                if mode == .attribute {
                    keep(upTo: i)
                    put(0x20)
                    run = i + 1
                }
                i += 1
            case 0:
                throw PrefsXMLError(.nulByte, at: i)
            case 0x01..<0x20:
                throw PrefsXMLError(.controlCharacter, at: i)
            default:
                i += 1
            }
        }
        keep(upTo: to)
        return length
    }

    /// Resolves the reference at `i` (an `&`) within `[i, to)` that is not one of the five
    /// predefined entities' usual spellings: a character reference, or an error. Returns the
    /// offset after `;` and the character.
    private func characterReference(at i: Int, to: Int) throws -> (Int, UInt32) {
        let p = origin
        var j = i + 1
        if j < to && p[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < to && p[j] == UInt8(ascii: "x")
            if hex { j += 1 }
            var value: UInt32 = 0
            var digits = 0
            while j < to {
                let d: UInt8
                if let h = hexValue(p[j]), hex || h < 10 { d = h } else { break }
                // Saturate just past the last code point, so long digit strings cannot overflow.
                value = min(value &* (hex ? 16 : 10) &+ UInt32(d), 0x11_0000)
                digits += 1
                j += 1
            }
            guard digits > 0, j < to, p[j] == UInt8(ascii: ";") else { throw PrefsXMLError(.malformedReference, at: i) }
            guard PrefsXMLReader.isReferable(value, decimal: !hex, digits: digits) else {
                throw PrefsXMLError(.invalidCharacterReference, at: i)
            }
            return (j + 1, value)
        }
        guard j < to, isNameStart(p[j]) else { throw PrefsXMLError(.malformedReference, at: i) }
        while j < to && isNameByte(p[j]) { j += 1 }
        guard j < to, p[j] == UInt8(ascii: ";") else { throw PrefsXMLError(.malformedReference, at: i) }
        throw PrefsXMLError(.undefinedEntity, at: i)
    }

    /// Whether a reference of `digits` digits to `value` is accepted: a character of XML 1.0's
    /// `Char` production, or a control character spelled as Android's serializer writes it
    /// (decimal, no leading zeros: `&#0;` … `&#31;`).
    static func isReferable(_ value: UInt32, decimal: Bool, digits: Int) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: return true
        case 0..<0x20: return decimal && digits == (value < 10 ? 1 : 2)
        default: return false
        }
    }

    /// The five predefined entities, `quot;` … `gt;` at `j` (after the `&`): the character and the
    /// length up to and including `;`. Found by whole-word compares, since escaped JSON holds one
    /// every few bytes; anything else takes the general path.
    @inline(__always)
    private func predefinedEntity(at j: Int, to: Int) -> (UInt8, Int)? {
        guard to - j >= 3 else { return nil }
        let p = UnsafeRawPointer(origin + j)
        let three = UInt32(p.loadUnaligned(fromByteOffset: 0, as: UInt16.self)) | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
        if three == 0x3B_74_6C { return (UInt8(ascii: "<"), 3) }  // "lt;"
        if three == 0x3B_74_67 { return (UInt8(ascii: ">"), 3) }  // "gt;"
        guard to - j >= 4 else { return nil }
        let four = p.loadUnaligned(as: UInt32.self)
        if four == 0x3B_70_6D_61 { return (UInt8(ascii: "&"), 4) }  // "amp;"
        guard to - j >= 5, p.load(fromByteOffset: 4, as: UInt8.self) == UInt8(ascii: ";") else { return nil }
        if four == 0x74_6F_75_71 { return (UInt8(ascii: "\""), 5) }  // "quot"
        if four == 0x73_6F_70_61 { return (UInt8(ascii: "'"), 5) }  // "apos"
        return nil
    }

    /// The index of the first byte of `w` (in memory order) that is '&', '<', ']', below 0x20 or
    /// at least 0x80, or nil when there is none.
    @inline(__always)
    static func firstSpecialByte(_ w: UInt64) -> Int? {
        SWAR.firstMarked((SWAR.bytesEqual(w, 0x26) | SWAR.bytesEqual(w, 0x3C) | SWAR.bytesEqual(w, 0x5D) | SWAR.bytesBelow(w, 0x20) | w) & SWAR.highBits)
    }

    // MARK: - Window access

    /// Reads more bytes, keeping those from `keep`; false at the end of the input.
    @inline(never)
    private mutating func more() -> Bool {
        let more = window.extend(keeping: keep)
        origin = window.base - window.start
        limit = window.end
        return more
    }

    /// The byte at absolute `i`, reading more when needed; nil past the end of the input.
    @inline(__always)
    private mutating func peek(_ i: Int) -> UInt8? {
        if i < limit { return origin[i] }
        while i >= limit {
            if !more() { return nil }
        }
        return origin[i]
    }

    /// The offset of the first `byte` at or after `start`, reading more when needed.
    private mutating func find(_ byte: UInt8, from start: Int) -> Int? {
        var i = start
        while true {
            if i < limit, let hit = memchr(origin + i, Int32(byte), limit - i) {
                return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - origin
            }
            i = max(i, limit)
            if !more() { return nil }
        }
    }

    /// Whether the input at `i` starts with `word`; nil when it ends before that is known.
    private mutating func prefix(_ word: StaticString, at i: Int) -> Bool? {
        let w = word.utf8Start
        for k in 0..<word.utf8CodeUnitCount {
            guard let c = peek(i + k) else { return nil }
            if c != w[k] { return false }
        }
        return true
    }

    /// The first non-whitespace offset at or after `start`, or nil at the end of the input.
    private mutating func skipSpace(from start: Int) -> Int? {
        var i = start
        while let c = peek(i) {
            if !isSpace(c) { return i }
            i += 1
        }
        return nil
    }

    /// Like `skipSpace`, but the input may not end inside a tag.
    private mutating func skipSpaceInTag(from start: Int) throws -> Int {
        guard let i = skipSpace(from: start) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
        return i
    }

    // MARK: - Names and bytes

    private func entryKind(_ start: Int, _ end: Int) -> PrefsEntryKind {
        switch end - start {
        case 3:
            if nameIs(start, end, "int") { return .int }
            if nameIs(start, end, "set") { return .set }
        case 4:
            if nameIs(start, end, "long") { return .long }
            if nameIs(start, end, "null") { return .null }
        case 5:
            if nameIs(start, end, "float") { return .float }
        case 6:
            if nameIs(start, end, "string") { return .string }
            if nameIs(start, end, "double") { return .double }
        case 7:
            if nameIs(start, end, "boolean") { return .boolean }
        default: break
        }
        return .other
    }

    /// Whether the visible bytes `[start, end)` spell `word`.
    private func nameIs(_ start: Int, _ end: Int, _ word: StaticString, caseInsensitive: Bool = false) -> Bool {
        let n = word.utf8CodeUnitCount
        guard end - start == n else { return false }
        let w = word.utf8Start
        for k in 0..<n {
            let c = origin[start + k]
            if c != w[k] && !(caseInsensitive && c | 0x20 == w[k] | 0x20 && (c | 0x20) &- UInt8(ascii: "a") < 26) { return false }
        }
        return true
    }

    private func sameName(_ s1: Int, _ e1: Int, _ s2: Int, _ e2: Int) -> Bool {
        e1 - s1 == e2 - s2 && memcmp(origin + s1, origin + s2, e1 - s1) == 0
    }

    private func sameName(_ close: (nameStart: Int, nameEnd: Int, end: Int), _ open: StartTag) -> Bool {
        sameName(close.nameStart, close.nameEnd, open.nameStart, open.nameEnd)
    }

    private func unexpectedTextReason(_ b: UInt8) -> PrefsXMLReason {
        b == 0 ? .nulByte : .unexpectedText
    }

    private func unexpectedCharacterReason(_ b: UInt8) -> PrefsXMLReason {
        b == 0 ? .nulByte : .unexpectedCharacter(describeByte(b))
    }
}

@inline(__always)
private func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
}

/// XML name start characters, ASCII part: letters, `_` and `:` (non-ASCII ones are accepted
/// when valid UTF-8).
@inline(__always)
private func isNameStart(_ b: UInt8) -> Bool {
    (b | 0x20) &- UInt8(ascii: "a") < 26 || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
}

/// XML name characters, ASCII part: name start characters, digits, `-` and `.`.
@inline(__always)
private func isNameByte(_ b: UInt8) -> Bool {
    isNameStart(b) || b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
}
