import AuditBytes
import AuditCore

/// Reads mitmproxy's flow files (`mitmdump -w FILE`, the console's and web UI's "save"): one
/// tnetstring dictionary a flow (`TNetString`), back to back. Each flow is one exchange for an
/// `HTTPMessageVisitor`, as a raw HTTP exchange is, with paths as in a HAR entry: the request's
/// method, path (as `url`), host and version, the status's reason, headers and trailers, and
/// the bodies as mitmproxy stores them, as they were sent (`Content-Encoding` still applied).
///
/// Every other text of a flow reaches the visitor too, where it sits: WebSocket messages as
/// `_webSocketMessages/<i>/data` (as mitmproxy's HAR export names them), TCP and UDP messages as
/// `messages/<i>/content`, and the rest (comments, metadata, errors, connections' names and
/// certificates, a DNS flow's names) by their keys. A key mitmproxy does not write stands in a
/// path by its place (`metadata/0`), as it could be anything, and is scanned itself.
public struct MitmproxyFlowReader: ExchangeReader {
    let window: ByteWindow
    private var next: Int
    private var flowIndex = 0
    private let maxDepth: Int

    public init(window: ByteWindow, start: Int, maxDepth: Int) {
        self.window = window
        next = start
        self.maxDepth = maxDepth
    }

    /// The keys of mitmproxy's flows and of what they hold (`get_state` of flows, messages,
    /// connections, errors, WebSocket and DNS data, mitmproxy 0.x to 11; read back from files of
    /// mitmproxy 7.0.4, 9.0.1 and 11.0.2): they stand in paths by name.
    static let knownKeys: Set<String> = [
        "additionals", "address", "alpn", "alpn_offers", "alpn_proto_negotiated", "answers", "authoritative_answer",
        "authorities", "authority", "backup", "cert", "certificate_list", "cipher", "cipher_list", "class_",
        "client_conn", "clientcert", "close_code", "close_reason", "closed_by_client", "comment", "content", "data",
        "error", "first_line_format", "headers", "host", "http_version", "id", "intercepted", "ip_address",
        "is_replay", "marked", "messages", "metadata", "method", "mitmcert", "mode", "msg", "name", "op_code", "path",
        "peername", "port", "proxy_mode", "query", "questions", "reason", "recursion_available",
        "recursion_desired", "request", "reserved", "response", "response_code", "scheme", "server_conn", "sni",
        "sockname", "source_address", "ssl_established", "status_code", "timestamp", "timestamp_created",
        "timestamp_end", "timestamp_ssl_setup", "timestamp_start", "timestamp_tcp_setup", "timestamp_tls_setup",
        "tls", "tls_established", "tls_version", "trailers", "transport_protocol", "truncation", "ttl", "type",
        "valid_certificates", "version", "via", "websocket",
    ]

    /// The keys a flow starts with in a file: mitmproxy writes a dictionary's items last first,
    /// so any of the keys of a flow's own state.
    static let flowKeys: Set<String> = [
        "backup", "client_conn", "comment", "error", "id", "intercepted", "is_replay", "marked", "messages",
        "metadata", "request", "response", "server_conn", "timestamp_created", "type", "version", "websocket",
    ]

    /// Whether `bytes` (an input's first bytes) start a flow file: a tnetstring whose data starts
    /// with one of a flow's keys, as text or (mitmproxy before 1.0) as bytes.
    public static func startsFlowFile(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let flow = try? TNetString.lengthPrefix(bytes, base: 0, at: 0),
              let key = try? TNetString.lengthPrefix(bytes, base: 0, at: flow.dataStart),
              key.length < 32, key.dataStart + key.length < bytes.count else { return false }
        let tag = bytes[key.dataStart + key.length]
        guard tag == TNetString.Tag.text.rawValue || tag == TNetString.Tag.bytes.rawValue else { return false }
        return flowKeys.contains(String(decoding: bytes[key.dataStart..<key.dataStart + key.length], as: UTF8.self))
    }

    /// Reads the next flow into `visitor`; false at the end of the input. The window is pinned at
    /// the flow's start; the caller unpins once it has judged the exchange.
    public mutating func nextExchange<V: HTTPMessageVisitor>(_ visitor: inout V) throws -> Bool {
        guard window.ensure(next, keeping: next) else { return false }
        var prefix: (length: Int, dataStart: Int)?
        while true {
            prefix = try TNetString.lengthPrefix(visibleBytes, base: window.start, at: next)
            if prefix != nil { break }
            guard window.extend(keeping: next) else { throw HTTPSyntaxError(reason: "a flow cut short in its length", offset: next) }
        }
        let (length, dataStart) = prefix!
        let tagOffset = dataStart + length
        guard window.ensure(tagOffset, keeping: next) else {
            throw HTTPSyntaxError(reason: "a flow cut short: its length (\(length) bytes) runs past the end of the input", offset: next)
        }
        window.pin(at: next)
        let tree = try TNetString(visibleBytes, base: window.start, at: next, limit: tagOffset + 1, maxDepth: maxDepth)
        guard tree.nodes[0].tag == .dictionary else {
            throw HTTPSyntaxError(reason: "a flow that is not a tnetstring dictionary", offset: next)
        }
        try Flow(tree: tree, window: window, index: flowIndex).read(&visitor)
        next = tagOffset + 1
        flowIndex += 1
        return true
    }

    private var visibleBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: window.base, count: window.count) }

    /// One flow's tree, handed to the visitor part by part.
    private struct Flow {
        let tree: TNetString
        let window: ByteWindow
        let index: Int

        func node(_ i: Int) -> TNetString.Node { tree.nodes[i] }
        func bytes(_ i: Int) -> UnsafeRawBufferPointer { window.bytes(node(i).data) }
        func isText(_ i: Int) -> Bool { node(i).tag == .text || node(i).tag == .bytes }

        /// A dictionary's members, one after another: key and value nodes. Keys are compared as
        /// bytes (`keyIs`): made into a `String` for every lookup, they were 8 % of a flow file's
        /// scan.
        func members(_ dictionary: Int) -> UnfoldSequence<(key: Int, value: Int), UnfoldSequence<Int, Int>> {
            // The tree reader refuses a dictionary whose last key has no value.
            sequence(state: tree.children(of: dictionary)) { children in
                guard let key = children.next(), let value = children.next() else { return nil }
                return (key, value)
            }
        }

        /// Whether the key at `key` is `name`.
        func keyIs(_ key: Int, _ name: StaticString) -> Bool { bytes(key).bindMemory(to: UInt8.self).equals(name) }

        /// The value of `dictionary`'s member `name` whose tag is `tag` (text or bytes when nil).
        func member(_ name: StaticString, of dictionary: Int, _ tag: TNetString.Tag? = nil) -> Int? {
            members(dictionary).first { member in
                keyIs(member.key, name) && (tag.map { node(member.value).tag == $0 } ?? isText(member.value))
            }?.value
        }

        func read<V: HTTPMessageVisitor>(_ visitor: inout V) throws {
            var exchange = HTTPExchange(index: index)
            let request = member("request", of: 0, .dictionary), response = member("response", of: 0, .dictionary)
            let webSocket = member("websocket", of: 0, .dictionary), streamMessages = member("messages", of: 0, .list)
            // The request first: its URL and host decide how the rest is judged.
            if let request { exchange.request = try message(.request, request, &visitor) }
            if let response { exchange.response = try message(.response, response, &visitor) }
            if let webSocket { try messages(in: webSocket, &visitor) }
            var path: [PathToken] = []
            if let streamMessages { try messageList(streamMessages, key: "messages", dataKey: "content", path: &path, &visitor) }
            for (position, member) in members(0).enumerated() where ![request, response, webSocket, streamMessages].contains(member.value) {
                try rest(member, at: position, path: &path, &visitor)
            }
            try visitor.exchange(exchange)
        }

        /// A request or response: its line's parts, headers and trailers as a raw message's, its
        /// content as its body, anything else by its key.
        private func message<V: HTTPMessageVisitor>(_ side: HTTPSide, _ dictionary: Int, _ visitor: inout V) throws -> HTTPExchange.Message {
            var handled: Set<Int> = []
            func text(_ kind: HTTPText.Kind, _ name: StaticString) throws {
                guard let value = member(name, of: dictionary) else { return }
                handled.insert(value)
                let data = node(value).data
                try visitor.text(HTTPText(exchange: index, kind: kind, side: side, offset: data.lowerBound, count: data.count), bytes(value))
            }
            if side == .request {
                try text(.method, "method")
                try text(.url, "path")
                try text(.host, "host")
            } else {
                try text(.statusText, "reason")
            }
            try text(.version, "http_version")
            var bodyHeaders = BodyHeaders()
            for (name, list) in [("headers" as StaticString, HTTPField.List.headers), ("trailers", .trailers)] {
                guard let fields = member(name, of: dictionary, .list), tree.children(of: fields).allSatisfy(isField) else { continue }
                handled.insert(fields)
                for (i, field) in tree.children(of: fields).enumerated() {
                    let pair = Array(tree.children(of: field))
                    let name = node(pair[0]).data, value = node(pair[1]).data
                    if list == .headers { bodyHeaders.observe(name: bytes(pair[0]), value: bytes(pair[1])) }
                    try visitor.field(HTTPField(exchange: index, list: list, side: side, index: i, nameOffset: name.lowerBound,
                                                nameCount: name.count, valueOffset: value.lowerBound, valueRange: value),
                                      name: bytes(pair[0]), value: bytes(pair[1]))
                }
            }
            var message = HTTPExchange.Message()
            if let content = member("content", of: dictionary) {
                handled.insert(content)
                let data = node(content).data
                if !data.isEmpty { message.body = bodyHeaders.body(side, .input(data), offset: data.lowerBound) }
            }
            var path: [PathToken] = [.key(side.key)]
            for (position, member) in members(dictionary).enumerated() where !handled.contains(member.value) {
                try rest(member, at: position, path: &path, &visitor)
            }
            return message
        }

        /// A header or trailer as mitmproxy stores it: a list of its name and value.
        private func isField(_ i: Int) -> Bool {
            guard node(i).tag == .list else { return false }
            let pair = Array(tree.children(of: i).prefix(3))
            return pair.count == 2 && isText(pair[0]) && isText(pair[1])
        }

        /// A flow's WebSocket messages, as a HAR names them; the rest of its WebSocket data by key.
        private func messages<V: HTTPMessageVisitor>(in webSocket: Int, _ visitor: inout V) throws {
            var path: [PathToken] = [.key("websocket")]
            for (position, member) in members(webSocket).enumerated() {
                if keyIs(member.key, "messages") && node(member.value).tag == .list {
                    var top: [PathToken] = []
                    try messageList(member.value, key: "_webSocketMessages", dataKey: "data", path: &top, &visitor)
                } else {
                    try rest(member, at: position, path: &path, &visitor)
                }
            }
        }

        /// Messages stored as lists (`[type, from_client, content, timestamp, …]` for WebSocket,
        /// `[from_client, content, timestamp]` for TCP and UDP), under `key`: each one's text
        /// under `dataKey`.
        private func messageList<V: HTTPMessageVisitor>(_ list: Int, key: String, dataKey: String, path: inout [PathToken],
                                                        _ visitor: inout V) throws {
            path.append(.key(key))
            defer { path.removeLast() }
            for (i, message) in tree.children(of: list).enumerated() {
                path.append(.index(i))
                defer { path.removeLast() }
                guard node(message).tag == .list else {
                    path.append(.key(dataKey))
                    defer { path.removeLast() }
                    try rest(message, path: &path, &visitor)
                    continue
                }
                let data = tree.children(of: message).enumerated().first { isText($0.element) }?.offset
                for (n, part) in tree.children(of: message).enumerated() {
                    path.append(n == data ? .key(dataKey) : .index(n))
                    defer { path.removeLast() }
                    try rest(part, path: &path, &visitor)
                }
            }
        }

        /// Every text in the value at `i`, by where it sits (`path`, a stack each level pushes
        /// its place on and pops: a path copied for every value cost the depth for each).
        private func rest<V: HTTPMessageVisitor>(_ i: Int, path: inout [PathToken], _ visitor: inout V) throws {
            switch node(i).tag {
            case .text, .bytes:
                let data = node(i).data
                guard !data.isEmpty else { return }
                try visitor.text(HTTPText(exchange: index, kind: .flowValue(path), offset: data.lowerBound, count: data.count), bytes(i))
            case .list:
                for (n, child) in tree.children(of: i).enumerated() {
                    path.append(.index(n))
                    defer { path.removeLast() }
                    try rest(child, path: &path, &visitor)
                }
            case .dictionary:
                for (position, member) in members(i).enumerated() { try rest(member, at: position, path: &path, &visitor) }
            case .integer, .float, .boolean, .null:
                return
            }
        }

        /// A dictionary's member: under its key when mitmproxy writes it, else under its place,
        /// the key itself scanned as text there.
        private func rest<V: HTTPMessageVisitor>(_ member: (key: Int, value: Int), at position: Int,
                                                 path: inout [PathToken], _ visitor: inout V) throws {
            let name = String(decoding: bytes(member.key), as: UTF8.self)
            let known = MitmproxyFlowReader.knownKeys.contains(name)
            path.append(known ? .key(name) : .index(position))
            defer { path.removeLast() }
            if !known { try rest(member.key, path: &path, &visitor) }
            try rest(member.value, path: &path, &visitor)
        }
    }
}
