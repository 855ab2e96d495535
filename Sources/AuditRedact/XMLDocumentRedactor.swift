import AuditCore
import AuditInputs

/// Redacts an XML document that is not a SharedPreferences export (an XML input; XML held in a
/// string or carried as a body, `!xml`) in place: only the text, attribute values and comments
/// the plan names are rewritten, escaped as `PrefsXMLRedactor` escapes them, at the scanner's
/// paths (`XMLPaths`). A secret in an element or attribute name cannot be replaced in place (a
/// placeholder is no XML name): it is left, noted, and the verification scan refuses the copy.
/// A Burp Suite export's messages, which the scan reads as one exchange at their item
/// (`/items/item[2]!http/…`), are rewritten each on its own as a raw HTTP message is, and
/// base64-encoded again where they were.
struct XMLDocumentRedactor {
    /// Redacts `text`; nil when nothing changes. Throws the reader's error when `text` is not
    /// well-formed XML.
    static func redact(_ text: [UInt8], root: LayeredPath, session: RedactionSession) throws -> [UInt8]? {
        try text.withUnsafeBytes { buffer -> [UInt8]? in
            var reader = XMLReader(window: ByteWindow(whole: buffer))
            var visitor = Visitor(session: session, input: buffer.bindMemory(to: UInt8.self), paths: XMLPaths(root: root))
            try reader.read(&visitor)
            return visitor.edits.isEmpty ? nil : visitor.edits.applied(to: buffer.bindMemory(to: UInt8.self))
        }
    }

    /// The bytes of the text run `text` was read from: from its first byte, or from the `<![CDATA[`
    /// that opens the run (the reader places a text there at the section's content), up to the
    /// next tag. Replaced whole, a section and a comment inside become escaped text.
    static func textRange(of text: PrefsText, in input: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let opener = Array("<![CDATA[".utf8)
        var start = text.offset
        if start >= opener.count && input[(start - opener.count)..<start].elementsEqual(opener) { start -= opener.count }
        return start..<PrefsXMLRedactor.textEnd(in: input, from: start)
    }

    private struct Visitor: XMLVisitor {
        let session: RedactionSession
        let input: UnsafeBufferPointer<UInt8>
        var paths: XMLPaths
        var edits = ByteEdits()
        /// Where the reader is in a Burp Suite export, walked as the scan walks it.
        var burp = BurpExport.Walk()

        mutating func startElement(_ tag: XMLStartTag) throws {
            let path = paths.enter(tag.name)
            _ = burp.enter(tag, path: path)
            guard session.plan.leadsSomewhere(path) else { return }
            if session.plan.node(at: path)?.isTarget == true { session.noteProblem("a secret in an element name at \(path) cannot be replaced in place") }
            for attribute in tag.attributes {
                let attributePath = XMLPaths.attribute(attribute.name, of: path)
                guard session.plan.node(at: attributePath) != nil, !attribute.value.bytes.isEmpty,
                      let redacted = session.redactValue(attribute.value.bytes, at: attributePath) else { continue }
                let offset = attribute.value.offset
                let end = input[offset...].firstIndex(of: input[offset - 1]) ?? input.count
                edits.replace(offset..<end, with: PrefsXMLRedactor.escape(redacted, inAttribute: true))
            }
        }

        mutating func endElement() throws {
            paths.leave()
            _ = burp.leave()
        }

        mutating func text(_ text: PrefsText) throws {
            if let message = burp.message, let item = burp.item {
                return redactBurpMessage(text, layer: item.entering("http"), isBase64: message.isBase64)
            }
            guard let path = paths.text, session.plan.node(at: path) != nil,
                  let redacted = session.redactValue(text.bytes, at: path) else { return }
            edits.replace(XMLDocumentRedactor.textRange(of: text, in: input), with: PrefsXMLRedactor.escape(redacted))
        }

        /// A Burp Suite item's message: decoded, rewritten as raw HTTP, encoded again.
        private mutating func redactBurpMessage(_ text: PrefsText, layer: LayeredPath, isBase64: Bool) {
            guard session.plan.leadsSomewhere(layer) else { return }
            let style = Base64Style(of: text.bytes)
            guard let message = isBase64 ? style.decode(text.bytes) : text.bytes else {
                return session.noteProblem("the Burp Suite message at \(layer) could not be decoded again")
            }
            do {
                guard let redacted = try HTTPMessageRedactor.redact(message, root: layer, session: session) else { return }
                edits.replace(XMLDocumentRedactor.textRange(of: text, in: input), with: PrefsXMLRedactor.escape(isBase64 ? style.encode(redacted) : redacted))
            } catch {
                session.noteProblem("the Burp Suite message at \(layer) could not be read again")
            }
        }

        mutating func comment(_ text: PrefsText) throws {
            let path = paths.comment
            guard session.plan.node(at: path) != nil, let redacted = session.redactValue(text.bytes, at: path) else { return }
            // A comment (or a processing instruction) holds no references: the text is written
            // as it is, if it can be.
            guard PrefsXMLRedactor.isCommentText(redacted) else {
                return session.noteProblem("the redacted comment at \(path) would not be a comment")
            }
            edits.replace(text.offset..<text.offset + text.bytes.count, with: redacted)
        }
    }
}
