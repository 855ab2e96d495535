import AuditCore
import AuditInputs

/// The items of a Burp Suite export (`BurpExport`), as the XML scan reads them. An item's two
/// messages are read as one raw HTTP exchange in a layer at the item (`/items/item[2]!http/…`),
/// so that the response is judged with its request (a sync call's context, the sign-in's token
/// response), each part reported at its message's element. The item's other elements (its URL,
/// host, comment) are read as any XML's are. In an export that is the input, an item is one
/// document, as an exchange of a raw HTTP file is: a secret in several of its places is one
/// finding, the hits wait for its end and no longer (`--max-document-hits` counts an item's),
/// and the text report counts a secret repeated across items as across requests.
struct BurpExportItems {
    /// A message of the open item, as written, and its text's path.
    private struct Message {
        var text: PrefsText
        var isBase64: Bool
        var path: LayeredPath
    }

    /// Where the reader is in the export (nowhere in a document that is none).
    private var walk = BurpExport.Walk()
    /// The open item's messages so far.
    private var request: Message?
    private var response: Message?

    /// An element opens at `path`.
    mutating func startElement(_ tag: XMLStartTag, path: LayeredPath) {
        switch walk.enter(tag, path: path) {
        case .item?:
            (request, response) = (nil, nil)
        case .message(let side, let isBase64)?:
            let message = Message(text: PrefsText([], at: tag.offset), isBase64: isBase64, path: path.appending(.key("text()")))
            if side == .request { request = message } else { response = message }
        case nil:
            break
        }
    }

    /// A text node: kept when it is an open message's (true), for the item's end.
    mutating func keep(_ text: PrefsText) -> Bool {
        guard let side = walk.message?.side else { return false }
        func add(to message: inout Message?) {
            guard var kept = message else { return }
            // The first text shared with the reader, not copied; a message of several (a comment
            // between them) joined.
            if kept.text.bytes.isEmpty { kept.text = text } else { kept.text.bytes += text.bytes }
            message = kept
        }
        if side == .request { add(to: &request) } else { add(to: &response) }
        return true
    }

    /// An element closes: at an item's end, its messages are read.
    mutating func endElement(scan: ArtifactScan, frame: LayerFrame) {
        guard let item = walk.leave() else { return }
        scanItem(at: item, scan: scan, frame: frame)
        (request, response) = (nil, nil)
        // In a layer the items are the outer document's, which is not over.
        if frame.outerOffset == nil { scan.finishDocument(defaultContext: .payload, isRequest: true) }
    }

    /// The item's messages, decoded and joined, read as raw HTTP; a message that is not base64
    /// though marked so, or messages the HTTP reader refuses, are input errors and scanned as
    /// text.
    private func scanItem(at path: LayeredPath, scan: ArtifactScan, frame: LayerFrame) {
        var bytes: [UInt8] = []
        var read: [(bytes: Range<Int>, message: Message)] = []
        for message in [request, response].compactMap({ $0 }) where !message.text.bytes.isEmpty {
            var decoded = message.text.bytes
            if message.isBase64 {
                switch Base64LayerDecoder.decodeForced(message.text.bytes, maxBytes: Base64LayerDecoder.maxDecodedBytes) {
                case .success(let data):
                    decoded = data
                case .failure(let error):
                    let isLimit = if case .tooLarge = error { true } else { false }
                    scan.fail(isLimit ? .limit : .parse, at: frame.outerOffset ?? message.text.offset,
                              "a Burp Suite item's message marked base64 cannot be decoded (\(error.message)): it is only scanned as text")
                    scanAsText(message.text.bytes, message, scan: scan, frame: frame)
                    continue
                }
            }
            // A request body without a length runs to the next message: the response starts a line.
            if !bytes.isEmpty && bytes.last != 0x0A { bytes += [0x0D, 0x0A] }
            read.append((bytes.count..<bytes.count + decoded.count, message))
            bytes += decoded
        }
        guard !read.isEmpty else { return }
        let pieces = read.map { (start: $0.bytes.lowerBound, outerOffset: frame.outerOffset ?? $0.message.text.offset) }
        let layer = LayerFrame(path: path.entering("http"), outerOffset: pieces[0].outerOffset, outerKey: nil, ancestry: frame.ancestry,
                               depth: frame.depth + 1, readerContext: frame.readerContext, carrier: frame.carrier,
                               isProtocolField: frame.isProtocolField)
        if !bytes.withUnsafeBytes({ scan.scanHTTPLayer($0, frame: layer, pieces: pieces) }) {
            for (range, message) in read { scanAsText(Array(bytes[range]), message, scan: scan, frame: frame) }
        }
    }

    /// A message's bytes scanned with the pattern rules, at its element.
    private func scanAsText(_ bytes: [UInt8], _ message: Message, scan: ArtifactScan, frame: LayerFrame) {
        _ = bytes.withUnsafeBytes { bytes in
            scan.scanPatterns(bytes, offset: frame.outerOffset ?? message.text.offset) { frame.location(key: nil, at: message.path) }
        }
    }
}
