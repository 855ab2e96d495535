/// Burp Suite's XML export of items (Proxy history or Target site map, "Save items"): a root
/// `<items burpVersion="…">`, an `<item>` a call, its `<request>` and `<response>` the messages
/// as sent, base64-encoded (`base64="true"`, Burp's default) or as they are. What the scan and
/// the redactor need to know of it.
public enum BurpExport {
    /// Whether a document's root element starts a Burp Suite export.
    public static func isExport(root tag: XMLStartTag) -> Bool {
        tag.name.elementsEqual("items".utf8) && tag.attributes.contains { $0.name.elementsEqual("burpVersion".utf8) }
    }

    /// Whether an element at an item's children's level is one of the item's messages, and which.
    public static func message(_ tag: XMLStartTag) -> HTTPSide? {
        tag.name.elementsEqual("request".utf8) ? .request : tag.name.elementsEqual("response".utf8) ? .response : nil
    }

    /// Whether a message is base64-encoded (`base64="true"`; Burp's DTD says "false" when absent).
    public static func isBase64(_ tag: XMLStartTag) -> Bool {
        tag.attributes.contains { $0.name.elementsEqual("base64".utf8) && $0.value.bytes.elementsEqual("true".utf8) }
    }
}
