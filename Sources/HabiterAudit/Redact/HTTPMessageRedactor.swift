/// Redacts raw HTTP messages (`.http` files, proxy saves, `curl -v` dumps) in place, keeping
/// their framing: a redacted header value, URL or note line is rewritten where it stands; a
/// changed body gets a corrected `Content-Length`, and a chunked body is written as valid
/// chunked encoding again (the original chunk boundaries kept where the body did not change).
/// Paths are the scanner's: `/entries/<n>/request/headers/<i>/value`, `…/postData/text!json/…`.
struct HTTPMessageRedactor {
    static func redact(_ input: [UInt8], root: LayeredPath, session: RedactionSession) throws -> [UInt8]? {
        try input.withUnsafeBytes { buffer -> [UInt8]? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let window = ByteWindow(whole: buffer)
            var reader = HTTPMessageReader(window: window, start: 0, rootPath: root)
            var redactor = HTTPMessageRedactor(session: session, input: bytes)
            while let exchange = try reader.nextExchange() {
                if let truncation = reader.truncation { throw truncation }
                redactor.redact(exchange)
                window.unpin()
            }
            return redactor.edits.isEmpty ? nil : redactor.edits.applied(to: bytes)
        }
    }

    let session: RedactionSession
    let input: UnsafeBufferPointer<UInt8>
    var edits = ByteEdits()

    private mutating func redact(_ exchange: HTTPExchange) {
        for note in exchange.notes { redact(note) }
        if let url = exchange.url { redact(url) }
        redact(exchange.request)
        redact(exchange.response)
    }

    private mutating func redact(_ text: HTTPExchange.Text) {
        guard session.plan.node(at: text.path) != nil, let redacted = session.redactValue(text.bytes, at: text.path) else { return }
        edits.replace(text.offset..<text.offset + text.bytes.count, with: redacted)
    }

    private mutating func redact(_ message: HTTPExchange.Message) {
        for header in message.headers {
            guard session.plan.node(at: header.path) != nil, let redacted = session.redactValue(header.value, at: header.path) else { continue }
            edits.replace(rawRange(of: header), with: redacted)
        }
        guard let body = message.body, session.plan.node(at: body.path) != nil,
              let redacted = session.redactValue(body.bytes, at: body.path) else { return }
        let end = body.offset + body.bytes.count
        if end <= input.count && input[body.offset..<end].elementsEqual(body.bytes) {
            edits.replace(body.offset..<end, with: redacted)
            for header in message.headers where header.name.lowercased() == "content-length" {
                edits.replace(rawRange(of: header), with: Array(String(redacted.count).utf8))
            }
        } else if let chunked = ChunkedBody(input, at: body.offset) {
            edits.replace(body.offset..<chunked.lastChunkStart, with: chunked.reencode(old: body.bytes, new: redacted))
        } else {
            session.noteProblem("the body at \(body.path) is neither in place nor chunked; it was not rewritten")
        }
    }

    /// The bytes a header value spans as written: its own line, and the continuation lines of
    /// an obsolete line folding (a folded value is written back on one line).
    private func rawRange(of field: HTTPExchange.Field) -> Range<Int> {
        let simpleEnd = field.offset + field.value.count
        if simpleEnd <= input.count && input[field.offset..<simpleEnd].elementsEqual(field.value) {
            return field.offset..<simpleEnd
        }
        func lineEnd(from start: Int) -> (content: Int, next: Int) {
            var i = start
            while i < input.count && input[i] != 0x0A { i += 1 }
            let content = i > start && input[i - 1] == 0x0D ? i - 1 : i
            return (content, min(i + 1, input.count))
        }
        var (end, next) = lineEnd(from: field.offset)
        while next < input.count && (input[next] == 0x20 || input[next] == 0x09) {
            (end, next) = lineEnd(from: next)
        }
        return field.offset..<end
    }
}
