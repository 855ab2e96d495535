
import AuditBytes
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import AuditInputs

/// Records each entry as one line (kind, name and values with their line:column), then a line
/// per markup item of the entry, indented; markup outside entries as lines of its own. Offsets
/// are resolved as they are handed, as a streaming window requires, and must come in increasing
/// order.
private struct PrefsRecorder: PrefsXMLVisitor {
    let window: ByteWindow
    var lines: [String] = []
    private var entry: PrefsEntry?
    private var name = ""
    private var values: [String] = []
    private var markupLines: [String] = []
    private var lastOffset = 0

    init(window: ByteWindow) {
        self.window = window
    }

    /// `"text"@line:column`, the offset checked to come no earlier than the last one.
    private mutating func show(_ bytes: [UInt8], at offset: Int) -> String {
        if offset < lastOffset { lines.append("offset \(offset) handed after \(lastOffset)") }
        lastOffset = offset
        let p = window.position(of: offset)
        return "\(String(decoding: bytes, as: UTF8.self).debugDescription)@\(p.line):\(p.column)"
    }

    mutating func entry(_ e: PrefsEntry) {
        entry = e
        values = []
        markupLines = []
    }

    mutating func part(_ part: PrefsEntryPart) {
        guard let e = entry else { return lines.append("part outside an entry") }
        switch part {
        case .name: name = show(Array(e.name.utf8), at: e.nameOffset)
        case .value(let text, _): values.append(show(text.bytes, at: text.offset))
        case .markup(let m): markupLines.append("  " + describe(m))
        }
    }

    mutating func endEntry() {
        guard let e = entry else { return lines.append("end outside an entry") }
        var line = "\(e.kind.rawValue) \(name)"
        switch e.kind {
        case .null: break
        case .set, .other: line += " [" + values.joined(separator: ", ") + "]"
        default: line += " = " + values.joined(separator: ", ")
        }
        lines.append(line)
        lines += markupLines
        entry = nil
    }

    mutating func markup(_ m: PrefsMarkup) {
        lines.append("markup " + describe(m))
    }

    /// `attribute entry "name"@1:2 = "value"@1:8`, `element content(0) "name"@1:2`, `comment 0 "text"@1:5`.
    private mutating func describe(_ m: PrefsMarkup) -> String {
        let owner: String
        switch m.owner {
        case .entry: owner = "entry"
        case .member(let i): owner = "member(\(i))"
        case .content(let i): owner = "content(\(i))"
        }
        switch m.kind {
        case .attribute:
            let name = show(m.name.bytes, at: m.name.offset)
            return "attribute \(owner) \(name) = \(show(m.text.bytes, at: m.text.offset))"
        case .element: return "element \(owner) \(show(m.name.bytes, at: m.name.offset))"
        case .comment(let index): return "comment \(index) \(show(m.text.bytes, at: m.text.offset))"
        }
    }
}

/// Entry lines, or the entry lines so far and then "error: <message> @line:column".
private func outcome(_ window: ByteWindow, maxDepth: Int = PrefsXMLReader.defaultMaxDepth) -> [String] {
    var reader = PrefsXMLReader(window: window, maxDepth: maxDepth)
    var recorder = PrefsRecorder(window: window)
    do {
        try reader.read(&recorder)
        return recorder.lines
    } catch let e as PrefsXMLError {
        let p = window.position(of: e.offset)
        return recorder.lines + ["error: \(e.reason.message) @\(p.line):\(p.column)"]
    } catch {
        return recorder.lines + ["unexpected error type"]
    }
}

private func outcome(_ bytes: [UInt8], maxDepth: Int = PrefsXMLReader.defaultMaxDepth) -> [String] {
    bytes.withUnsafeBytes { outcome(ByteWindow(whole: $0), maxDepth: maxDepth) }
}

private func outcome(_ text: String) -> [String] { outcome(Array(text.utf8)) }

/// An entry of a document that must parse, with its parts.
private struct ReadEntry {
    var entry: PrefsEntry
    var parts: [PrefsEntryPart] = []

    /// The text of a `<string>` or the value of a scalar.
    var text: PrefsText? {
        for case .value(let text, nil) in parts { return text }
        return nil
    }
}

/// The entries of a document that must parse.
private func entries(_ text: String) throws -> [ReadEntry] {
    struct Collector: PrefsXMLVisitor {
        var entries: [ReadEntry] = []
        mutating func entry(_ entry: PrefsEntry) { entries.append(ReadEntry(entry: entry)) }
        mutating func part(_ part: PrefsEntryPart) { entries[entries.count - 1].parts.append(part) }
        mutating func endEntry() {}
        mutating func markup(_ markup: PrefsMarkup) {}
    }
    return try Array(text.utf8).withUnsafeBytes { buffer in
        var reader = PrefsXMLReader(buffer)
        var collector = Collector()
        try reader.read(&collector)
        return collector.entries
    }
}

/// The error of a document that must fail: reason and line:column.
private func failure(_ bytes: [UInt8], maxDepth: Int = PrefsXMLReader.defaultMaxDepth) -> (PrefsXMLReason, String)? {
    struct Ignore: PrefsXMLVisitor {
        mutating func entry(_ entry: PrefsEntry) {}
        mutating func part(_ part: PrefsEntryPart) {}
        mutating func endEntry() {}
        mutating func markup(_ markup: PrefsMarkup) {}
    }
    return bytes.withUnsafeBytes { buffer in
        var reader = PrefsXMLReader(buffer, maxDepth: maxDepth)
        var ignore = Ignore()
        do {
            try reader.read(&ignore)
            return nil
        } catch let e as PrefsXMLError {
            let p = ByteWindow.position(of: e.offset, in: buffer)
            return (e.reason, "\(p.line):\(p.column)")
        } catch {
            return nil
        }
    }
}

private func failure(_ text: String) -> (PrefsXMLReason, String)? { failure(Array(text.utf8)) }

/// A window over a temporary file that reads `chunkSize` bytes at a time.
private func streamingWindow(over data: [UInt8], chunkSize: Int) -> ByteWindow {
    let directory = TestSupport.temporaryDirectory()
    let url = directory.appendingPathComponent("prefs.xml")
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(data))
    let fd = open(url.path, O_RDONLY)
    try? FileManager.default.removeItem(at: directory)  // The open descriptor keeps the file.
    return ByteWindow(descriptor: fd, expectedSize: data.count, chunkSize: chunkSize)
}

/// What Android's SharedPreferencesImpl writes, with every kind it produces plus `<null>`.
private let androidPrefsSample = """
<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <string name="flutter.token">ghp_abc</string>
    <boolean name="flutter.dark" value="true" />
    <long name="flutter.count" value="-42" />
    <int name="legacy" value="7" />
    <float name="flutter.ratio" value="1.5" />
    <string name="flutter.list">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu![&quot;a&quot;,&quot;b&quot;]</string>
    <set name="flutter.tags">
        <string>x</string>
        <string>y &amp; z</string>
    </set>
    <null name="gone" />
    <string name="empty"></string>
    <string name="empty2" />
</map>

"""

/// The bytes the reader stops at in character data, word by word and block by block: '&', '<',
/// ']', controls and bytes outside ASCII.
private func isSpecialByte(_ b: UInt8) -> Bool { b == 0x26 || b == 0x3C || b == 0x5D || b < 0x20 || b >= 0x80 }

private let forbiddenReference = "character reference to a character XML does not allow (a surrogate, U+FFFE, U+FFFF, beyond U+10FFFF, or a control character not written as Android writes it: &#0; to &#31;)"

/// XML's decoding of character data, written plainly: the five entities and character
/// references resolved, a CR LF or a lone CR made an LF, and in an attribute every line end and
/// tab a space (a reference is not normalised).
private func plainlyDecoded(_ text: String, inAttribute: Bool) -> [UInt8] {
    let raw = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < raw.count {
        let b = raw[i]
        if b == UInt8(ascii: "&") {
            let end = raw[i...].firstIndex(of: UInt8(ascii: ";"))!
            let name = String(decoding: raw[(i + 1)..<end], as: UTF8.self)
            let entities: [String: UInt32] = ["lt": 0x3C, "gt": 0x3E, "amp": 0x26, "quot": 0x22, "apos": 0x27]
            let scalar = entities[name] ?? (name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)! : UInt32(name.dropFirst())!)
            out += Array(String(Unicode.Scalar(scalar)!).utf8)
            i = end + 1
        } else if b == 0x0D {
            out.append(inAttribute ? 0x20 : 0x0A)
            i += i + 1 < raw.count && raw[i + 1] == 0x0A ? 2 : 1
        } else {
            out.append(inAttribute && (b == 0x0A || b == 0x09) ? 0x20 : b)
            i += 1
        }
    }
    return out
}

@Suite struct PrefsXMLReaderTests {
    @Test func androidExportNamesValuesAndPositions() {
        #expect(outcome(androidPrefsSample) == [
            #"string "flutter.token"@3:19 = "ghp_abc"@3:34"#,
            #"boolean "flutter.dark"@4:20 = "true"@4:41"#,
            #"long "flutter.count"@5:17 = "-42"@5:39"#,
            #"int "legacy"@6:16 = "7"@6:31"#,
            #"float "flutter.ratio"@7:18 = "1.5"@7:40"#,
            #"string "flutter.list"@8:19 = "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu![\"a\",\"b\"]"@8:33"#,
            #"set "flutter.tags"@9:16 ["x"@10:17, "y & z"@11:17]"#,
            #"null "gone"@13:17"#,
            #"string "empty"@14:19 = ""@14:26"#,
            #"string "empty2"@15:19 = ""@15:29"#,
        ])
    }

    @Test func entryModelHoldsKindsAndDecodedBytes() throws {
        let all = try entries(androidPrefsSample)
        #expect(all.map(\.entry.kind) == [.string, .boolean, .long, .int, .float, .string, .set, .null, .string, .string])
        #expect(all[0].entry == PrefsEntry(name: "flutter.token", nameOffset: 81, kind: .string))
        #expect(all[0].parts == [.name, .value(PrefsText(Array("ghp_abc".utf8), at: 96), index: nil)])
        let value = PrefsText(Array("-42".utf8), at: 200)
        #expect(all[2].entry.value == value && all[2].parts == [.name, .value(value, index: nil)])
        #expect(all[7].parts == [.name] && all[7].text == nil)
        let members = all[6].parts.compactMap { part -> [UInt8]? in
            guard case .value(let text, let index?) = part else { return nil }
            return index == 0 || index == 1 ? text.bytes : nil
        }
        #expect(members == [Array("x".utf8), Array("y & z".utf8)])
    }

    @Test func entitiesCharacterReferencesAndCDATA() {
        let text = "<map><string name=\"a&amp;b&#x27;&lt;\">1 &lt;2&gt; &quot;3&quot; &apos;4&apos; &#10;&#x1F600;&#9;&#1;<![CDATA[<raw> & &amp; ]]>end</string></map>"
        #expect(outcome(text) == [
            #"string "a&b\'<"@1:20 = "1 <2> \"3\" \'4\' \n😀\t\u{01}<raw> & &amp; end"@1:39"#,
        ])
    }

    @Test func entitiesAtEveryAlignmentAndEnd() {
        // Each predefined entity right at the end of a value and at every offset of an 8-byte word.
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"), ("&quot;", "\""), ("&apos;", "'")] {
            for padding in 0..<9 {
                let lead = String(repeating: "x", count: padding)
                let text = "<map><string name=\"a\">\(lead)\(entity)\(lead)\(entity)</string></map>"
                let decoded = try? entries(text)
                #expect(decoded?.first?.text?.bytes == Array("\(lead)\(character)\(lead)\(character)".utf8), "\(entity) after \(padding)")
            }
        }
    }

    @Test func decodedTextAndAttributesMatchAPlainDecoder() throws {
        // References, line ends and multi-byte characters in random order and number: the reader
        // writes a run down a word at a time once a reference has shortened the output, so
        // every alignment of every piece after a reference matters.
        let pieces = ["a", "a run longer than one word", "é", "😀", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#10;", "&#x1F600;",
                      "&#233;", "\r\n", "\r", "\n", "\t", "]"]
        var random = SeededGenerator(seed: 23)
        for _ in 0..<2_000 {
            func content() -> String { (0..<Int.random(in: 0..<24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
            let (name, text) = (content(), content())
            let read = try #require(try entries("<map><string name=\"\(name)\">\(text)</string></map>").first)
            #expect(Array(read.entry.name.utf8) == plainlyDecoded(name, inAttribute: true), "\(name.debugDescription)")
            #expect(read.text?.bytes ?? [] == plainlyDecoded(text, inAttribute: false), "\(text.debugDescription)")
        }
    }

    /// A tag's markup attributes are made in buffers the reader takes back: a visitor that keeps
    /// every part still holds each attribute's own name and value, whatever came after it.
    @Test func keptMarkupAttributesKeepTheirOwnTexts() throws {
        let attributes = (0..<40).map { i in (name: "a\(i)", value: String(repeating: "v", count: i) + "&amp;\(i)") }
        let tag = attributes.map { #"\#($0.name)="\#($0.value)""# }.joined(separator: " ")
        let read = try #require(try entries("<map><string name=\"k\" \(tag)>x</string></map>").first)
        let kept = read.parts.compactMap { part -> (String, String)? in
            guard case .markup(let markup) = part, markup.kind == .attribute else { return nil }
            return (String(decoding: markup.name.bytes, as: UTF8.self), String(decoding: markup.text.bytes, as: UTF8.self))
        }
        #expect(kept.map(\.0) == attributes.map(\.name))
        #expect(kept.map(\.1) == attributes.map { $0.value.replacingOccurrences(of: "&amp;", with: "&") })
    }

    /// Entry names, scalar values and texts are made in buffers the reader takes back too: a
    /// visitor that keeps every entry and part still holds each one's own bytes, however long
    /// or short the ones after it.
    @Test func keptEntriesKeepTheirOwnNamesAndValues() throws {
        let count = 24
        let name = { (i: Int) in "flutter." + String(repeating: "n", count: (i * 7) % 19) + "\(i)" }
        let text = { (i: Int) in String(repeating: "t", count: (i * 5) % 23) + "&amp;\(i)" }
        let xml = (0..<count).map { i -> String in
            switch i % 4 {
            case 0: return #"<string name="\#(name(i))">\#(text(i))</string>"#
            case 1: return #"<long name="\#(name(i))" value="\#(i * 1_000_003)" />"#
            case 2: return #"<set name="\#(name(i))"><string>\#(text(i))</string><string>\#(text(i + 1))</string></set>"#
            default: return #"<list name="\#(name(i))"><string>\#(text(i))</string></list>"#
            }
        }.joined()
        let read = try entries("<map>\(xml)</map>")
        #expect(read.map(\.entry.name) == (0..<count).map(name))
        for (i, entry) in read.enumerated() {
            let values = entry.parts.compactMap { part -> String? in
                guard case .value(let value, _) = part else { return nil }
                return String(decoding: value.bytes, as: UTF8.self)
            }
            let decoded = { (i: Int) in text(i).replacingOccurrences(of: "&amp;", with: "&") }
            switch i % 4 {
            case 0, 3: #expect(values == [decoded(i)], "\(i)")
            case 1: #expect(values == ["\(i * 1_000_003)"] && entry.entry.value.map { String(decoding: $0.bytes, as: UTF8.self) } == "\(i * 1_000_003)", "\(i)")
            default: #expect(values == [decoded(i), decoded(i + 1)], "\(i)")
            }
        }
    }

    /// Values long enough for the reader's blocks of 64 bytes (`XMLTextBlock`): JSON held in
    /// a value, its `&quot;` and the other references, line ends, multi-byte characters and `]`
    /// at every place in a block and across a block's end, written down once a reference has
    /// shortened the output; in a CDATA section the same references stay as they are.
    @Test func longValuesDecodeAsAPlainDecoderDoes() throws {
        let pieces = ["&quot;", "&quot;", "&quot;", "id", ":", ",", "a run longer than one word", "&amp;", "&lt;", "&gt;", "&apos;",
                      "&#10;", "&#x1F600;", "é", "\r\n", "\r", "\n", "\t", "]", "x"]
        var random = SeededGenerator(seed: 64)
        for _ in 0..<1_500 {
            func content() -> String {
                (0..<Int.random(in: 20..<160, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let (name, text) = (content(), content())
            let read = try #require(try entries("<map><string name=\"\(name)\">\(text)</string></map>").first)
            #expect(Array(read.entry.name.utf8) == plainlyDecoded(name, inAttribute: true), "\(name.debugDescription)")
            #expect(read.text?.bytes ?? [] == plainlyDecoded(text, inAttribute: false), "\(text.debugDescription)")
        }
        let quoted = String(repeating: "{&quot;k&quot;:1}", count: 20)
        let cdata = try #require(try entries("<map><string name=\"c\"><![CDATA[\(quoted)]]>\(quoted)</string></map>").first)
        #expect(cdata.text?.bytes == Array((quoted + String(repeating: "{\"k\":1}", count: 20)).utf8))
    }

    /// The blocks' special bytes, against a test of each byte: every byte value at every place,
    /// with later special bytes of every kind, and random blocks whole.
    @Test func blockSpecialsAreTheBytesTheReaderStopsAt() {
        TestSupport.expectFirstSpecialByte(width: 64, { block in
            let specials = XMLTextBlock.specials(block)
            return specials == 0 ? nil : specials.trailingZeroBitCount
        }, later: [0x00, 0x26, 0x3C, 0x5D, 0x1F, 0x80, 0xFF], isSpecial: isSpecialByte)
        var random = SeededGenerator(seed: 65)
        for _ in 0..<2_000 {
            let block = (0..<64).map { _ in Bool.random(using: &random) ? UInt8.random(in: 0x20...0x7F, using: &random) : UInt8.random(in: 0...255, using: &random) }
            let expected = block.indices.reduce(UInt64(0)) { mask, k in isSpecialByte(block[k]) ? mask | 1 << UInt64(k) : mask }
            #expect(block.withUnsafeBytes { XMLTextBlock.specials($0.baseAddress!) } == expected)
        }
    }

    @Test func specialByteDetectionFindsTheFirst() {
        TestSupport.expectFirstSpecialByte(width: 8, { PrefsXMLReader.firstSpecialByte($0.loadUnaligned(as: UInt64.self)) },
                                           later: [0x00, 0x26, 0x3C, 0x5D, 0x1F, 0x80, 0xFF], isSpecial: isSpecialByte)
    }

    @Test func quotesAttributeOrderAndWhitespace() {
        let text = "<map>\n<int value = '12'\n  name\t=\"n'1\"/>\n<string name='s\"q' >v</string >\n</map >"
        #expect(outcome(text) == [
            #"int "n\'1"@3:10 = "12"@2:15"#,
            #"string "s\"q"@4:15 = "v"@4:21"#,
        ])
    }

    @Test func lineEndsAndAttributeWhitespaceAreNormalisedAsXMLSays() {
        let text = "<map><string name=\"a\tb\r\nc\">x\r\ny\rz\n</string></map>"
        #expect(outcome(text) == [#"string "a b c"@1:20 = "x\ny\nz\n"@2:4"#])
    }

    @Test func emptyMapsAndEmptySets() {
        #expect(outcome("<map />") == [])
        #expect(outcome("<map></map>") == [])
        #expect(outcome("\u{FEFF}<?xml version=\"1.0\"?><map/>") == [])
        #expect(outcome("<map><set name=\"s\" /><set name=\"t\"></set><set name=\"u\"><string /></set></map>") == [
            #"set "s"@1:17 []"#,
            #"set "t"@1:33 []"#,
            #"set "u"@1:53 [""@1:66]"#,
        ])
    }

    @Test func commentsAnywhereBetweenElementsAndInsideText() {
        let text = "<?xml version='1.0'?><!-- head --><map><!-- c --><string name=\"k\">a<!-- x -->b</string><!----><int name=\"i\" value=\"1\"><!-- inside --></int></map><!-- tail -->\n"
        #expect(outcome(text) == [
            #"markup comment 0 " head "@1:26"#,
            #"markup comment 1 " c "@1:44"#,
            #"string "k"@1:64 = "ab"@1:67"#,
            #"  comment 0 " x "@1:72"#,
            #"markup comment 2 ""@1:92"#,
            #"int "i"@1:106 = "1"@1:116"#,
            #"  comment 0 " inside "@1:123"#,
            #"markup comment 3 " tail "@1:150"#,
        ])
    }

    @Test func otherXmlUtilsElementsAreReportedByTheirTexts() {
        let text = """
        <map>
          <list name="l"><string>s1</string><int value="3" /></list>
          <map name="m"><string name="k">v &amp; w</string></map>
          <int-array name="ia" num="0" />
          <byte-array name="b" num="2">0a0b</byte-array>
        </map>
        """
        #expect(outcome(text) == [
            #"other "l"@2:15 ["s1"@2:26]"#,
            #"  element entry "list"@2:4"#,
            #"  element content(0) "string"@2:19"#,
            #"  element content(1) "int"@2:38"#,
            #"  attribute content(1) "value"@2:42 = "3"@2:49"#,
            #"other "m"@3:14 ["v & w"@3:34]"#,
            #"  element entry "map"@3:4"#,
            #"  element content(0) "string"@3:18"#,
            #"  attribute content(0) "name"@3:25 = "k"@3:31"#,
            #"other "ia"@4:20 []"#,
            #"  element entry "int-array"@4:4"#,
            #"  attribute entry "num"@4:24 = "0"@4:29"#,
            #"other "b"@5:21 ["0a0b"@5:32]"#,
            #"  element entry "byte-array"@5:4"#,
            #"  attribute entry "num"@5:24 = "2"@5:29"#,
        ])
    }

    /// Every text that is no entry's name or value is markup, with its owner and position: the
    /// scanner reads it all (issue 18).
    @Test func markupEverywhereIsReported() {
        let text = """
        <!-- before -->
        <map version="2">
          <string name="a" value="v1" z='q'>t<!-- in -->u</string>
          <int extra="e" name="i" value="1" />
          <set name="s" kind="k"><string note="n">m</string><!-- s --><string /></set>
          <!-- between -->
          <list name="l" x="1"><item y="2"><!-- c -->z</item><ghp_x/></list>
        </map>
        <!-- after -->
        """
        #expect(outcome(text) == [
            #"markup comment 0 " before "@1:5"#,
            #"markup attribute entry "version"@2:6 = "2"@2:15"#,
            #"string "a"@3:17 = "tu"@3:37"#,
            #"  attribute entry "value"@3:20 = "v1"@3:27"#,
            #"  attribute entry "z"@3:31 = "q"@3:34"#,
            #"  comment 0 " in "@3:42"#,
            #"int "i"@4:24 = "1"@4:34"#,
            #"  attribute entry "extra"@4:8 = "e"@4:15"#,
            #"set "s"@5:14 ["m"@5:43, ""@5:73]"#,
            #"  attribute entry "kind"@5:17 = "k"@5:23"#,
            #"  attribute member(0) "note"@5:34 = "n"@5:40"#,
            #"  comment 0 " s "@5:57"#,
            #"markup comment 1 " between "@6:7"#,
            #"other "l"@7:15 ["z"@7:36]"#,
            #"  element entry "list"@7:4"#,
            #"  attribute entry "x"@7:18 = "1"@7:21"#,
            #"  element content(0) "item"@7:25"#,
            #"  attribute content(0) "y"@7:30 = "2"@7:33"#,
            #"  comment 0 " c "@7:40"#,
            #"  element content(1) "ghp_x"@7:55"#,
            #"markup comment 2 " after "@9:5"#,
        ])
    }

    @Test func scalarValuesAsJavaWritesThem() {
        let valid = [
            ("int", "2147483647"), ("int", "-2147483648"), ("int", "+5"),
            ("long", "9223372036854775807"), ("long", "-9223372036854775808"),
            ("float", "NaN"), ("float", "Infinity"), ("float", "-Infinity"), ("float", "1.0E10"),
            ("double", "-1.5E-5"), ("double", "0.1"), ("double", "3"), ("boolean", "false"),
        ]
        for (kind, value) in valid {
            #expect(failure("<map><\(kind) name=\"k\" value=\"\(value)\" /></map>") == nil, "\(kind) \(value)")
        }
        let invalid = [
            ("int", "2147483648"), ("int", "-2147483649"), ("int", ""), ("int", "-"), ("int", "1.0"), ("int", " 1"),
            ("long", "9223372036854775808"), ("long", "0x10"),
            ("float", "1.0f"), ("float", "1e"), ("float", "."), ("float", "nan"), ("double", "1.0E+"), ("double", "--1"),
            ("boolean", "True"), ("boolean", "1"), ("boolean", ""),
        ]
        for (kind, value) in invalid {
            let result = failure("<map><\(kind) name=\"k\" value=\"\(value)\" /></map>")
            #expect(result?.0 == .invalidValue(PrefsEntryKind(rawValue: kind)!), "\(kind) \(value)")
            #expect(result?.1 == "1:\(kind.count + 24)", "\(kind) \(value)")
        }
    }

    @Test func columnsCountUTF16UnitsAfterMultiByteText() {
        #expect(outcome("<map><string name=\"é😀\">ü</string><string name=\"b\">c</string></map>") == [
            #"string "é😀"@1:20 = "ü"@1:25"#,
            #"string "b"@1:49 = "c"@1:52"#,
        ])
    }

    // MARK: Errors

    /// Every refusal with its exact message and line:column.
    @Test(arguments: [
        ("", "no <map> element", "1:1"),
        ("  \n ", "no <map> element", "2:2"),
        ("ABX\0\u{01}\u{02}", "binary XML (ABX) is not supported", "1:1"),
        ("<?xml version='1.0'?>\n<!DOCTYPE map [<!ELEMENT map ANY>]><map/>", "DOCTYPE declarations are not allowed (no DTDs, entity definitions or external entities)", "2:1"),
        ("<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n]>\n<map><string name=\"a\">&lol2;</string></map>", "DOCTYPE declarations are not allowed (no DTDs, entity definitions or external entities)", "1:1"),
        ("<?xml version=\"1.0\"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><map><string name=\"a\">&xxe;</string></map>", "DOCTYPE declarations are not allowed (no DTDs, entity definitions or external entities)", "1:22"),
        ("<map>\n  <!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n</map>", "ENTITY declarations are not allowed", "2:3"),
        ("<map><string name=\"a\">x &xxe; y</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:25"),
        ("<map><string name=\"a&nbsp;\">x</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:21"),
        ("<map><string name=\"a\">AT&T</string></map>", "malformed entity or character reference", "1:25"),
        // Near-spellings of the predefined entities, which the reader matches as whole words.
        ("<map><string name=\"a\">&QUOT;</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:23"),
        ("<map><string name=\"a\">&quotx;</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:23"),
        ("<map><string name=\"a\">&ampx;</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:23"),
        ("<map><string name=\"a\">&ltx;</string></map>", "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)", "1:23"),
        ("<map><string name=\"a\">&quot</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">&am</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">&l</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">& b;</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">x&#xD800;</string></map>", forbiddenReference, "1:24"),
        ("<map><string name=\"a\">&#x110000;</string></map>", forbiddenReference, "1:23"),
        ("<map><string name=\"a\">&#99999999999999999999;</string></map>", forbiddenReference, "1:23"),
        ("<map><string name=\"a\">&#;</string></map>", "malformed entity or character reference", "1:23"),
        // The XML declaration, strictly: version 1.0, then encoding and standalone in that order.
        ("<?xml version='1.1'?><map/>", "malformed XML declaration", "1:16"),
        ("<?xml version='ghp_x'?><map/>", "malformed XML declaration", "1:16"),
        ("<?xml version='1.0' standalone='maybe'?><map/>", "malformed XML declaration", "1:33"),
        ("<?xml version='1.0' standalone='yes' encoding='utf-8'?><map/>", "malformed XML declaration", "1:38"),
        ("<?xml version='1.0' version='1.0'?><map/>", "malformed XML declaration", "1:21"),
        ("<?xml version='1.0'encoding='utf-8'?><map/>", "malformed XML declaration", "1:20"),
        // Processing instructions are refused wherever they stand.
        ("<map><string name=\"a\">x<?pi y?></string></map>", "processing instructions other than the XML declaration are not allowed", "1:24"),
        ("<map><set name=\"s\"><?pi?></set></map>", "processing instructions other than the XML declaration are not allowed", "1:20"),
        ("<map><set name=\"s\"><string><?pi?></string></set></map>", "processing instructions other than the XML declaration are not allowed", "1:28"),
        ("<map><int name=\"i\" value=\"1\"><?pi?></int></map>", "processing instructions other than the XML declaration are not allowed", "1:30"),
        ("<map><list name=\"l\"><a><?pi?></a></list></map>", "processing instructions other than the XML declaration are not allowed", "1:24"),
        ("<map/>\n<?pi?>", "processing instructions other than the XML declaration are not allowed", "2:1"),
        ("<map><string name=\"a\"><?xml version='1.0'?></string></map>", "the XML declaration must come first", "1:23"),
        ("<map><string name=\"a\">&#x;</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">&#12a;</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">&#X41;</string></map>", "malformed entity or character reference", "1:23"),
        ("<map><string name=\"a\">x</strin></map>", "end tag does not match the open element", "1:24"),
        ("<map><set name=\"s\"><string>x</set></map>", "end tag does not match the open element", "1:29"),
        ("<map><string name=\"a\">x</string></mapp>", "end tag does not match the open element", "1:33"),
        ("<map><list name=\"l\"><a><b></a></b></list></map>", "end tag does not match the open element", "1:27"),
        ("<map><string name=\"a\">x", "unexpected end of input inside a <string> element (which holds only text)", "1:24"),
        ("<map><string name=\"a\">x</string>", "unexpected end of input inside <map> (expected </map>)", "1:33"),
        ("<map><string name=\"a", "unexpected end of input inside a tag", "1:21"),
        ("<map><!-- x", "unexpected end of input inside a comment", "1:12"),
        ("<map><string name=\"a\"><![CDATA[x]]</string></map>", "unexpected end of input inside a CDATA section", "1:50"),
        ("<?xml version='1.0'", "unexpected end of input inside the XML declaration", "1:20"),
        ("<map><null name=\"n\">", "unexpected end of input inside a value element (which holds nothing)", "1:21"),
        ("<map><set name=\"s\">", "unexpected end of input inside a <set> element (which holds only <string> members)", "1:20"),
        ("<map><list name=\"l\"><a>", "unexpected end of input inside an element", "1:24"),
        ("<?php echo 1; ?><map/>", "processing instructions other than the XML declaration are not allowed", "1:1"),
        ("<map><?xml-stylesheet href=\"x\"?></map>", "processing instructions other than the XML declaration are not allowed", "1:6"),
        (" <?xml version='1.0'?><map/>", "the XML declaration must come first", "1:2"),
        ("<?xml version='1.0' encoding='ISO-8859-1'?><map/>", "the XML declaration names an encoding other than UTF-8", "1:31"),
        ("<?xml encoding='utf-8'?><map/>", "malformed XML declaration", "1:7"),
        ("<?xml version='1.0' bogus='1'?><map/>", "malformed XML declaration", "1:21"),
        ("hello<map/>", "unexpected text (only whitespace may appear here)", "1:1"),
        ("<map>\n  junk\n</map>", "unexpected text (only whitespace may appear here)", "2:3"),
        ("<map><int name=\"i\" value=\"1\">2</int></map>", "unexpected text (only whitespace may appear here)", "1:30"),
        ("<map><set name=\"s\">x<string>a</string></set></map>", "unexpected text (only whitespace may appear here)", "1:20"),
        ("<map><![CDATA[x]]></map>", "unexpected text (only whitespace may appear here)", "1:6"),
        ("<map/><map/>", "a second root element after </map>", "1:7"),
        ("<map></map>\n<string name=\"a\">x</string>", "a second root element after </map>", "2:1"),
        ("<map/>garbage", "unexpected content after </map>", "1:7"),
        ("<map/>\n]]>", "unexpected content after </map>", "2:1"),
        ("<map/></map>", "end tag without an open element", "1:7"),
        ("</map>", "end tag without an open element", "1:1"),
        ("<list name=\"l\"/>", "the root element is not <map>", "1:1"),
        ("<map><string>x</string></map>", "missing 'name' attribute", "1:6"),
        ("<map><int name=\"i\" /></map>", "missing 'value' attribute", "1:6"),
        ("<map><string name=\"a\" name=\"b\">x</string></map>", "duplicate attribute in a tag", "1:23"),
        ("<map><string name=\"a<b\">x</string></map>", "'<' in an attribute value", "1:21"),
        ("<map><string name=a>x</string></map>", "expected a quoted attribute value", "1:19"),
        ("<map><string name>x</string></map>", "expected '=' after an attribute name", "1:18"),
        ("<map><string name=\"a\" 1=\"x\">x</string></map>", "expected an element or attribute name", "1:23"),
        ("<map></ map>", "expected an element or attribute name", "1:8"),
        ("<map><string name=\"a\"value=\"b\">x</string></map>", "unexpected letter in markup", "1:22"),
        ("<map><string name=\"a\" / >x</string></map>", "unexpected character ' ' in markup", "1:24"),
        ("<map>< string name=\"a\">x</string></map>", "unexpected character ' ' in markup", "1:7"),
        ("<map><string name=\"a\">x ]]> y</string></map>", "']]>' in text", "1:25"),
        ("<map><!-- a -- b --></map>", "'--' inside a comment", "1:13"),
        ("<map><!-- a ---></map>", "'--' inside a comment", "1:13"),
        ("<map><!ELEMENT map ANY></map>", "unknown markup declaration after '<!'", "1:6"),
        ("<map><string name=\"a\">x<b>y</b></string></map>", "unexpected element inside a <string> element (which holds only text)", "1:24"),
        ("<map><set name=\"s\"><int value=\"1\"/></set></map>", "unexpected element inside a <set> element (which holds only <string> members)", "1:20"),
        ("<map><null name=\"n\"><x/></null></map>", "unexpected element inside a value element (which holds nothing)", "1:21"),
    ] as [(String, String, String)])
    func refusals(_ input: String, _ message: String, _ position: String) {
        #expect(outcome(input).last == "error: \(message) @\(position)", "\(input.debugDescription)")
    }

    /// Android's serializer writes control characters as `&#N;` (decimal, no leading zeros) and
    /// reads them back: that spelling alone is accepted for them. Characters XML allows may be
    /// referenced in any spelling; other code points never (issue 18).
    @Test func characterReferencesAsXMLAndAndroidAllow() {
        func decoded(_ reference: String) -> [UInt8]? {
            let text = try? entries("<map><string name=\"a\(reference)\">\(reference)</string></map>")
            guard let entry = text?.first, Array(entry.entry.name.utf8) == [UInt8(ascii: "a")] + (entry.text?.bytes ?? []) else { return nil }
            return entry.text?.bytes
        }
        for n in 0..<32 {
            #expect(decoded("&#\(n);") == [UInt8(n)], "&#\(n);")
        }
        let allowed: [(String, [UInt8])] = [
            ("&#x9;", [0x09]), ("&#009;", [0x09]), ("&#x0A;", [0x0A]), ("&#013;", [0x0D]), ("&#x20;", [0x20]), ("&#00065;", [0x41]),
            ("&#x7F;", [0x7F]), ("&#xD7FF;", [0xED, 0x9F, 0xBF]), ("&#xE000;", [0xEE, 0x80, 0x80]), ("&#xFFFD;", [0xEF, 0xBF, 0xBD]),
            ("&#x10000;", [0xF0, 0x90, 0x80, 0x80]), ("&#x10FFFF;", [0xF4, 0x8F, 0xBF, 0xBF]), ("&#1114111;", [0xF4, 0x8F, 0xBF, 0xBF]),
        ]
        for (reference, bytes) in allowed {
            #expect(decoded(reference) == bytes, "\(reference)")
        }
        let refused = [
            "&#x0;", "&#x1B;", "&#x1f;", "&#x01;", "&#00;", "&#01;", "&#027;", "&#0031;",
            "&#xD800;", "&#xDFFF;", "&#55296;", "&#57343;", "&#xFFFE;", "&#xFFFF;", "&#65534;", "&#65535;",
            "&#x110000;", "&#1114112;", "&#99999999999999999999;", "&#xFFFFFFFFFFFFFFFFFFFFFFFF;",
            // 2^32 + 9 and 2^36 + 10: would wrap around to a tab and a line feed without saturation.
            "&#4294967305;", "&#x100000009;", "&#68719476746;",
        ]
        for reference in refused {
            for (prefix, column) in [("<map><string name=\"a\">x", 24), ("<map><string name=\"a\" extra=\"x", 31)] {
                let result = failure(prefix + reference + "\"></string></map>")
                #expect(result?.0 == .invalidCharacterReference, "\(reference)")
                #expect(result?.1 == "1:\(column)", "\(reference)")
            }
        }
        #expect(failure("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?><map/>") == nil)
    }

    @Test func invalidBytes() {
        func check(_ bytes: [UInt8], _ reason: PrefsXMLReason, _ position: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let result = failure(bytes)
            #expect(result?.0 == reason, sourceLocation: sourceLocation)
            #expect(result?.1 == position, sourceLocation: sourceLocation)
        }
        let open = Array("<map><string name=\"a\">".utf8), close = Array("</string></map>".utf8)
        check(open + [0x61, 0xFF, 0x62] + close, .invalidUTF8, "1:24")
        check(open + [0xC0, 0xAF] + close, .invalidUTF8, "1:23")          // overlong '/'
        check(open + [0xED, 0xA0, 0x80] + close, .invalidUTF8, "1:23")    // encoded surrogate
        check(open + [0xE2, 0x82] + close, .invalidUTF8, "1:23")          // cut before '<'
        check(open + [0x61, 0x00] + close, .nulByte, "1:24")
        check(open + [0x07] + close, .controlCharacter, "1:23")
        check(Array("<map><string name=\"a\u{00}\">".utf8) + close, .nulByte, "1:21")
        check(Array("<map>".utf8) + [0x00] + Array("</map>".utf8), .nulByte, "1:6")
        check(Array("<map><".utf8) + [0x00], .nulByte, "1:7")
        check(Array("<map><str".utf8) + [0xFF] + Array(" name=\"a\"/></map>".utf8), .invalidUTF8, "1:10")
        check(Array("<map><!-- ".utf8) + [0xFE] + Array(" --></map>".utf8), .invalidUTF8, "1:11")
        check([0xFF, 0xFE, 0x3C, 0x00], .unsupportedEncoding("UTF-16"), "1:1")
        check([0xFE, 0xFF, 0x00, 0x3C], .unsupportedEncoding("UTF-16"), "1:1")
        check([0x3C, 0x00, 0x6D, 0x00], .nulByte, "1:2")                  // UTF-16 without a BOM
        check(Array("ABX".utf8) + [0x00], .binaryXML, "1:1")
        #expect(PrefsXMLReason.unsupportedEncoding("UTF-16").message == "UTF-16 input is not supported; prefs XML must be UTF-8")
    }

    @Test func nestingLimitOnOtherElements() {
        let deep = "<map><list name=\"l\">" + String(repeating: "<a>", count: 10) + String(repeating: "</a>", count: 10) + "</list></map>"
        #expect(failure(deep) == nil)
        #expect(failure(Array(deep.utf8), maxDepth: 8).map { "\($0.0.message) @\($0.1)" } == "elements nested deeper than the limit of 8 @1:39")
    }

    /// Every tag may hold up to `maxAttributes` attributes, which bounds the duplicate check's
    /// memory: the next one is refused at its name.
    @Test func attributeLimitOnEveryTag() {
        func failure(_ text: String) -> PrefsXMLError? {
            struct Ignore: PrefsXMLVisitor {
                mutating func entry(_ entry: PrefsEntry) {}
                mutating func part(_ part: PrefsEntryPart) {}
                mutating func endEntry() {}
                mutating func markup(_ markup: PrefsMarkup) {}
            }
            return Array(text.utf8).withUnsafeBytes { buffer in
                var reader = PrefsXMLReader(buffer, maxAttributes: 3)
                var ignore = Ignore()
                do {
                    try reader.read(&ignore)
                    return nil
                } catch {
                    return error as? PrefsXMLError
                }
            }
        }
        let three = ["<map a='' b='' c=''/>", "<map><string name='k' a='' b=''>v</string></map>",
                     "<map><set name='s'><string a='' b='' c=''/></set></map>", "<map><list name='l'><x a='' b='' c=''/></list></map>"]
        for text in three { #expect(failure(text) == nil, "\(text)") }
        let four = [("<map a='' b='' c='' d=''/>", 20), ("<map><string name='k' a='' b='' c=''>v</string></map>", 32),
                    ("<map><set name='s'><string a='' b='' c='' d=''/></set></map>", 42), ("<map><list name='l'><x a='' b='' c='' d=''/></list></map>", 38)]
        for (text, offset) in four {
            #expect(failure(text) == PrefsXMLError(.tooManyAttributes(limit: 3), at: offset), "\(text)")
        }
        #expect(PrefsXMLReason.tooManyAttributes(limit: 3).message == "a tag with more attributes than the limit of 3")
        #expect(PrefsXMLReader.defaultMaxAttributes == 1 << 20)
    }

    /// A document cut anywhere before its end tag is refused, never accepted and never a crash.
    @Test func truncatedInputAlwaysFails() {
        let rich = androidPrefsSample + "<!-- tail -->"
        let doc = Array(rich.utf8)
        let mapEnd = Array(rich.utf8).count - Array("\n<!-- tail -->".utf8).count - 1
        for cut in 0..<mapEnd {
            let result = outcome(Array(doc[..<cut]))
            #expect(result.last?.hasPrefix("error: ") == true, "cut at \(cut)")
        }
        let extras = "<map><string name='a&amp;'>&#x1F600;<![CDATA[x]]>é<!-- c --></string><list name='l'><a b='1'/></list></map>"
        let bytes = Array(extras.utf8)
        for cut in 0..<(bytes.count - 1) {
            #expect(failure(Array(bytes[..<cut])) != nil, "cut at \(cut)")
        }
    }

    // MARK: Streaming

    static let streamingDocuments: [String] = [
        androidPrefsSample,
        "\u{FEFF}<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\r\n<map>\r\n<string name=\"a&amp;b&#x27;\">1 &lt;2&gt; &#10;&#x1F600;<![CDATA[<raw> ]] & ]]>é😀</string>\r\n<!-- -a- b-c - -->\n<set name='s'><string>x</string><string/></set></map>",
        "<map><list name=\"l\"><string>s1</string><int value=\"3\" /></list><byte-array name=\"b\" num=\"2\">0a0b</byte-array></map>",
        "<map><string name=\"long\">" + String(repeating: "abcdefghij", count: 100) + "</string></map>",
        "<map><string name=\"a\">ok</string><string name=\"b\">x &xxe;</string></map>",
        "<map><string name=\"a\">ok</string><!DOCTYPE x></map>",
        "<map><string name=\"a\">x</strin></map>",
        "<map><string name=\"a\">x",
        "<map/>\n<map/>",
        "ABX\u{0}rest",
        "<?xml version='1.0'?><!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><map/>",
        "<map><int name=\"i\" value=\"99999999999\" /></map>",
    ]

    @Test(arguments: 0..<streamingDocuments.count)
    func sameResultsThroughTinyChunks(_ index: Int) {
        let data = Array(Self.streamingDocuments[index].utf8)
        let whole = outcome(data)
        #expect(!whole.isEmpty)
        if index == 1 {
            #expect(whole == [
                #"string "a&b\'"@3:15 = "1 <2> \n😀<raw> ]] & é😀"@3:30"#,
                #"markup comment 0 " -a- b-c - "@4:5"#,
                #"set "s"@5:12 ["x"@5:23, ""@5:42]"#,
            ])
        }
        for chunkSize in [1, 3, 7] {
            #expect(outcome(streamingWindow(over: data, chunkSize: chunkSize)) == whole, "document \(index), \(chunkSize)-byte chunks")
        }
    }

    @Test func invalidUTF8CutByAChunkBoundaryIsStillFound() {
        let data = Array("<map><string name=\"a\">".utf8) + [0xE2, 0x82, 0x41] + Array("</string></map>".utf8)
        for chunkSize in [1, 2, 3, 7] {
            #expect(outcome(streamingWindow(over: data, chunkSize: chunkSize)) == ["error: invalid UTF-8 @1:23"])
        }
    }

    @Test func streamingKeepsOnlyTheCurrentEntry() {
        // Many entries through a small window: memory stays bounded by the largest entry, and
        // positions late in the file are still exact.
        var text = "<map>\n"
        for k in 0..<2000 { text += "    <string name=\"k\(k)\">value \(k)</string>\n" }
        text += "</map>\n"
        let window = streamingWindow(over: Array(text.utf8), chunkSize: 64)
        let lines = outcome(window)
        #expect(lines.count == 2000)
        #expect(lines.last == #"string "k1999"@2001:19 = "value 1999"@2001:26"#)
    }
}
