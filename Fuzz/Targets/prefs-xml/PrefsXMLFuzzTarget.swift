// The SharedPreferences XML reader, whole and streamed: only PrefsXMLError is thrown, at an offset
// inside the input; entry and markup offsets lie inside the input, come in increasing order and
// resolve to positions during the visit (as the scanner does); both reads give the same entries,
// parts, markup and error. Then a whole scan with the format forced to prefs-xml.
//
// The first byte chooses what is read: 1 -> one tag of many attributes built from the rest (a
// byte each, some names repeated), which must be refused exactly at the first repeated name;
// 2 -> character references with numbers and spellings from the rest, in an attribute and in
// text, accepted or refused exactly as XML 1.0 and Android's serializer allow; 3 -> an `.other`
// entry of elements, attributes, comments and texts built from the rest, whose markup must be
// reported whole; anything else -> the input as it is.
import FuzzSupport
import AuditCore
import AuditInputs
import AuditScan

/// What the reader hands, in order.
private enum Event: Equatable {
    case entry(PrefsEntry)
    case part(PrefsEntryPart)
    case endEntry
    case markup(PrefsMarkup)
}

private struct Recorder: PrefsXMLVisitor {
    let window: ByteWindow
    let size: Int
    var events: [Event] = []
    var positions: [SourcePosition] = []
    var entry: PrefsEntry?

    mutating func entry(_ entry: PrefsEntry) throws {
        Fuzz.check(self.entry == nil, "an entry starts after the previous one ended")
        self.entry = entry
        events.append(.entry(entry))
    }

    mutating func part(_ part: PrefsEntryPart) throws {
        guard let entry else { return Fuzz.check(false, "parts come inside an entry") }
        switch part {
        case .name: resolve([entry.nameOffset])
        case .value(let text, _): resolve([text.offset])
        case .markup(let markup): resolve([markup.name.offset, markup.text.offset])
        }
        events.append(.part(part))
    }

    mutating func endEntry() throws {
        Fuzz.check(entry != nil, "an entry ends after it started")
        entry = nil
        events.append(.endEntry)
    }

    mutating func markup(_ markup: PrefsMarkup) throws {
        Fuzz.check(entry == nil, "markup outside entries comes outside entries")
        resolve([markup.name.offset, markup.text.offset])
        events.append(.markup(markup))
    }

    /// Resolves offsets as they are handed, which must be in increasing order.
    private mutating func resolve(_ offsets: [Int]) {
        for offset in offsets {
            Fuzz.check(offset >= 0 && offset <= size, "prefs entry and markup offsets are in the input")
            Fuzz.check(positions.last.map { $0.byteOffset <= offset } ?? true, "offsets are handed in increasing order")
            let p = window.position(of: offset)
            Fuzz.check(p.line >= 1 && p.column >= 1 && p.byteOffset == offset, "an offset resolves to its position")
            positions.append(p)
        }
    }
}

private struct Outcome {
    var events: [Event]
    var positions: [SourcePosition]
    var error: PrefsXMLError?

    /// The parts of the first entry.
    var firstEntryParts: [PrefsEntryPart] {
        var parts: [PrefsEntryPart] = []
        for event in events.drop(while: { if case .entry = $0 { false } else { true } }).dropFirst() {
            guard case .part(let part) = event else { break }
            parts.append(part)
        }
        return parts
    }

    var entryCount: Int { events.filter { $0 == .endEntry }.count }
}

private func read(_ window: ByteWindow, size: Int) -> Outcome {
    var reader = PrefsXMLReader(window: window)
    var recorder = Recorder(window: window, size: size)
    do {
        try reader.read(&recorder)
        return Outcome(events: recorder.events, positions: recorder.positions)
    } catch let error as PrefsXMLError {
        Fuzz.check(error.offset >= 0 && error.offset <= size, "the error offset is in the input")
        _ = error.reason.message
        return Outcome(events: recorder.events, positions: recorder.positions, error: error)
    } catch {
        Fuzz.check(false, "the prefs reader throws only PrefsXMLError")
        return Outcome(events: [], positions: [])
    }
}

/// A document built from the fuzz input, and what reading it must give.
private enum Expectation {
    /// Refused with this reason at this offset.
    case error(PrefsXMLReason, at: Int)
    /// Read; the first entry's markup has these names (attributes and elements; comments "#").
    case markupNames([String])
    /// Read; the first entry's text, and the value of its one attribute, are these bytes.
    case text([UInt8])
}

private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Mode 1: `<map><string name="k" a…="x…" …>v</string></map>`, a name per byte: `a<index>` for
/// bytes below 0x80, `a<byte & 0x7F>` (which may repeat an earlier name) for the others.
private func manyAttributes(_ rest: ArraySlice<UInt8>) -> ([UInt8], Expectation) {
    var bytes = utf8("<map><string name=\"k\"")
    var seen: Set<String> = []
    var names: [String] = []
    var duplicate: Int?
    for (i, b) in rest.enumerated() {
        let name = b < 0x80 ? "a\(i)" : "a\(b & 0x7F)"
        bytes += utf8(" ")
        if duplicate == nil && !seen.insert(name).inserted { duplicate = bytes.count }
        names.append(name)
        bytes += utf8("\(name)=\"x\(b)\"")
    }
    bytes += utf8(">v</string></map>")
    return (bytes, duplicate.map { .error(.duplicateAttribute, at: $0) } ?? .markupNames(names))
}

/// Mode 2: five bytes a reference: the first picks the spelling (decimal, decimal with leading
/// zeros, hex, a digit string too long for any code point) and the range of the number the
/// next four give. The references stand in an attribute and again in the text.
private func characterReferences(_ rest: ArraySlice<UInt8>) -> ([UInt8], Expectation) {
    var references: [UInt8] = []
    var decoded: [UInt8] = []
    var firstRefused: Int?
    let bytes = Array(rest)
    var i = 0
    while i + 5 <= bytes.count {
        let spelling = bytes[i] & 3
        let value = bytes[i + 1..<i + 5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let number: UInt64
        switch bytes[i] >> 2 & 3 {
        case 0: number = UInt64(value & 0x3F)
        case 1: number = UInt64(value & 0xFFFF)
        case 2: number = UInt64(value & 0x1F_FFFF)
        default: number = UInt64(value) << 8 | UInt64(bytes[i])
        }
        let zeros = spelling == 1 ? 1 + Int(bytes[i] >> 4 & 3) : 0
        let digits = spelling == 2 ? String(number, radix: 16) : String(repeating: "0", count: zeros) + String(number)
        let reference = spelling == 2 ? "&#x\(digits);" : spelling == 3 ? "&#\(digits)99999999999;" : "&#\(digits);"
        // XML 1.0's Char, or a control character spelled as Android writes it (`&#N;`).
        let code = spelling == 3 ? UInt64.max : number
        let isChar = code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code)
            || (0xE000...0xFFFD).contains(code) || (0x1_0000...0x10_FFFF).contains(code)
        let accepted = isChar || (code < 0x20 && spelling == 0)
        if accepted {
            decoded += Array(String(Character(Unicode.Scalar(UInt32(code))!)).utf8)
        } else if firstRefused == nil {
            firstRefused = references.count
        }
        references += utf8(reference)
        i += 5
    }
    let head = utf8("<map><string name=\"r\" a=\"")
    let document = head + references + utf8("\">") + references + utf8("</string></map>")
    return (document, firstRefused.map { .error(.invalidCharacterReference, at: head.count + $0) } ?? .text(decoded))
}

/// Mode 3: `<map><list name="l" …>` and a part per byte (by its low two bits): a comment, an
/// element with an attribute (opened), the end of the innermost open one, or a text.
private func otherElements(_ rest: ArraySlice<UInt8>) -> ([UInt8], Expectation) {
    var bytes = utf8("<map><list name=\"l\">")
    var open: [String] = []
    var names = ["list"]
    var tooDeep: Int?
    for b in rest {
        switch b & 3 {
        case 0:
            names.append("#")
            bytes += utf8("<!--c\(b)-->")
        case 1:
            if tooDeep == nil && open.count + 3 > PrefsXMLReader.defaultMaxDepth { tooDeep = bytes.count }
            names += ["e\(b)", "a"]
            open.append("e\(b)")
            bytes += utf8("<e\(b) a=\"\(b >> 2)\">")
        case 2:
            if let name = open.popLast() { bytes += utf8("</\(name)>") } else { bytes += utf8("<!---->"); names.append("#") }
        default:
            bytes += utf8("t\(b)")
        }
    }
    for name in open.reversed() { bytes += utf8("</\(name)>") }
    bytes += utf8("</list></map>")
    return (bytes, tooDeep.map { .error(.nestingTooDeep(limit: PrefsXMLReader.defaultMaxDepth), at: $0) } ?? .markupNames(names))
}

private func check(_ outcome: Outcome, _ expectation: Expectation) {
    switch expectation {
    case .error(let reason, let offset):
        Fuzz.check(outcome.error == PrefsXMLError(reason, at: offset), "a built document is refused where it must be")
    case .markupNames(let names):
        Fuzz.check(outcome.error == nil && outcome.entryCount == 1, "a built document reads")
        let reported = outcome.firstEntryParts.compactMap { part -> String? in
            guard case .markup(let markup) = part else { return nil }
            if case .comment = markup.kind { return "#" }
            return String(decoding: markup.name.bytes, as: UTF8.self)
        }
        Fuzz.check(reported == names, "every attribute, element and comment is reported, in document order")
    case .text(let bytes):
        Fuzz.check(outcome.error == nil && outcome.entryCount == 1, "references XML and Android allow are accepted")
        let parts = outcome.firstEntryParts
        let texts = parts.compactMap { part -> [UInt8]? in if case .value(let text, nil) = part { text.bytes } else { nil } }
        let attributes = parts.compactMap { part -> [UInt8]? in if case .markup(let markup) = part { markup.text.bytes } else { nil } }
        Fuzz.check(texts == [bytes], "references decode to their characters")
        Fuzz.check(attributes == [bytes], "references in an attribute decode as in text")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrefsXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(Fuzz.buffer(data, size))
    var document = input
    var expectation: Expectation?
    switch input.first {
    case 1?: (document, expectation) = manyAttributes(input.dropFirst())
    case 2?: (document, expectation) = characterReferences(input.dropFirst())
    case 3?: (document, expectation) = otherElements(input.dropFirst())
    default: break
    }
    document.withUnsafeBytes { bytes in
        let whole = read(ByteWindow(whole: bytes), size: bytes.count)
        let streamed = read(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: bytes.count)
        Fuzz.check(whole.events == streamed.events, "the same entries, parts and markup whole and streamed")
        Fuzz.check(whole.positions == streamed.positions, "the same positions whole and streamed")
        Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
        if let expectation { check(whole, expectation) }
        Fuzz.scan(bytes, with: Fuzz.scanner(.prefsXML))
    }
    return 0
}
