/// Reads one HAR 1.2 entry (`log.entries[i]`), leniently about what exporters omit, into an
/// `HTTPExchange`, and says which of its values the exchange took over so that the rest of the
/// entry can be scanned as plain JSON.
enum HAREntry {
    /// The exchange, and the offsets of the entry's values it holds.
    static func exchange(from entry: JSONValue.Node, path: LayeredPath) -> (exchange: HTTPExchange, taken: Set<Int>) {
        var exchange = HTTPExchange()
        var taken = Set<Int>()
        let request = entry.value["request"]
        let response = entry.value["response"]
        let requestPath = path.appending(.key("request"))
        let responsePath = path.appending(.key("response"))

        exchange.method = request?["method"]?.stringValue
        if let url = member(request, "url"), case .string(let text) = url.value {
            exchange.url = HTTPExchange.Text(bytes: Array(text.utf8), offset: url.offset, path: requestPath.appending(.key("url")))
            taken.insert(url.offset)
        }
        exchange.queryString = fields(member(request, "queryString"), path: requestPath.appending(.key("queryString")), taken: &taken)
        exchange.request.headers = fields(member(request, "headers"), path: requestPath.appending(.key("headers")), taken: &taken)
        exchange.request.cookies = fields(member(request, "cookies"), path: requestPath.appending(.key("cookies")), taken: &taken)
        if let postData = member(request, "postData") {
            let postPath = requestPath.appending(.key("postData"))
            exchange.request.params = fields(member(postData.value, "params"), path: postPath.appending(.key("params")), taken: &taken)
            if let text = member(postData.value, "text"), case .string(let body) = text.value {
                exchange.request.body = HTTPExchange.Body(bytes: Array(body.utf8), offset: text.offset, path: postPath.appending(.key("text")),
                                                          mimeType: postData.value["mimeType"]?.stringValue)
                taken.insert(text.offset)
            }
        }

        exchange.response.headers = fields(member(response, "headers"), path: responsePath.appending(.key("headers")), taken: &taken)
        exchange.response.cookies = fields(member(response, "cookies"), path: responsePath.appending(.key("cookies")), taken: &taken)
        if let content = member(response, "content"), let text = member(content.value, "text"), case .string(let body) = text.value {
            exchange.response.body = HTTPExchange.Body(
                bytes: Array(body.utf8), offset: text.offset,
                path: responsePath.appending(.key("content")).appending(.key("text")),
                mimeType: content.value["mimeType"]?.stringValue,
                base64: content.value["encoding"]?.stringValue?.lowercased() == "base64")
            taken.insert(text.offset)
        }
        if let redirect = member(response, "redirectURL"), case .string(let text) = redirect.value, !text.isEmpty {
            exchange.redirectURL = HTTPExchange.Text(bytes: Array(text.utf8), offset: redirect.offset, path: responsePath.appending(.key("redirectURL")))
            taken.insert(redirect.offset)
        }

        if let frames = member(entry.value, "_webSocketMessages")?.value.arrayElements {
            let framesPath = path.appending(.key("_webSocketMessages"))
            for (i, frame) in frames.enumerated() {
                guard let data = member(frame.value, "data"), case .string(let text) = data.value else { continue }
                let binary = frame.value["opcode"]?.doubleValue == 2
                exchange.webSocketMessages.append(HTTPExchange.Body(
                    bytes: Array(text.utf8), offset: data.offset, path: framesPath.appending(.index(i)).appending(.key("data")),
                    mimeType: nil, base64: binary))
                taken.insert(data.offset)
            }
        }
        return (exchange, taken)
    }

    /// The member `key` of an object node, with its offset.
    private static func member(_ object: JSONValue?, _ key: String) -> JSONValue.Node? {
        object?.objectMembers?.last(where: { $0.key == key })?.value
    }

    /// `[{"name": …, "value": …}, …]` as fields; each value's offset is taken.
    private static func fields(_ list: JSONValue.Node?, path: LayeredPath, taken: inout Set<Int>) -> [HTTPExchange.Field] {
        guard let elements = list?.value.arrayElements else { return [] }
        var result: [HTTPExchange.Field] = []
        for (i, element) in elements.enumerated() {
            guard let name = element.value["name"]?.stringValue, let value = member(element.value, "value") else { continue }
            let text: String
            switch value.value {
            case .string(let s): text = s
            case .number(let n): text = n
            case .bool(let b): text = b ? "true" : "false"
            default: continue
            }
            result.append(HTTPExchange.Field(name: name, value: Array(text.utf8), offset: value.offset,
                                             path: path.appending(.index(i)).appending(.key("value"))))
            taken.insert(value.offset)
        }
        return result
    }
}
