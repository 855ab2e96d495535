/// Judges one HTTP exchange (a HAR entry or raw HTTP messages): decides its context, scans
/// headers, parameters and cookies by their names and bodies by their type, and marks what the
/// protocol itself carries as `transport`: the `Authorization`, `Cookie` and API-key headers of
/// any call, the whole OAuth token exchange (its `code_verifier` and its token response), and
/// every call of the app's sign-in (`HabiterAPI`: token and refresh, the browser login, the
/// callback with its fragment and the desktop loopback POST).
struct ExchangeScanner {
    let scan: ArtifactScan

    /// Headers whose values are credentials the protocol carries.
    static let transportHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
        "x-access-token", "x-refresh-token",
    ]

    /// The context of everything in the exchange: `sync` for the app's sync calls (`/v1/push`,
    /// `/v1/pull`, `/v1/snapshot`) and for paths holding a configured marker, else `payload` (or
    /// what `--context` forces). The app's sign-in and metadata calls are never `sync`.
    func context(of exchange: HTTPExchange, urlPath: String) -> ScanContext {
        if let forced = scan.options.context { return forced }
        return isSyncCall(urlPath) ? .sync : .payload
    }

    /// Whether a path is a sync call: an app route, or (no app route) a configured marker.
    func isSyncCall(_ urlPath: String) -> Bool {
        if let route = HabiterAPI.route(ofPath: urlPath) { return route == .sync }
        let path = Array(urlPath.utf8)
        return scan.options.syncPathMarkers.contains(where: { path.containsBytes($0) })
    }

    /// Whether the exchange is a call of the app's sign-in: by its route, else (unless it is a
    /// sync call) by its bodies or by an authorization response in its URL's fragment.
    func isSignIn(_ exchange: HTTPExchange, urlPath: String) -> Bool {
        let route = HabiterAPI.route(ofPath: urlPath)
        if let route { return route == .signIn }
        if isSyncCall(urlPath) { return false }
        if let url = exchange.url?.bytes, url.contains(UInt8(ascii: "#")),
           url.withUnsafeBytes({ HabiterAPI.hasAuthorizationResponseFragment($0) }) {
            return true
        }
        if let body = exchange.request.body?.bytes, body.withUnsafeBytes({ HabiterAPI.isSignInRequest($0, escapedJSON: false) }) {
            return true
        }
        if let body = exchange.response.body?.bytes, body.withUnsafeBytes({ HabiterAPI.isSignInResponse($0, escapedJSON: false) }) {
            return true
        }
        return false
    }

    /// Parameters only an OAuth token request carries.
    static let tokenRequestMarkers = ["grant_type", "code_verifier"]

    /// Whether a response body to a `/token` URL issues an access token. `escapedJSON`: the body
    /// is as a JSON string holds it (a HAR's `content.text`), its quotes escaped.
    static func issuesAccessToken(_ body: UnsafeBufferPointer<UInt8>, escapedJSON: Bool = false) -> Bool {
        body.containsBytes("\"access_token\"") || body.containsBytes("access_token=")
            || (escapedJSON && body.containsBytes(#"\"access_token\""#))
    }

    /// Whether the exchange is an OAuth token request (authorization code with PKCE, refresh).
    func isTokenExchange(_ exchange: HTTPExchange, urlPath: String) -> Bool {
        let markers = ExchangeScanner.tokenRequestMarkers
        if let body = exchange.request.body?.bytes, markers.contains(where: { body.containsBytes($0) }) { return true }
        if exchange.request.params.contains(where: { markers.contains($0.name) }) { return true }
        guard urlPath.hasSuffix("/token"), let response = exchange.response.body?.bytes else { return false }
        return response.withUnsafeBufferPointer { ExchangeScanner.issuesAccessToken($0) }
    }

    /// Scans everything the exchange holds.
    func scan(_ exchange: HTTPExchange, context: ScanContext? = nil) {
        let urlPath = exchange.urlPath
        let context = context ?? self.context(of: exchange, urlPath: urlPath)
        let tokenExchange = isTokenExchange(exchange, urlPath: urlPath) || isSignIn(exchange, urlPath: urlPath)
        let exchangeCarrier: Family? = tokenExchange ? .transport : nil
        // The bodies of the app's sign-in and metadata calls are protocol, not sync data.
        let protocolBodies = tokenExchange || HabiterAPI.route(ofPath: urlPath) == .metadata
        for note in exchange.notes { scanText(note, key: "note", context: context, carrier: .transport) }
        if let url = exchange.url { scanText(url, key: "url", context: context, carrier: exchangeCarrier) }
        for field in exchange.queryString { scanField(field, context: context, carrier: exchangeCarrier) }
        scanMessage(exchange.request, context: context, carrier: exchangeCarrier, protocolBody: protocolBodies)
        scanMessage(exchange.response, context: context, carrier: exchangeCarrier, protocolBody: protocolBodies)
        if let redirect = exchange.redirectURL { scanText(redirect, key: "redirectURL", context: context, carrier: nil) }
        for frame in exchange.webSocketMessages { scanBody(frame, context: context, carrier: nil) }
    }

    private func scanMessage(_ message: HTTPExchange.Message, context: ScanContext, carrier: Family?, protocolBody: Bool) {
        for header in message.headers {
            let name = header.name.lowercased()
            let headerCarrier = isCredentialHeader(name) ? .transport : carrier
            if name == "cookie" || name == "set-cookie" {
                let pairs = ExchangeScanner.cookiePairs(header.value, setCookie: name == "set-cookie")
                let frame = LayerFrame(path: header.path.entering("cookie"), outerOffset: header.offset, outerKey: header.name,
                                       ancestry: [], depth: 1, readerContext: context, carrier: headerCarrier, isProtocolField: true)
                _ = scan.scanLayer(.pairs(pairs), bytes: [], frame: frame)
            } else {
                scanField(header, context: context, carrier: headerCarrier)
            }
        }
        for cookie in message.cookies { scanField(cookie, context: context, carrier: .transport) }
        for param in message.params { scanField(param, context: context, carrier: carrier) }
        if let body = message.body { scanBody(body, context: context, carrier: carrier, isProtocolField: protocolBody) }
    }

    /// Whether a header carries a credential: the standard ones, and any whose name a name rule
    /// matches (`x-goog-api-key`, `x-amz-security-token`).
    private func isCredentialHeader(_ lowercasedName: String) -> Bool {
        ExchangeScanner.isCredentialHeader(lowercasedName, scan: scan)
    }

    static func isCredentialHeader(_ lowercasedName: String, scan: ArtifactScan) -> Bool {
        if transportHeaders.contains(lowercasedName) { return true }
        guard let match = scan.nameMatch(lowercasedName) else { return false }
        return !match.describesMetadata
    }

    /// A value judged by its name.
    private func scanField(_ field: HTTPExchange.Field, context: ScanContext, carrier: Family?) {
        let name = scan.nameMatch(field.name)
        let location = HitLocation(key: field.name, path: field.path, ancestry: [], readerContext: context, carrier: carrier,
                                   isProtocolField: true)
        field.value.withUnsafeBytes { value in
            scan.scanNamedString(value, name: name, at: field.offset, depth: 0) { location }
        }
    }

    private func scanText(_ text: HTTPExchange.Text, key: String, context: ScanContext, carrier: Family?) {
        let location = HitLocation(key: key, path: text.path, ancestry: [], readerContext: context, carrier: carrier,
                                   isProtocolField: true)
        text.bytes.withUnsafeBytes { value in
            scan.scanNamedString(value, name: nil, at: text.offset, depth: 0) { location }
        }
    }

    /// A body: base64 and gzip undone (a body that claims an encoding it does not have is an
    /// input error, and is scanned as it is), then JSON, a form, or text by type and content.
    func scanBody(_ body: HTTPExchange.Body, context: ScanContext, carrier: Family?, isProtocolField: Bool = false) {
        var bytes = body.bytes
        var path = body.path
        var transformed = false
        if body.base64 {
            switch Base64LayerDecoder.decodeForced(bytes) {
            case .success(let decoded):
                bytes = decoded
                path = path.entering("base64")
                transformed = true
            case .failure:
                scan.fail(.parse, at: body.offset, "a body marked base64 is not valid base64; it was scanned as text")
            }
        }
        if body.gzip || GzipLayerDecoder.hasMagic(bytes) {
            switch GzipLayerDecoder.inflate(bytes) {
            case .success(let inflated):
                bytes = inflated
                path = path.entering("gzip")
                transformed = true
            case .failure(let error):
                scan.fail(.parse, at: body.offset, "a gzip-encoded body cannot be decompressed (\(error.message)); it was scanned as it is")
            }
        }
        // The JSON reader's hits learn that they are protocol fields from an ancestor's facts.
        var ancestry: [Int] = []
        if isProtocolField {
            let id = scan.nextContainerId
            scan.nextContainerId += 1
            scan.facts[id] = ContainerFacts(carrier: carrier, isProtocolField: true)
            ancestry = [id]
        }
        let frame = LayerFrame(path: path, outerOffset: body.offset, outerKey: nil, ancestry: ancestry, depth: 1,
                               readerContext: context, carrier: carrier, isProtocolField: isProtocolField)
        let mime = body.mimeType?.lowercased() ?? ""
        if mime.containsText("json") || JSONLayerDecoder().decode(bytes.withUnsafeBytes { $0 }) != nil {
            var jsonFrame = frame
            jsonFrame.path = path.entering("json")
            if !transformed, let range = body.inPlace, scanJSONInPlace(range, frame: jsonFrame) { return }
            if scan.scanLayer(.json, bytes: bytes, frame: jsonFrame) { return }
        }
        if mime.containsText("x-www-form-urlencoded"),
           let form = bytes.withUnsafeBytes({ FormLayerDecoder().decode($0) }), case .pairs(let pairs) = form.content {
            var formFrame = frame
            formFrame.path = path.entering("form")
            _ = scan.scanLayer(.pairs(pairs), bytes: [], frame: formFrame)
            return
        }
        _ = scan.scanLayer(.text, bytes: bytes, frame: frame)
    }

    /// Reads a JSON body where it stands in the input, so findings get their exact positions.
    private func scanJSONInPlace(_ range: Range<Int>, frame: LayerFrame) -> Bool {
        var inPlace = frame
        inPlace.outerOffset = nil
        var reader = JSONReader(window: scan.window, start: range.lowerBound, limit: range.upperBound, maxDepth: scan.options.maxDepth)
        return scan.readJSONLayer(&reader, frame: inPlace)
    }

    /// `a=1; b=2` (Cookie) or `name=value; Path=/; HttpOnly` (Set-Cookie: the first pair only).
    static func cookiePairs(_ value: [UInt8], setCookie: Bool) -> [DecodedPair] {
        var pairs: [DecodedPair] = []
        for part in value.split(separator: UInt8(ascii: ";")) {
            let trimmed = part.drop { $0 == 0x20 || $0 == 0x09 }
            guard let eq = trimmed.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = Array(trimmed[trimmed.startIndex..<eq])
            var cookieValue = Array(trimmed[(eq + 1)...])
            while cookieValue.last == 0x20 || cookieValue.last == 0x09 { cookieValue.removeLast() }
            if cookieValue.count >= 2 && cookieValue.first == 0x22 && cookieValue.last == 0x22 {
                cookieValue = Array(cookieValue.dropFirst().dropLast())
            }
            pairs.append(DecodedPair(name: name, value: cookieValue))
            if setCookie { break }
        }
        return pairs
    }
}
