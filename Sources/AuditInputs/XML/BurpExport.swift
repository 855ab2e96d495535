import AuditCore

/// Burp Suite's XML export of items (Proxy history or Target site map, "Save items"): a root
/// `<items burpVersion="…">`, an `<item>` a call, its `<request>` and `<response>` the messages
/// as sent, base64-encoded (`base64="true"`, Burp's default) or as they are. What the scan and
/// the redactor need to know of it, and their walk through it (`Walk`).
public enum BurpExport {
    /// Where a reader of an XML document is in a Burp Suite export, element by element: the item
    /// open, and the message open in it. The scan and the redactor walk an export alike.
    public struct Walk {
        /// The open elements; the root's depth is 1.
        private var depth = 0
        /// Whether the document's root starts an export.
        private var isExport = false
        /// The open item's path.
        public private(set) var item: LayeredPath?
        /// The message open in the item, and whether it is base64.
        public private(set) var message: (side: HTTPSide, isBase64: Bool)?

        /// What an element's start begins.
        public enum Start { case item, message(HTTPSide, isBase64: Bool) }

        public init() {}

        /// An element opens at `path`.
        public mutating func enter(_ tag: XMLStartTag, path: LayeredPath) -> Start? {
            depth += 1
            if depth == 1 { isExport = BurpExport.isExport(root: tag) }
            guard isExport else { return nil }
            if depth == 2 {
                item = tag.name.elementsEqual("item".utf8) ? path : nil
                return item == nil ? nil : .item
            }
            guard depth == 3, item != nil else { return nil }
            message = BurpExport.message(tag).map { ($0, BurpExport.isBase64(tag)) }
            return message.map { .message($0.side, isBase64: $0.isBase64) }
        }

        /// An element closes: the path of the item it ends, if it ends one.
        public mutating func leave() -> LayeredPath? {
            defer { depth -= 1 }
            if depth == 3 { message = nil }
            guard depth == 2, let ended = item else { return nil }
            item = nil
            return ended
        }
    }

    /// Whether a document's root element starts a Burp Suite export.
    private static func isExport(root tag: XMLStartTag) -> Bool {
        tag.name.elementsEqual("items".utf8) && tag.attributes.contains { $0.name.elementsEqual("burpVersion".utf8) }
    }

    /// Whether an element at an item's children's level is one of the item's messages, and which.
    private static func message(_ tag: XMLStartTag) -> HTTPSide? {
        tag.name.elementsEqual("request".utf8) ? .request : tag.name.elementsEqual("response".utf8) ? .response : nil
    }

    /// Whether a message is base64-encoded (`base64="true"`; Burp's DTD says "false" when absent).
    private static func isBase64(_ tag: XMLStartTag) -> Bool {
        tag.attributes.contains { $0.name.elementsEqual("base64".utf8) && $0.value.bytes.elementsEqual("true".utf8) }
    }
}
