/// Whether the first bytes of an input whose name claims no format read as the structured format
/// they look like. Content is the claim then: a README that starts with `[`, a `.tsx` file that
/// starts with `"use client";`, an HTML page that starts with `<` are text, not broken JSON or
/// XML. Only the first `length` bytes are read, so an input judged structured and broken further
/// on is an error, as a claimed one is.
enum StructureSniff {
    /// How much of the input is read to judge it.
    static let length = 1 << 20

    /// Whether `bytes` (the first bytes of the input; `truncated` when more follow) hold, from
    /// `start`, a JSON value (then, one per line, NDJSON documents), or with `jsonp` a value and the
    /// end of a JSONP call.
    static func readsAsJSON(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, truncated: Bool, jsonp: Bool) -> Bool {
        let window = ByteWindow(whole: UnsafeRawBufferPointer(bytes))
        var ignore = IgnoringVisitor()
        var reader = JSONReader(window: window, start: start)
        do {
            try reader.readValue(&ignore)
            let valueEnd = reader.position
            if jsonp { try reader.skipJSONPClosing() } else { try reader.skipWhitespace() }
            if reader.atEnd { return true }
            guard !jsonp, !bytes[start..<valueEnd].contains(0x0A) else { return false }
            var lineStart = reader.position
            while lineStart < bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
                var line = JSONReader(window: window, start: lineStart, limit: lineEnd)
                try line.skipWhitespace()
                if !line.atEnd {
                    do {
                        try line.readValue(&ignore)
                        try line.skipWhitespace()
                        if !line.atEnd { return false }
                    } catch where truncated && lineEnd == bytes.count {
                        return true
                    }
                }
                lineStart = lineEnd + 1
            }
            return true
        } catch {
            return isCut(error, truncated: truncated, count: bytes.count)
        }
    }

    enum XMLVerdict { case xml, refused, notXML }

    /// Whether `bytes` read as XML: `refused` when they declare what no XML reader here accepts
    /// (an internal DTD subset, an entity), which is an error however the input is named.
    static func readsAsXML(_ bytes: UnsafeBufferPointer<UInt8>, truncated: Bool) -> XMLVerdict {
        var reader = XMLReader(window: ByteWindow(whole: UnsafeRawBufferPointer(bytes)))
        var ignore = IgnoringVisitor()
        do {
            try reader.read(&ignore)
            return .xml
        } catch let error as PrefsXMLError where error.reason == .doctypeInternalSubset || error.reason == .entityDeclaration {
            return .refused
        } catch {
            return isCut(error, truncated: truncated, count: bytes.count) ? .xml : .notXML
        }
    }

    /// An error this near the end of a cut prefix may be the cut (a token, a UTF-8 sequence).
    private static func isCut(_ error: Error, truncated: Bool, count: Int) -> Bool {
        guard truncated else { return false }
        let offset = (error as? JSONSyntaxError)?.offset ?? (error as? PrefsXMLError)?.offset ?? 0
        return offset >= count - 4
    }

    private struct IgnoringVisitor: JSONVisitor, XMLVisitor {
        func objectStart(at offset: Int) {}
        func objectEnd(at offset: Int) {}
        func arrayStart(at offset: Int) {}
        func arrayEnd(at offset: Int) {}
        func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
        func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
        func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {}
        func literal(_ value: JSONLiteral, at offset: Int) {}
        func startElement(_ tag: XMLStartTag) {}
        func endElement() {}
        func text(_ text: PrefsText) {}
        func comment(_ text: PrefsText) {}
    }
}
