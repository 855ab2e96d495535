import AuditBytes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming reader of any XML document that is not a SharedPreferences `<map>` (Android
/// manifests, layouts, `res/values`, plists): it checks well-formedness with an explicit stack of
/// open elements and hands start tags, text nodes and comments to an `XMLVisitor` as it reads
/// them. Like `PrefsXMLReader`, it lets nothing reach outside the file or grow when expanded: no
/// entity references but the five predefined ones and character references, and a DOCTYPE only
/// when it names an external DTD and nothing else (every plist has one), which is never read. An
/// internal subset or an ENTITY declaration is refused. Errors are `PrefsXMLError`s, whose
/// reasons the two readers share.
///
/// Memory is the window (from the start of the tag or text run being read), the names of the
/// open elements, and the text run being read.
public struct XMLReader {
    public static let defaultMaxDepth = 256

    public let window: ByteWindow
    public let maxDepth: Int
    /// `window.base - window.start`: indexed by absolute offsets; refreshed after every extend.
    private var origin: UnsafePointer<UInt8>
    private var limit: Int
    private var next: Int
    /// Bytes from here on stay visible.
    private var keep: Int

    public init(window: ByteWindow, maxDepth: Int = XMLReader.defaultMaxDepth) {
        self.window = window
        self.maxDepth = maxDepth
        origin = window.base - window.start
        limit = window.end
        next = window.start
        keep = window.start
    }

    /// Reads the whole document. When the window fails to read, this reports an unexpected end:
    /// check `window.failure` first.
    public mutating func read<V: XMLVisitor>(_ visitor: inout V) throws {
        if peek(next) == 0xEF && peek(next + 1) == 0xBB && peek(next + 2) == 0xBF { next += 3 }
        if prefix("<?xml", at: next) == true, let c = peek(next + 5), isSpace(c) {
            guard let end = find("?>", from: next + 5) else { throw PrefsXMLError(.unexpectedEnd(.xmlDeclaration), at: limit) }
            next = end + 2
        }
        var open: [[UInt8]] = []
        var sawRoot = false
        var text: [UInt8] = []
        var textStart: Int?
        var comments: [PrefsText] = []
        func flushText() throws {
            if let start = textStart, text.contains(where: { !isSpace($0) }) { try visitor.text(PrefsText(text, at: start)) }
            for comment in comments { try visitor.comment(comment) }
            // Its room kept for the next run, unless it is large: a visitor that keeps the text (a
            // Burp Suite message) shares its buffer, which clearing in place would allocate again.
            text.removeAll(keepingCapacity: text.capacity <= 1 << 16)
            textStart = nil
            comments.removeAll()
        }
        while true {
            keep = textStart ?? next
            let lt: Int
            if open.isEmpty {
                guard let found = skipSpace(from: next) else {
                    if sawRoot { return }
                    throw PrefsXMLError(.noElement, at: limit)
                }
                guard origin[found] == UInt8(ascii: "<") else {
                    throw PrefsXMLError(origin[found] == 0 ? .nulByte : sawRoot ? .trailingContent : .unexpectedText, at: found)
                }
                lt = found
            } else {
                guard let found = find(UInt8(ascii: "<"), from: next) else { throw PrefsXMLError(.unexpectedEnd(.otherElement), at: limit) }
                if found > next {
                    if textStart == nil { textStart = next }
                    try decode(from: next, to: found, mode: .text, into: &text)
                }
                lt = found
            }
            keep = textStart ?? lt
            guard let c = peek(lt + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            switch c {
            case UInt8(ascii: "/"):
                guard !open.isEmpty else { throw PrefsXMLError(.unexpectedEndTag, at: lt) }
                let (nameStart, nameEnd, end) = try endTag(at: lt)
                guard open.last!.elementsEqual(UnsafeBufferPointer(start: origin + nameStart, count: nameEnd - nameStart)) else {
                    throw PrefsXMLError(.mismatchedEndTag, at: lt)
                }
                try flushText()
                open.removeLast()
                try visitor.endElement()
                next = end
            case UInt8(ascii: "?"):
                if prefix("<?xml", at: lt) == true, let d = peek(lt + 5), isSpace(d) || d == UInt8(ascii: "?") {
                    throw PrefsXMLError(.misplacedXMLDeclaration, at: lt)
                }
                guard let end = find("?>", from: lt + 2) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                let instruction = PrefsText(Array(UnsafeBufferPointer(start: origin + lt + 2, count: end - lt - 2)), at: lt + 2)
                if textStart != nil { comments.append(instruction) } else { try visitor.comment(instruction) }
                next = end + 2
            case UInt8(ascii: "!"):
                if prefix("<!--", at: lt) == true {
                    guard let end = find("--", from: lt + 4) else { throw PrefsXMLError(.unexpectedEnd(.comment), at: limit) }
                    guard peek(end + 2) == UInt8(ascii: ">") else { throw PrefsXMLError(.doubleHyphenInComment, at: end) }
                    var content: [UInt8] = []
                    try decode(from: lt + 4, to: end, mode: .comment, into: &content)
                    let comment = PrefsText(content, at: lt + 4)
                    if textStart != nil { comments.append(comment) } else { try visitor.comment(comment) }
                    next = end + 3
                } else if prefix("<![CDATA[", at: lt) == true {
                    guard !open.isEmpty else { throw PrefsXMLError(sawRoot ? .trailingContent : .unexpectedText, at: lt) }
                    guard let end = find("]]>", from: lt + 9) else { throw PrefsXMLError(.unexpectedEnd(.cdata), at: limit) }
                    if textStart == nil { textStart = lt + 9 }
                    try decode(from: lt + 9, to: end, mode: .cdata, into: &text)
                    next = end + 3
                } else if prefix("<!DOCTYPE", at: lt) == true {
                    guard !sawRoot && open.isEmpty else { throw PrefsXMLError(.doctype, at: lt) }
                    let (end, subset) = try doctype(at: lt)
                    // The declarations' text is scanned as a comment's: a default value is text too.
                    if let subset { try visitor.comment(PrefsText(Array(UnsafeBufferPointer(start: origin + subset.lowerBound, count: subset.count)), at: subset.lowerBound)) }
                    next = end
                } else if prefix("<!ENTITY", at: lt) == true {
                    throw PrefsXMLError(.entityDeclaration, at: lt)
                } else {
                    throw PrefsXMLError(.unknownMarkupDeclaration, at: lt)
                }
            default:
                guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .unexpectedCharacter(describeByte(c)), at: lt + 1) }
                if open.isEmpty && sawRoot { throw PrefsXMLError(.secondRoot, at: lt) }
                if open.count >= maxDepth { throw PrefsXMLError(.nestingTooDeep(limit: maxDepth), at: lt) }
                let (tag, end, selfClosing) = try startTag(at: lt)
                try flushText()
                sawRoot = true
                try visitor.startElement(tag)
                if selfClosing { try visitor.endElement() } else { open.append(tag.name) }
                next = end
            }
        }
    }

    /// `<!DOCTYPE name>` or `<!DOCTYPE name SYSTEM "uri">` / `PUBLIC "id" "uri"`, at `lt`: read and
    /// ignored (the DTD is never fetched). An internal subset may declare elements, attribute
    /// lists and notations and hold comments and processing instructions, as Burp Suite's exports
    /// do: they describe the document and change nothing in it (a default attribute value is not
    /// applied). Returns the offset after `>` and the internal subset's range, if there is one.
    private mutating func doctype(at lt: Int) throws -> (end: Int, subset: Range<Int>?) {
        var i = lt + 9
        var subset: Range<Int>?
        while true {
            guard let c = peek(i) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            switch c {
            case UInt8(ascii: ">"):
                return (i + 1, subset)
            case UInt8(ascii: "["):
                guard subset == nil else { throw PrefsXMLError(.unexpectedCharacter(describeByte(c)), at: i) }
                let end = try internalSubset(from: i + 1)
                subset = i + 1..<end
                i = end + 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = find(c, from: i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                i = close + 1
            default:
                i += 1
            }
        }
    }

    /// The declarations of an internal subset from `start`, checked; returns the offset of the
    /// `]` that ends it. An ENTITY declaration is refused, and so is a parameter-entity reference
    /// (`%name;`), which could only name one.
    private mutating func internalSubset(from start: Int) throws -> Int {
        var i = start
        while true {
            guard let c = peek(i) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            if isSpace(c) {
                i += 1
            } else if c == UInt8(ascii: "]") {
                return i
            } else if c == UInt8(ascii: "%") {
                throw PrefsXMLError(.doctypeInternalSubset, at: i)
            } else if c != UInt8(ascii: "<") {
                throw PrefsXMLError(c == 0 ? .nulByte : .unexpectedCharacter(describeByte(c)), at: i)
            } else if prefix("<!--", at: i) == true {
                guard let end = find("--", from: i + 4) else { throw PrefsXMLError(.unexpectedEnd(.comment), at: limit) }
                guard peek(end + 2) == UInt8(ascii: ">") else { throw PrefsXMLError(.doubleHyphenInComment, at: end) }
                i = end + 3
            } else if prefix("<?", at: i) == true {
                guard let end = find("?>", from: i + 2) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                i = end + 2
            } else if prefix("<!ENTITY", at: i) == true {
                throw PrefsXMLError(.entityDeclaration, at: i)
            } else if prefix("<!ELEMENT", at: i) == true || prefix("<!ATTLIST", at: i) == true || prefix("<!NOTATION", at: i) == true {
                i = try declarationEnd(from: i + 2)
            } else {
                throw PrefsXMLError(.unknownMarkupDeclaration, at: i)
            }
        }
    }

    /// The offset after the `>` that ends a markup declaration, past its quoted literals.
    private mutating func declarationEnd(from start: Int) throws -> Int {
        var i = start
        while true {
            guard let c = peek(i) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            switch c {
            case UInt8(ascii: ">"):
                return i + 1
            case UInt8(ascii: "%"):
                throw PrefsXMLError(.doctypeInternalSubset, at: i)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = find(c, from: i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                i = close + 1
            default:
                i += 1
            }
        }
    }

    /// Reads and checks the start tag at `lt`: its name, its attributes (decoded; no name
    /// twice), then `>` or `/>`. Returns the tag, the offset after it and whether it closes
    /// itself.
    private mutating func startTag(at lt: Int) throws -> (XMLStartTag, Int, Bool) {
        let nameEnd = try scanName(from: lt + 1)
        var tag = XMLStartTag(name: Array(UnsafeBufferPointer(start: origin + lt + 1, count: nameEnd - lt - 1)), offset: lt, attributes: [])
        var names = Set<[UInt8]>()
        var i = nameEnd
        while true {
            let before = i
            i = try skipSpaceInTag(from: i)
            let c = origin[i]
            if c == UInt8(ascii: ">") { return (tag, i + 1, false) }
            if c == UInt8(ascii: "/") {
                guard let d = peek(i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
                guard d == UInt8(ascii: ">") else { throw PrefsXMLError(.unexpectedCharacter(describeByte(d)), at: i + 1) }
                return (tag, i + 2, true)
            }
            if i == before { throw PrefsXMLError(c == 0 ? .nulByte : .unexpectedCharacter(describeByte(c)), at: i) }
            guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .expectedName, at: i) }
            let attributeStart = i
            i = try scanName(from: i)
            let name = Array(UnsafeBufferPointer(start: origin + attributeStart, count: i - attributeStart))
            guard names.insert(name).inserted else { throw PrefsXMLError(.duplicateAttribute, at: attributeStart) }
            i = try skipSpaceInTag(from: i)
            guard origin[i] == UInt8(ascii: "=") else { throw PrefsXMLError(.expectedEquals, at: i) }
            i = try skipSpaceInTag(from: i + 1)
            let quote = origin[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw PrefsXMLError(.expectedQuote, at: i) }
            guard let valueEnd = find(quote, from: i + 1) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
            var value: [UInt8] = []
            try decode(from: i + 1, to: valueEnd, mode: .attribute, into: &value)
            tag.attributes.append(XMLAttribute(name: name, value: PrefsText(value, at: i + 1)))
            i = valueEnd + 1
        }
    }

    /// Reads the end tag at `lt` (`</name>`, whitespace allowed before `>`).
    private mutating func endTag(at lt: Int) throws -> (nameStart: Int, nameEnd: Int, end: Int) {
        let nameStart = lt + 2
        guard let c = peek(nameStart) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
        guard isNameStart(c) else { throw PrefsXMLError(c == 0 ? .nulByte : .expectedName, at: nameStart) }
        let nameEnd = try scanName(from: nameStart)
        let i = try skipSpaceInTag(from: nameEnd)
        guard origin[i] == UInt8(ascii: ">") else { throw PrefsXMLError(.unexpectedCharacter(describeByte(origin[i])), at: i) }
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
                _ = peek(i + 3)
                let n = utf8SequenceLength(origin, at: i, end: limit)
                if n == 0 { throw PrefsXMLError(.invalidUTF8, at: i) }
                i += n
            }
        }
    }

    // MARK: - Character data

    private enum CharMode { case text, attribute, cdata, comment }

    /// 1 for printable ASCII but `&`, `<` and `]`, which mean something in some modes: the bytes
    /// every mode keeps as they are.
    private static let standsForItself = ConstantByteTable((0...255).map { b in
        b >= 0x20 && b < 0x80 && b != Int(UInt8(ascii: "&")) && b != Int(UInt8(ascii: "<")) && b != Int(UInt8(ascii: "]")) ? 1 : 0
    })

    /// Validates the character data in `[from, to)` (visible) and appends its decoded bytes to
    /// `out`: references resolved (text and attributes), line ends normalised to LF (attribute
    /// whitespace to spaces), as XML specifies.
    private func decode(from: Int, to: Int, mode: CharMode, into out: inout [UInt8]) throws {
        var i = from
        // Read once: a static's every read checks that it is made.
        let plain = XMLReader.standsForItself.bytes
        while i < to {
            // A run of bytes that stand for themselves is appended at once: one at a time, a
            // Burp Suite export's base64 messages cost 32 instructions a byte.
            let run = i
            while i < to && plain[Int(origin[i])] != 0 { i += 1 }
            if i > run { out.append(contentsOf: UnsafeBufferPointer(start: origin + run, count: i - run)) }
            guard i < to else { break }
            let b = origin[i]
            if b >= 0x80 {
                let n = utf8SequenceLength(origin, at: i, end: to)
                if n == 0 { throw PrefsXMLError(.invalidUTF8, at: i) }
                out.append(contentsOf: UnsafeBufferPointer(start: origin + i, count: n))
                i += n
                continue
            }
            switch b {
            case UInt8(ascii: "&") where mode == .text || mode == .attribute:
                i = try reference(at: i, to: to, into: &out)
                continue
            case UInt8(ascii: "<") where mode == .attribute:
                throw PrefsXMLError(.lessThanInAttributeValue, at: i)
            case UInt8(ascii: "]") where mode == .text && i + 2 < to && origin[i + 1] == UInt8(ascii: "]") && origin[i + 2] == UInt8(ascii: ">"):
                throw PrefsXMLError(.cdataEndInText, at: i)
            case 0x0D:
                out.append(mode == .attribute ? 0x20 : 0x0A)
                if i + 1 < to && origin[i + 1] == 0x0A { i += 1 }
            case 0x09, 0x0A:
                out.append(mode == .attribute ? 0x20 : b)
            case 0:
                throw PrefsXMLError(.nulByte, at: i)
            case 0x01..<0x20:
                throw PrefsXMLError(.controlCharacter, at: i)
            default:
                out.append(b)
            }
            i += 1
        }
    }

    /// Resolves the reference at `i` (an `&`): one of the five predefined entities or a
    /// character reference; anything else is refused. Returns the offset after `;`.
    private func reference(at i: Int, to: Int, into out: inout [UInt8]) throws -> Int {
        var j = i + 1
        if j < to && origin[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < to && origin[j] == UInt8(ascii: "x")
            if hex { j += 1 }
            var value: UInt32 = 0
            var digits = 0
            while j < to, let d = hexValue(origin[j]), hex || d < 10 {
                value = min(value &* (hex ? 16 : 10) &+ UInt32(d), 0x11_0000)
                digits += 1
                j += 1
            }
            guard digits > 0, j < to, origin[j] == UInt8(ascii: ";") else { throw PrefsXMLError(.malformedReference, at: i) }
            guard PrefsXMLReader.isReferable(value, decimal: !hex, digits: digits) else { throw PrefsXMLError(.invalidCharacterReference, at: i) }
            var encoded = [UInt8](repeating: 0, count: 4)
            let n = encoded.withUnsafeMutableBufferPointer { JSONString.writeUTF8(value, to: $0.baseAddress!) }
            out.append(contentsOf: encoded[..<n])
            return j + 1
        }
        guard j < to, isNameStart(origin[j]) else { throw PrefsXMLError(.malformedReference, at: i) }
        while j < to && isNameByte(origin[j]) { j += 1 }
        guard j < to, origin[j] == UInt8(ascii: ";") else { throw PrefsXMLError(.malformedReference, at: i) }
        let name = String(decoding: UnsafeBufferPointer(start: origin + i + 1, count: j - i - 1), as: UTF8.self)
        guard let character = XMLReader.predefined[name] else { throw PrefsXMLError(.undefinedEntity, at: i) }
        out.append(character)
        return j + 1
    }

    private static let predefined: [String: UInt8] = [
        "lt": UInt8(ascii: "<"), "gt": UInt8(ascii: ">"), "amp": UInt8(ascii: "&"), "quot": UInt8(ascii: "\""), "apos": UInt8(ascii: "'"),
    ]

    // MARK: - Window access

    @inline(never)
    private mutating func more() -> Bool {
        let more = window.extend(keeping: keep)
        origin = window.base - window.start
        limit = window.end
        return more
    }

    /// The byte at absolute `i`, reading more when needed; nil past the end of the input.
    private mutating func peek(_ i: Int) -> UInt8? {
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

    /// The offset of the first occurrence of `word` at or after `start`.
    private mutating func find(_ word: StaticString, from start: Int) -> Int? {
        var i = start
        while let at = find(word.utf8Start[0], from: i) {
            guard let matches = prefix(word, at: at) else { return nil }
            if matches { return at }
            i = at + 1
        }
        return nil
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

    private mutating func skipSpace(from start: Int) -> Int? {
        var i = start
        while let c = peek(i) {
            if !isSpace(c) { return i }
            i += 1
        }
        return nil
    }

    private mutating func skipSpaceInTag(from start: Int) throws -> Int {
        guard let i = skipSpace(from: start) else { throw PrefsXMLError(.unexpectedEnd(.tag), at: limit) }
        return i
    }
}

@inline(__always)
private func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
}

/// XML name start characters, ASCII part (non-ASCII ones are accepted when valid UTF-8).
@inline(__always)
private func isNameStart(_ b: UInt8) -> Bool {
    (b | 0x20) &- UInt8(ascii: "a") < 26 || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
}

@inline(__always)
private func isNameByte(_ b: UInt8) -> Bool {
    isNameStart(b) || b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
}
