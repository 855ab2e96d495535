// The XML decoder and the reader behind it: a layer is a value that opens and closes with a tag;
// read (a SharedPreferences export, read by the prefs reader, aside), every text and attribute value stands inside the
// value where the redactor rewrites it (a text up to the next tag, an attribute value between its
// quotes), elements close in order, and the paths the scan and the redactor share stay one level
// per open element.
import FuzzSupport
import AuditCore
import AuditInputs
@testable import AuditRedact

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let layer = Fuzz.decodeLayer(XMLLayerDecoder(), value)
    Fuzz.check((layer != nil) == XMLLayerDecoder.looksLikeXML(value), "a layer exactly when the value opens and closes with a tag")
    guard let layer, !XMLLayerDecoder.isSharedPreferencesExport(value) else { return 0 }
    Fuzz.check(!layer.replacesValue && layer.bytes.isEmpty, "read where it stands, and scanned as text too")
    var reader = XMLReader(window: ByteWindow(whole: value))
    var visitor = Visitor(value: value.bindMemory(to: UInt8.self))
    do {
        try reader.read(&visitor)
        Fuzz.check(visitor.depth == 0 && visitor.sawElement, "a read document closes every element it opens")
    } catch {
        // Not XML after all: the scan forgets the layer and reads the value as text.
    }
    return 0
}

private struct Visitor: XMLVisitor {
    let value: UnsafeBufferPointer<UInt8>
    var paths = XMLPaths(root: LayeredPath().entering("xml"))
    var depth = 0
    var sawElement = false

    mutating func startElement(_ tag: XMLStartTag) throws {
        let path = paths.enter(tag.name)
        depth += 1
        sawElement = true
        Fuzz.check(path.layers.last?.tokens.count == depth, "one path token per open element")
        Fuzz.check(value[tag.offset] == UInt8(ascii: "<"), "a start tag opens with <")
        for attribute in tag.attributes {
            let offset = attribute.value.offset
            Fuzz.check(offset >= 1 && offset <= value.count, "an attribute value inside the value")
            let quote = value[offset - 1]
            Fuzz.check(quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"), "an attribute value follows its quote")
            let end = value[offset...].firstIndex(of: quote)
            Fuzz.check(end != nil && attribute.value.bytes.count <= end! - offset, "its closing quote follows, and decoding never lengthens it")
        }
    }

    mutating func endElement() throws {
        paths.leave()
        depth -= 1
        Fuzz.check(depth >= 0, "no element closes twice")
    }

    mutating func text(_ text: PrefsText) throws {
        Fuzz.check(depth > 0 && paths.text != nil, "text inside an element")
        let range = XMLDocumentRedactor.textRange(of: text, in: value)
        Fuzz.check(range.contains(text.offset) && range.upperBound <= value.count, "a text's run holds it and ends inside the value")
        let opensRun = range.lowerBound > 0 && value[range.lowerBound - 1] == UInt8(ascii: ">")
            || value[range.lowerBound...].starts(with: "<![CDATA[".utf8)
        Fuzz.check(opensRun, "the run the redactor rewrites starts after a tag or at a CDATA section")
    }

    mutating func comment(_ text: PrefsText) throws {
        Fuzz.check(text.offset + text.bytes.count <= value.count, "a comment inside the value")
    }
}
