import AuditBytes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte-level reader of Android SharedPreferences XML exports (what `XmlUtils.writeMapXml`
/// writes, plus what hand-edited and third-party dumps add: single quotes, `&apos;`, CDATA,
/// comments). It streams through a `ByteWindow`, never recurses and never builds a tree: it hands
/// each child of `<map>` to a visitor, part by part, as it reads it.
///
/// It is deliberately not a general XML parser. Everything that lets an XML file reach outside
/// itself or grow when expanded is refused: DOCTYPE (so no entity definitions, no billion
/// laughs, no external entities), entity references other than the five predefined ones, and
/// processing instructions. Elements outside the SharedPreferences vocabulary (`<list>`,
/// `<map name=…>`, `<int-array>`, `<byte-array>`, …, which `XmlUtils` can write) are checked and
/// reported as `.other` entries with their texts, not refused. Text that holds no value
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
///
/// Memory is the window and what one part needs: the window keeps the start tag being read (its
/// names are the duplicate check's keys, and an entry's attributes are handed only once its
/// name is known), the text being read (its offset must still resolve when it is handed), and no
/// more; nothing is kept per attribute, member, element or comment once it is handed, but the
/// duplicate check's note per attribute name of the tag being read, which `maxAttributes` bounds.
public struct PrefsXMLReader {
    /// Default limit on element nesting (the root `<map>` counts as 1).
    public static let defaultMaxDepth = 256
    /// Default limit on the attributes of one tag: Android writes one or two, and the duplicate
    /// check of 2^20 costs 32 to 48 MiB.
    public static let defaultMaxAttributes = 1 << 20

    public let window: ByteWindow
    public let maxDepth: Int
    public let maxAttributes: Int
    /// `window.base - window.start`: indexed by absolute offsets; refreshed after every extend.
    private var origin: UnsafePointer<UInt8>
    /// Absolute offset just past the visible bytes.
    private var limit: Int
    /// Absolute offset of the next unread byte (between tokens only).
    private var next: Int
    /// Bytes from this absolute offset on stay visible: the start of the tag, text or token being
    /// read, so that any range inside it can be sliced without copying as we go, and its offsets
    /// still resolve to positions.
    private var keep: Int
    /// Attribute names of the tag being read, for the duplicate check.
    private var attributeNames = AttributeNameSet()
    /// The buffers a markup attribute's name and decoded value are made in, lent to the markup
    /// handed to the visitor and taken back: two arrays allocated and freed an attribute were a
    /// fifth of the instructions of a tag of a million attributes. (A visitor that keeps a text
    /// keeps its copy; the next attribute is then made in a new buffer.)
    private var attributeNameBuffer: [UInt8] = []
    private var attributeTextBuffer: [UInt8] = []
    /// The same for the texts handed as values (a `<string>`'s text, a scalar's `value`
    /// attribute): an array made and freed for each was a third of a prefs export's allocations.
    private var valueTextBuffer: [UInt8] = []
    private var scalarValueBuffer: [UInt8] = []
    /// And for an entry's decoded name (`PrefsEntry.nameBytes`).
    private var entryNameBuffer: [UInt8] = []
    /// The names of the open elements inside an `.other` entry, end to end, and where each ends:
    /// copied, so that the window need not keep their start tags.
    private var openNames: [UInt8] = []
    private var openNameEnds: [Int] = []
    /// Comments handed so far in the entry being read.
    private var entryComments = 0
    /// Comments read so far outside entries.
    private var documentComments = 0

    /// A reader over `window` from its current start; `maxAttributes` is clamped to what the
    /// duplicate check holds (`AttributeNameSet.maxNames`, eight times the default).
    public init(window: ByteWindow, maxDepth: Int = PrefsXMLReader.defaultMaxDepth, maxAttributes: Int = PrefsXMLReader.defaultMaxAttributes) {
        self.window = window
        self.maxDepth = maxDepth
        self.maxAttributes = min(maxAttributes, AttributeNameSet.maxNames)
        origin = window.base - window.start
        limit = window.end
        next = window.start
        keep = window.start
    }

    /// A reader over a whole buffer (offsets are offsets into `bytes`).
    public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = PrefsXMLReader.defaultMaxDepth, maxAttributes: Int = PrefsXMLReader.defaultMaxAttributes) {
        self.init(window: ByteWindow(whole: bytes), maxDepth: maxDepth, maxAttributes: maxAttributes)
    }

    // MARK: - Document

    /// Reads the whole document and hands it to `visitor`. When the window fails to read, this
    /// reports an unexpected end: check `window.failure` first.
    public mutating func read<V: PrefsXMLVisitor>(_ visitor: inout V) throws {
        try readProlog(&visitor)
        let rootStart = next
        keep = rootStart
        let root = try startTag(at: rootStart, role: .map)
        guard nameIs(root.nameStart, root.nameEnd, "map") else { throw PrefsXMLError(.rootNotMap, at: rootStart) }
        try hand(root, role: .map, &visitor)
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
                try readEntry(at: lt, &visitor)
            }
        }
        try readEpilog(&visitor)
    }

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

    /// Reads the child of `<map>` whose `<` is at `lt` (visible, and kept) and hands it over.
    private mutating func readEntry<V: PrefsXMLVisitor>(at lt: Int, _ visitor: inout V) throws {
        entryComments = 0
        let tag = try startTag(at: lt, role: .entry)
        let kind = tag.kind
        guard let name = tag.name else { throw PrefsXMLError(.missingAttribute("name"), at: lt) }
        if kind.isScalar {
            guard let v = tag.value else { throw PrefsXMLError(.missingAttribute("value"), at: lt) }
            let valid: Bool
            switch kind {
            case .boolean: valid = v.bytes.elementsEqual("true".utf8) || v.bytes.elementsEqual("false".utf8)
            case .int: valid = JavaNumberText.isInteger(v.bytes, min: Int64(Int32.min), max: Int64(Int32.max))
            case .long: valid = JavaNumberText.isInteger(v.bytes, min: Int64.min, max: Int64.max)
            default: valid = JavaNumberText.isFloatingPoint(v.bytes)
            }
            guard valid else { throw PrefsXMLError(.invalidValue(kind), at: v.offset) }
        }
        try visitor.entry(PrefsEntry(nameBytes: name.bytes, nameOffset: name.offset, kind: kind, value: tag.value))
        try hand(tag, role: .entry, &visitor)
        switch kind {
        case .string:
            if tag.selfClosing {
                try visitor.part(.value(PrefsText([], at: tag.end), index: nil))
                next = tag.end
            } else {
                next = try readText(from: tag.end, index: nil, &visitor)
            }
        case .boolean, .int, .long, .float, .double, .null:
            next = try closeEmpty(tag, &visitor)
        case .set:
            next = try readSetMembers(tag, &visitor)
        case .other:
            next = try readOther(tag, &visitor)
        }
        try visitor.endEntry()
        entryNameBuffer = name.bytes
        if let value = tag.value { scalarValueBuffer = value.bytes }
    }

    /// The text of a `<string>` (an entry or a set member) up to its end tag, which may hold
    /// only text, CDATA and comments: handed as a value part, then the comments inside it.
    /// Returns the offset after the end tag.
    private mutating func readText<V: PrefsXMLVisitor>(from start: Int, index: Int?, _ visitor: inout V) throws -> Int {
        keep = start
        var text = Self.take(&valueTextBuffer)
        defer { valueTextBuffer = text }
        let (lt, kind, hasComments) = try readContent(from: start, into: &text, textAllowed: true, place: .stringText, &visitor)
        if kind == .element { throw PrefsXMLError(.unexpectedElement(.stringText), at: lt) }
        let close = try endTag(at: lt)
        guard nameIs(close.nameStart, close.nameEnd, "string") else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
        try visitor.part(.value(PrefsText(text, at: start), index: index))
        if hasComments { try handComments(from: start, to: lt, &visitor) }
        return close.end
    }

    /// The end of an element that holds nothing but whitespace and comments (handed as read).
    private mutating func closeEmpty<V: PrefsXMLVisitor>(_ tag: StartTag, _ visitor: inout V) throws -> Int {
        if tag.selfClosing { return tag.end }
        var none: [UInt8] = []
        let (lt, kind, _) = try readContent(from: tag.end, into: &none, textAllowed: false, place: .valueElement, &visitor)
        if kind == .element { throw PrefsXMLError(.unexpectedElement(.valueElement), at: lt) }
        let close = try endTag(at: lt)
        guard nameIs(close.nameStart, close.nameEnd, tag.kind) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
        return close.end
    }

    /// The `<string>` members of a `<set>`, each handed as it is read; returns the offset after
    /// the set's end tag.
    private mutating func readSetMembers<V: PrefsXMLVisitor>(_ tag: StartTag, _ visitor: inout V) throws -> Int {
        if tag.selfClosing { return tag.end }
        var i = tag.end
        var members = 0
        var none: [UInt8] = []
        while true {
            let (lt, kind, _) = try readContent(from: i, into: &none, textAllowed: false, place: .set, &visitor)
            keep = lt
            if kind == .endTag {
                let close = try endTag(at: lt)
                guard nameIs(close.nameStart, close.nameEnd, "set") else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
                return close.end
            }
            let member = try startTag(at: lt, role: .member(members))
            guard nameIs(member.nameStart, member.nameEnd, "string") else { throw PrefsXMLError(.unexpectedElement(.set), at: lt) }
            try hand(member, role: .member(members), &visitor)
            if member.selfClosing {
                try visitor.part(.value(PrefsText([], at: member.end), index: members))
                i = member.end
            } else {
                i = try readText(from: member.end, index: members, &visitor)
            }
            members += 1
        }
    }

    /// An element outside the SharedPreferences vocabulary, checked for well-formedness with an
    /// explicit stack of open elements: the names and attributes of the elements inside it are
    /// handed as markup, its non-blank texts as values, as they are read. Returns the offset after
    /// its end tag.
    private mutating func readOther<V: PrefsXMLVisitor>(_ tag: StartTag, _ visitor: inout V) throws -> Int {
        if tag.selfClosing { return tag.end }
        openNames.removeAll(keepingCapacity: true)
        openNameEnds.removeAll(keepingCapacity: true)
        pushOpenName(tag.nameStart, tag.nameEnd)
        var texts = 0
        var elements = 0
        var text = Self.take(&valueTextBuffer)
        defer { valueTextBuffer = text }
        var i = tag.end
        while true {
            keep = i
            text.removeAll(keepingCapacity: true)
            let (lt, kind, hasComments) = try readContent(from: i, into: &text, textAllowed: true, place: .otherElement, &visitor)
            if kind == .endTag {
                let close = try endTag(at: lt)
                guard isOpenName(close.nameStart, close.nameEnd) else { throw PrefsXMLError(.mismatchedEndTag, at: lt) }
                try handTextNode(text, from: i, to: lt, hasComments: hasComments, index: &texts, &visitor)
                popOpenName()
                i = close.end
                if openNameEnds.isEmpty { return i }
            } else {
                // The map is level 1 and the entry level 2, so this child is at `count + 2`.
                if openNameEnds.count + 2 > maxDepth { throw PrefsXMLError(.nestingTooDeep(limit: maxDepth), at: lt) }
                let child = try startTag(at: lt, role: .content(elements))
                try handTextNode(text, from: i, to: lt, hasComments: hasComments, index: &texts, &visitor)
                try hand(child, role: .content(elements), &visitor)
                elements += 1
                if !child.selfClosing { pushOpenName(child.nameStart, child.nameEnd) }
                i = child.end
            }
        }
    }

    /// Hands a text node of an `.other` entry read from `[start, end)`, when it holds more than
    /// whitespace, as the value part `index` (then counted), and the comments inside it.
    private mutating func handTextNode<V: PrefsXMLVisitor>(_ text: [UInt8], from start: Int, to end: Int, hasComments: Bool,
                                                           index: inout Int, _ visitor: inout V) throws {
        if text.contains(where: { !isSpace($0) }) {
            try visitor.part(.value(PrefsText(text, at: start), index: index))
            index += 1
        }
        if hasComments { try handComments(from: start, to: end, &visitor) }
    }

    /// Opens an element inside an `.other` entry: its name (visible) is copied.
    private mutating func pushOpenName(_ start: Int, _ end: Int) {
        openNames.append(contentsOf: UnsafeBufferPointer(start: origin + start, count: end - start))
        openNameEnds.append(openNames.count)
    }

    /// Whether the visible bytes `[start, end)` spell the name of the innermost open element.
    private func isOpenName(_ start: Int, _ end: Int) -> Bool {
        let nameEnd = openNameEnds[openNameEnds.count - 1]
        let nameStart = openNameEnds.count > 1 ? openNameEnds[openNameEnds.count - 2] : 0
        guard nameEnd - nameStart == end - start else { return false }
        return openNames.withUnsafeBufferPointer { memcmp($0.baseAddress! + nameStart, origin + start, end - start) == 0 }
    }

    private mutating func popOpenName() {
        openNameEnds.removeLast()
        openNames.truncate(to: openNameEnds.last ?? 0)
    }

    // MARK: - Content

    private enum Markup { case element, endTag, comment, cdata }

    /// Reads character data, CDATA sections and comments from `start` up to the next start or
    /// end tag, and returns that tag's `<`, its kind and whether a comment came before it. With
    /// `textAllowed`, text is decoded and appended to `text`, and comments are only checked: they
    /// follow the text, which is complete only at the tag, so the caller hands them after it
    /// (`handComments`, while `start` stays kept). Otherwise only whitespace may appear, and each
    /// comment is handed as it is read.
    private mutating func readContent<V: PrefsXMLVisitor>(from start: Int, into text: inout [UInt8], textAllowed: Bool, place: PrefsXMLPlace,
                                                          _ visitor: inout V) throws -> (Int, Markup, hasComments: Bool) {
        var i = start
        var hasComments = false
        while true {
            let lt: Int
            if textAllowed {
                guard let found = find(UInt8(ascii: "<"), from: i) else { throw PrefsXMLError(.unexpectedEnd(place), at: limit) }
                lt = found
                if lt > i { try decode(from: i, to: lt, mode: .text, collect: true, into: &text) }
            } else {
                keep = i
                guard let found = skipSpace(from: i) else { throw PrefsXMLError(.unexpectedEnd(place), at: limit) }
                guard origin[found] == UInt8(ascii: "<") else { throw PrefsXMLError(unexpectedTextReason(origin[found]), at: found) }
                lt = found
            }
            switch try markupKind(at: lt) {
            case .comment:
                hasComments = true
                let end = try readComment(at: lt)
                if !textAllowed { try handComment(at: lt, end: end, &visitor) }
                i = end
            case .cdata:
                guard textAllowed else { throw PrefsXMLError(.unexpectedText, at: lt) }
                i = try readCDATA(at: lt, into: &text)
            case let tag:
                return (lt, tag, hasComments)
            }
        }
    }

    /// Hands the comments in `[start, end)`, content that `readContent` read and checked and that
    /// is still visible, in document order (CDATA sections, which may hold `<!--`, skipped).
    private mutating func handComments<V: PrefsXMLVisitor>(from start: Int, to end: Int, _ visitor: inout V) throws {
        var i = start
        while let lt = visibleIndex(of: UInt8(ascii: "<"), from: i, to: end) {
            if origin[lt + 2] == UInt8(ascii: "-") {
                // The first `--` after `<!--` ends it: `readComment` refused any other.
                var dash = visibleIndex(of: UInt8(ascii: "-"), from: lt + 4, to: end)!
                while origin[dash + 1] != UInt8(ascii: "-") { dash = visibleIndex(of: UInt8(ascii: "-"), from: dash + 1, to: end)! }
                try handComment(at: lt, end: dash + 3, &visitor)
                i = dash + 3
            } else {
                // `<![CDATA[`, up to the first `]]>`.
                var gt = visibleIndex(of: UInt8(ascii: ">"), from: lt + 9, to: end)!
                while gt - 2 < lt + 9 || origin[gt - 1] != UInt8(ascii: "]") || origin[gt - 2] != UInt8(ascii: "]") {
                    gt = visibleIndex(of: UInt8(ascii: ">"), from: gt + 1, to: end)!
                }
                i = gt + 1
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

    /// Checks the comment at `lt`; returns the offset after `-->`. `--` may not occur inside.
    private mutating func readComment(at lt: Int) throws -> Int {
        var i = lt + 4
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
            return dash + 3
        }
    }

    /// The comment checked at `lt` (visible up to `end`, after `-->`) as markup, the `index`th of
    /// its entry or of the document.
    private func comment(at lt: Int, end: Int, index: Int) -> PrefsMarkup {
        let start = lt + 4
        return PrefsMarkup(.comment(index: index), owner: .entry, name: PrefsText([], at: start), text: slice(start, end - 3))
    }

    /// Hands the comment checked at `lt` as the next of the entry being read.
    private mutating func handComment<V: PrefsXMLVisitor>(at lt: Int, end: Int, _ visitor: inout V) throws {
        try visitor.part(.markup(comment(at: lt, end: end, index: entryComments)))
        entryComments += 1
    }

    /// Reads the comment at `lt`, outside any entry, and hands it to `visitor`; returns the
    /// offset after it.
    private mutating func documentComment<V: PrefsXMLVisitor>(at lt: Int, _ visitor: inout V) throws -> Int {
        let end = try readComment(at: lt)
        let markup = comment(at: lt, end: end, index: documentComments)
        documentComments += 1
        try visitor.markup(markup)
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
        /// An entry's decoded `name`, in the reader's buffer, which `readEntry` takes back.
        var name: PrefsText?
        var value: PrefsText?
        /// How many of its attributes are markup, for `hand`.
        var markupAttributes: Int
    }

    /// What a start tag is, and so which of its attributes the reader interprets and where its
    /// markup goes.
    private enum TagRole {
        /// The root: every attribute is markup outside entries.
        case map
        /// A child of `<map>`: `name` is the entry's name and, on a scalar (`<int>`, …), `value`
        /// its value. Any other attribute is markup, and so is the element's name when it is
        /// outside the vocabulary (an `.other` entry).
        case entry
        /// The `<string>` member of a `<set>` at this index: every attribute is markup.
        case member(Int)
        /// The element at this index inside an `.other` entry: its name and every attribute are
        /// markup.
        case content(Int)

        var owner: PrefsMarkup.Owner {
            switch self {
            case .map, .entry: return .entry
            case .member(let index): return .member(index)
            case .content(let index): return .content(index)
            }
        }
    }

    /// Reads and checks the start tag at `lt`, which stays visible until `hand`: name,
    /// attributes (the interpreted ones decoded into the tag, the others only checked and
    /// counted), then `>` or `/>`.
    private mutating func startTag(at lt: Int, role: TagRole) throws -> StartTag {
        let nameStart = lt + 1
        var i = try scanName(from: nameStart)
        var tag = StartTag(nameStart: nameStart, nameEnd: i, end: i, selfClosing: false, kind: .other, name: nil, value: nil, markupAttributes: 0)
        var isEntry = false
        if case .entry = role {
            isEntry = true
            tag.kind = entryKind(nameStart, i)
        }
        let interpretsValue = isEntry && tag.kind.isScalar
        attributeNames.removeAll()
        do {
            var attributes = 0
            var none: [UInt8] = []
            while true {
                let before = i
                i = try skipSpaceInTag(from: i)
                let c = origin[i]
                if c == UInt8(ascii: ">") {
                    tag.end = i + 1
                    try checkDuplicateAttributes()
                    return tag
                }
                if c == UInt8(ascii: "/") {
                    guard let d = peek(i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                    guard d == UInt8(ascii: ">") else { throw PrefsXMLError(unexpectedCharacterReason(d), at: i + 1) }
                    tag.end = i + 2
                    tag.selfClosing = true
                    try checkDuplicateAttributes()
                    return tag
                }
                if i == before { throw PrefsXMLError(unexpectedCharacterReason(c), at: i) }
                guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .expectedName, at: i) }
                let attributeStart = i
                i = try scanName(from: i)
                let attributeEnd = i
                attributes += 1
                if attributes > maxAttributes { throw PrefsXMLError(.tooManyAttributes(limit: maxAttributes), at: attributeStart) }
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
                if isEntry && nameIs(attributeStart, attributeEnd, "name") {
                    tag.name = try entryName(from: valueStart, to: valueEnd)
                } else if interpretsValue && nameIs(attributeStart, attributeEnd, "value") {
                    tag.value = try scalarValue(from: valueStart, to: valueEnd)
                } else {
                    try decode(from: valueStart, to: valueEnd, mode: .attribute, collect: false, into: &none)
                    tag.markupAttributes += 1
                }
                i = valueEnd + 1
            }
        } catch let error as PrefsXMLError where error.reason != .duplicateAttribute {
            // A duplicate among the names read so far comes before the error, as it did when
            // each name was checked as it came.
            try checkDuplicateAttributes()
            throw error
        }
    }

    /// Throws when two attributes of the tag have one name (`AttributeNameSet` checks the names
    /// past its first few when the tag ends).
    @inline(__always)
    private mutating func checkDuplicateAttributes() throws {
        if attributeNames.hasNotes, let duplicate = attributeNames.firstDuplicate(in: origin) {
            throw PrefsXMLError(.duplicateAttribute, at: duplicate)
        }
    }

    /// Hands the parts of a start tag that `startTag` checked, in document order: the element's
    /// name when it is markup, then its attributes, as markup or (an entry's `name` and a
    /// scalar's `value`) as the parts `.name` and `.value`. An entry's markup waits for its tag's
    /// end, where its name is known; the tag is read a second time only when it holds markup.
    private mutating func hand<V: PrefsXMLVisitor>(_ tag: StartTag, role: TagRole, _ visitor: inout V) throws {
        var isEntry = false
        switch role {
        case .map, .member: break
        case .entry: isEntry = true
        case .content: try hand(PrefsMarkup(.element, owner: role.owner, name: slice(tag.nameStart, tag.nameEnd), text: PrefsText([], at: tag.nameEnd)), role: role, &visitor)
        }
        if isEntry && tag.kind == .other {
            try hand(PrefsMarkup(.element, owner: .entry, name: slice(tag.nameStart, tag.nameEnd), text: PrefsText([], at: tag.nameEnd)), role: role, &visitor)
        }
        if tag.markupAttributes == 0 {
            guard isEntry, let name = tag.name else { return }
            if let value = tag.value, value.offset < name.offset { try visitor.part(.value(value, index: nil)) }
            try visitor.part(.name)
            if let value = tag.value, value.offset > name.offset { try visitor.part(.value(value, index: nil)) }
            return
        }
        var i = tag.nameEnd
        while true {
            while isSpace(origin[i]) { i += 1 }
            guard isNameStart(origin[i]) else { return }
            let attributeStart = i
            i = try scanName(from: i)
            let attributeEnd = i
            while origin[i] != UInt8(ascii: "=") { i += 1 }
            i += 1
            while isSpace(origin[i]) { i += 1 }
            let valueStart = i + 1
            let valueEnd = visibleIndex(of: origin[i], from: valueStart, to: tag.end)!
            if isEntry && nameIs(attributeStart, attributeEnd, "name") {
                try visitor.part(.name)
            } else if let value = tag.value, isEntry && nameIs(attributeStart, attributeEnd, "value") {
                try visitor.part(.value(value, index: nil))
            } else {
                // The name and the decoded value made in the reader's buffers, lent to the markup
                // and taken back once the visitor is done with it.
                var name = Self.take(&attributeNameBuffer)
                name.append(contentsOf: UnsafeBufferPointer(start: origin + attributeStart, count: attributeEnd - attributeStart))
                let text = try takeDecodedAttribute(from: valueStart, to: valueEnd)
                try hand(PrefsMarkup(.attribute, owner: role.owner, name: PrefsText(name, at: attributeStart), text: PrefsText(text, at: valueStart)),
                         role: role, &visitor)
                (attributeNameBuffer, attributeTextBuffer) = (name, text)
            }
            i = valueEnd + 1
        }
    }

    /// Hands markup where it belongs: outside entries for `<map>`, else as a part of the entry.
    private func hand<V: PrefsXMLVisitor>(_ markup: PrefsMarkup, role: TagRole, _ visitor: inout V) throws {
        if case .map = role {
            try visitor.markup(markup)
        } else {
            try visitor.part(.markup(markup))
        }
    }

    /// A scalar's decoded `value` attribute `[start, end)` (visible), in the reader's buffer,
    /// which `readEntry` takes back.
    private mutating func scalarValue(from start: Int, to end: Int) throws -> PrefsText {
        var decoded = Self.take(&scalarValueBuffer)
        try decode(from: start, to: end, mode: .attribute, collect: true, into: &decoded)
        return PrefsText(decoded, at: start)
    }

    /// An entry's decoded `name` attribute `[start, end)` (visible), in the reader's buffer,
    /// which `readEntry` takes back.
    private mutating func entryName(from start: Int, to end: Int) throws -> PrefsText {
        var decoded = Self.take(&entryNameBuffer)
        try decode(from: start, to: end, mode: .attribute, collect: true, into: &decoded)
        return PrefsText(decoded, at: start)
    }

    /// The attribute value `[start, end)` (visible), decoded into the reader's text buffer, which
    /// the caller takes and gives back (`attributeTextBuffer`) once done with it.
    private mutating func takeDecodedAttribute(from start: Int, to end: Int) throws -> [UInt8] {
        var text = Self.take(&attributeTextBuffer)
        try decode(from: start, to: end, mode: .attribute, collect: true, into: &text)
        return text
    }

    /// One of the reader's buffers, emptied, for the caller to fill, lend and give back. Its
    /// room is kept when no text handed in it is still held (else the array is new). Inline:
    /// called out of line, twice for each markup attribute, it cost a tag of a million
    /// attributes 2 % more instructions than the swap written in place.
    @inline(__always)
    private static func take(_ buffer: inout [UInt8]) -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        taken.removeAll(keepingCapacity: true)
        return taken
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
        // The decoded length so far. Until a reference or a CR LF first shortens the output, the
        // copy already holds every byte passed; from then on (`moved`) each is written down at
        // `length` as it is passed, a word at a time, where copying each run between two
        // references took a call (JSON held in a value has `&quot;` every few bytes).
        var length = 0
        var moved = false
        let resolvesReferences = mode == .text || mode == .attribute
        @inline(__always) func put(_ byte: UInt8) {
            destination?[length] = byte
            length += 1
        }
        /// Passes the `n` source bytes at `i`, unchanged.
        @inline(__always) func pass(_ n: Int) {
            if moved { (destination! + length).update(from: p + i, count: n) }
            i += n
            length += n
        }
        while i < to {
            if i &+ XMLTextBlock.size &+ 8 <= to {
                (i, length, moved) = PrefsXMLReader.passBlocks(p, from: i, length: length, moved: moved, to: to,
                                                               resolvesReferences: resolvesReferences, writingTo: destination)
            }
            // Eight bytes at a time while none is '&', '<', ']', a control or a non-ASCII byte. A
            // word written down may reach past the run: what it wrote there is written again or
            // cut off (the copy has room for every source byte, and `length` never passes `i`).
            while i &+ 8 <= to {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if moved { UnsafeMutableRawPointer(destination! + length).storeBytes(of: w, as: UInt64.self) }
                if let first = PrefsXMLReader.firstSpecialByte(w) {
                    i &+= first
                    length &+= first
                    break
                }
                i &+= 8
                length &+= 8
            }
            guard i < to else { break }
            let b = p[i]
            if b >= 0x80 {
                let n = utf8SequenceLength(p, at: i, end: to)
                if n == 0 { throw PrefsXMLError(.invalidUTF8, at: i) }
                pass(n)
                continue
            }
            switch b {
            case UInt8(ascii: "&") where resolvesReferences:
                if let (replacement, count) = PrefsXMLReader.predefinedEntity(p, at: i + 1, to: to) {
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
                // A reference is longer than what it stands for.
                moved = destination != nil
            case UInt8(ascii: "<") where mode == .attribute:
                throw PrefsXMLError(.lessThanInAttributeValue, at: i)
            case UInt8(ascii: "]") where mode == .text:
                if i + 2 < to && p[i + 1] == UInt8(ascii: "]") && p[i + 2] == UInt8(ascii: ">") {
                    throw PrefsXMLError(.cdataEndInText, at: i)
                }
                pass(1)
            case 0x0D:
                put(mode == .attribute ? 0x20 : 0x0A)
                i += 1
                if i < to && p[i] == 0x0A {
                    i += 1
                    moved = destination != nil
                }
            case 0x09, 0x0A:
                if mode == .attribute {
                    put(0x20)
                    i += 1
                } else {
                    pass(1)
                }
            case 0:
                throw PrefsXMLError(.nulByte, at: i)
            case 0x01..<0x20:
                throw PrefsXMLError(.controlCharacter, at: i)
            default:
                pass(1)
            }
        }
        return length
    }

    /// Passes blocks of 64 bytes of `decode`'s character data in `p` from `start`, while 72 are
    /// left: the special bytes of a block found at once (`XMLTextBlock`), and the runs between
    /// them and the predefined entities passed without leaving it. Stops at any other special
    /// byte, for `decode`'s byte path, and returns where, with the decoded length and whether the
    /// output has moved there. A run is written down a word at a time, as `decode` writes it; the
    /// eight bytes past the block keep its last word's load and store within the value. Out of
    /// line: inlined, it cost each short value (an attribute's, mostly) some 26 instructions.
    @inline(never)
    private static func passBlocks(_ p: UnsafePointer<UInt8>, from start: Int, length decoded: Int, moved wasMoved: Bool, to: Int,
                                   resolvesReferences: Bool, writingTo destination: UnsafeMutablePointer<UInt8>?)
        -> (i: Int, length: Int, moved: Bool) {
        var (i, length, moved) = (start, decoded, wasMoved)
        blocks: while i &+ XMLTextBlock.size &+ 8 <= to {
            let blockStart = i
            var specials = XMLTextBlock.specials(p + i)
            while true {
                let next = blockStart &+ (specials == 0 ? XMLTextBlock.size : specials.trailingZeroBitCount)
                if moved {
                    var word = 0
                    while i &+ word < next {
                        let w = UnsafeRawPointer(p + (i &+ word)).loadUnaligned(as: UInt64.self)
                        UnsafeMutableRawPointer(destination! + (length &+ word)).storeBytes(of: w, as: UInt64.self)
                        word &+= 8
                    }
                }
                length &+= next &- i
                i = next
                if specials == 0 { continue blocks }
                guard resolvesReferences, p[i] == UInt8(ascii: "&") else { return (i, length, moved) }
                guard let (replacement, count) = predefinedEntity(p, at: i &+ 1, to: to) else { return (i, length, moved) }
                destination?[length] = replacement
                length &+= 1
                i &+= 1 &+ count
                moved = destination != nil
                let passed = i &- blockStart
                if passed >= XMLTextBlock.size { continue blocks }
                specials &= ~0 &<< UInt64(passed)
            }
        }
        return (i, length, moved)
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
    /// every few bytes, `quot;` first (a JSON string held in a value has two); anything else
    /// takes the general path.
    @inline(__always)
    private static func predefinedEntity(_ text: UnsafePointer<UInt8>, at j: Int, to: Int) -> (UInt8, Int)? {
        let p = UnsafeRawPointer(text + j)
        if to - j >= 5, p.loadUnaligned(as: UInt32.self) == 0x74_6F_75_71, p.load(fromByteOffset: 4, as: UInt8.self) == UInt8(ascii: ";") {
            return (UInt8(ascii: "\""), 5)  // "quot;"
        }
        guard to - j >= 3 else { return nil }
        let three = UInt32(p.loadUnaligned(fromByteOffset: 0, as: UInt16.self)) | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
        if three == 0x3B_74_6C { return (UInt8(ascii: "<"), 3) }  // "lt;"
        if three == 0x3B_74_67 { return (UInt8(ascii: ">"), 3) }  // "gt;"
        guard to - j >= 4 else { return nil }
        let four = p.loadUnaligned(as: UInt32.self)
        if four == 0x3B_70_6D_61 { return (UInt8(ascii: "&"), 4) }  // "amp;"
        guard to - j >= 5, p.load(fromByteOffset: 4, as: UInt8.self) == UInt8(ascii: ";") else { return nil }
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

    /// The offset of the first `byte` in the visible bytes `[start, end)`.
    private func visibleIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        guard start < end, let hit = memchr(origin + start, Int32(byte), end - start) else { return nil }
        return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - origin
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

    /// Whether the visible bytes `[start, end)` spell the element name of `kind`.
    private func nameIs(_ start: Int, _ end: Int, _ kind: PrefsEntryKind) -> Bool {
        var word = kind.rawValue
        return word.withUTF8 { w in w.count == end - start && memcmp(origin + start, w.baseAddress!, w.count) == 0 }
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
