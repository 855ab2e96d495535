import AuditCore
import AuditInputs

/// Redacts raw HTTP messages (`.http` files, proxy saves, `curl -v` dumps) in place, keeping
/// their framing: a redacted header name or value, URL, note, comment or other text part is
/// rewritten where it stands (a folded value on one line); a changed body gets a corrected
/// `Content-Length`, and a chunked body is written as valid chunked encoding again (the original
/// chunk boundaries kept where the body did not change). Paths are the scanner's:
/// `/entries/<n>/request/headers/<i>/value`, `…/postData/text!json/…`.
struct HTTPMessageRedactor: HTTPMessageVisitor {
    static func redact(_ input: [UInt8], root: LayeredPath, session: RedactionSession) throws -> [UInt8]? {
        try input.withUnsafeBytes { buffer -> [UInt8]? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let window = ByteWindow(whole: buffer)
            var reader = HTTPMessageReader(window: window, start: 0)
            var redactor = HTTPMessageRedactor(session: session, root: root, input: bytes, window: window)
            while try reader.nextExchange(&redactor) {
                if let truncation = reader.truncation { throw truncation }
                window.unpin()
            }
            return redactor.edits.isEmpty ? nil : redactor.edits.applied(to: bytes)
        }
    }

    let session: RedactionSession
    let root: LayeredPath
    let input: UnsafeBufferPointer<UInt8>
    let window: ByteWindow
    var edits = ByteEdits()

    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) {
        redact(bytes, at: text.path(under: root), range: text.range)
    }

    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        // A name stays a token (`-REDACTED-github-token-`), so that the message still reads.
        redact(name, at: field.namePath(under: root), range: field.nameRange) { byte in
            field.list == .variables || HTTPMessageReader.isTokenByte(byte) ? byte : UInt8(ascii: "-")
        }
        redact(value, at: field.valuePath(under: root), range: field.valueRange)
    }

    private mutating func redact(_ bytes: UnsafeRawBufferPointer, at path: LayeredPath, range: Range<Int>, _ map: (UInt8) -> UInt8 = { $0 }) {
        guard session.plan.node(at: path) != nil, let redacted = session.redactValue(Array(bytes), at: path) else { return }
        edits.replace(range, with: redacted.map(map))
    }

    mutating func exchange(_ exchange: HTTPExchange) {
        for message in [exchange.request, exchange.response].compactMap({ $0 }) {
            guard let body = message.body else { continue }
            let path = body.path(exchange: exchange.index, under: root)
            guard session.plan.node(at: path) != nil else { continue }
            let old = body.withBytes(in: window) { Array($0) }
            guard let redacted = session.redactValue(old, at: path) else { continue }
            switch body.bytes {
            case .input(let range):
                edits.replace(range, with: redacted)
                for length in message.contentLengths { edits.replace(length, with: Array(String(redacted.count).utf8)) }
            case .decoded:
                if let chunked = ChunkedBody(input, at: body.offset) {
                    edits.replace(body.offset..<chunked.lastChunkStart, with: chunked.reencode(old: old, new: redacted))
                } else {
                    session.noteProblem("the body at \(path) is neither in place nor chunked; it was not rewritten")
                }
            }
        }
    }
}
