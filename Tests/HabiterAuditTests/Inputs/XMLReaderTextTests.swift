@testable import AuditInputs
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The XML reader's text and attribute values, which it appends a run of plain bytes at a time,
/// against Foundation's XML parser on random documents: references, CDATA sections, line ends,
/// tabs and UTF-8 between the runs.
@Suite struct XMLReaderTextTests {
    /// What Foundation's parser reads: the root's text (character data and CDATA joined) and its
    /// attribute `a`.
    private final class FoundationRead: NSObject, XMLParserDelegate {
        var text = ""
        var attribute: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            attribute = attributes["a"]
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }
    }

    /// What this reader reads of the same document.
    private struct Read: XMLVisitor {
        var text = ""
        var attribute: String?

        mutating func startElement(_ tag: XMLStartTag) throws {
            attribute = tag.attributes.first { $0.name == Array("a".utf8) }.map { String(decoding: $0.value.bytes, as: UTF8.self) }
        }

        mutating func endElement() throws {}
        mutating func text(_ text: PrefsText) throws { self.text += String(decoding: text.bytes, as: UTF8.self) }
        mutating func comment(_ text: PrefsText) throws {}
    }

    @Test func textAndAttributesReadAsFoundationReadsThem() throws {
        let pieces = ["a", "Zq4vN8pL2wR7", "&amp;", "&lt;", "&gt;", "&quot;", "&#x41;", "&#233;", "é", "日本", "\r\n", "\n", "\t", " ", "]", "]]", "-", "=", "/"]
        var generator = SystemRandomNumberGenerator()
        func random(_ count: Int) -> String { (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        for round in 0..<300 {
            let text = random(Int.random(in: 0...40, using: &generator))
            // Foundation (libxml2) keeps a CR LF in a CDATA section where XML reads a LF, as this reader does.
            let cdata = random(Int.random(in: 0...8, using: &generator)).replacingOccurrences(of: "]]", with: "] ]").replacingOccurrences(of: "\r\n", with: "\n")
            let attribute = random(Int.random(in: 0...20, using: &generator))
            let document = "<r a=\"\(attribute)\">\(text)<![CDATA[\(cdata)]]>\(text)</r>"
            let foundation = FoundationRead()
            let parser = XMLParser(data: Data(document.utf8))
            parser.delegate = foundation
            guard parser.parse() else { continue }  // a piece such as `]]>` Foundation refuses too
            var reader = XMLReader(window: ByteWindow(copying: Array(document.utf8)))
            var read = Read()
            try reader.read(&read)
            // A text of whitespace alone is no text node to this reader.
            let expected = foundation.text.utf8.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) } ? "" : foundation.text
            let (ours, theirs) = (Array(read.text.utf8), Array(expected.utf8))
            let first = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] } ?? min(ours.count, theirs.count)
            #expect(ours == theirs, "round \(round): the text differs at byte \(first): \(ours[first...].prefix(8).map { $0 }) against \(theirs[first...].prefix(8).map { $0 })")
            #expect(read.attribute == foundation.attribute, "round \(round): the attribute")
        }
    }
}
