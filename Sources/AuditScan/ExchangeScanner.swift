import AuditCore
import AuditDetection
import AuditInputs

/// Judges raw HTTP exchanges as `HTTPMessageReader` reads them: every text part and field when
/// it is read (so memory does not grow with the headers of a message), the bodies once the
/// exchange is complete. It decides the exchange's context, scans headers, trailers and
/// variables by their names, cookies as pairs, bodies by their type and content, and marks what
/// the protocol itself carries as `transport`: the `Authorization`, `Cookie` and API-key headers
/// of any call, the whole OAuth token exchange (its `code_verifier` and its token response),
/// and every call of the app's sign-in (`HabiterAPI`: token and refresh, the browser login, the
/// callback with its fragment and the desktop loopback POST).
///
/// What is read before the exchange's end cannot know whether the exchange is a token exchange
/// (its response says so), nor, before the request line, its context: those parts carry the
/// exchange's container in their ancestry, and the exchange's end records the context and the
/// carrier there, as facts that `finishDocument` applies.
struct ExchangeScanner: HTTPMessageVisitor {
    let scan: ArtifactScan
    /// Where the exchanges are when they are a layer (`ArtifactScan.scanHTTPLayer`); nil for an
    /// input's own, which carry nothing of a layer (the scanner is copied into every location's
    /// closure).
    private let layer: Placement?

    /// HTTP messages held in strings: the window over their bytes, the strings' layer (every
    /// part is reported under its path, inside its containers), and where the parts are reported:
    /// from each piece's first byte on, at its offset in the input (one piece, at the string; a
    /// Burp Suite item's request and response, each at its element).
    final class Placement {
        let window: ByteWindow
        let frame: LayerFrame
        let pieces: [(start: Int, outerOffset: Int)]

        init(window: ByteWindow, frame: LayerFrame, pieces: [(start: Int, outerOffset: Int)]) {
            (self.window, self.frame, self.pieces) = (window, frame, pieces)
        }
    }

    /// Headers whose values are credentials the protocol carries.
    static let transportHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
        "x-access-token", "x-refresh-token",
    ]

    /// Cookie pairs scanned at a time: a header of a million cookies costs a batch of memory.
    static let cookieBatch = 1024

    /// The container of the exchange being read (see the type's comment).
    private var container: Int
    /// The request URL's path (`HTTPExchange.path(ofURL:)`); empty before the request line and
    /// for a response alone.
    private var urlPath = ""
    /// The context rules the request URL's host speaks for (`api.cloudflare.com`): read into the
    /// request's headers.
    private var hostContext: ContextMask = 0
    /// The URL's fragment is an OAuth authorization response (the sign-in's callback).
    private var fragmentShowsSignIn = false

    /// The exchanges of an input, or (`layer`) of HTTP messages held in strings.
    init(scan: ArtifactScan, layer: Placement? = nil) {
        self.scan = scan
        self.layer = layer
        container = ExchangeScanner.newContainer(scan)
    }

    // Inlined, these helpers cost a raw HTTP scan nothing measurable; called, 0.3 % (callgrind).

    /// The window the exchanges' bytes are in.
    @inline(__always)
    private var window: ByteWindow { layer?.window ?? scan.window }
    /// Where a part written at `offset` is reported: there, or in a layer at its string.
    @inline(__always)
    private func place(_ offset: Int) -> Int {
        guard let layer else { return offset }
        return layer.pieces.last { $0.start <= offset }?.outerOffset ?? layer.pieces[0].outerOffset
    }
    /// The path the exchanges' paths start from.
    @inline(__always)
    private var root: LayeredPath { layer?.frame.path ?? scan.rootPath }
    /// The containers a part is in: the exchange's, inside the carrying string's in a layer.
    @inline(__always)
    private func ancestry(_ ids: [Int]) -> [Int] { layer.map { $0.frame.ancestry + ids } ?? ids }
    /// The layers open around a part.
    @inline(__always)
    private var depth: Int { layer?.frame.depth ?? 0 }

    private static func newContainer(_ scan: ArtifactScan) -> Int {
        defer { scan.nextContainerId += 1 }
        return scan.nextContainerId
    }

    /// The context of everything in the exchange: `sync` for the app's sync calls (`/v1/push`,
    /// `/v1/pull`, `/v1/snapshot`) and for paths holding a configured marker, else `payload` (or
    /// what `--context` forces). The app's sign-in and metadata calls are never `sync`.
    func context(urlPath: String) -> ScanContext {
        if let forced = scan.options.context { return forced }
        return isSyncCall(urlPath) ? .sync : .payload
    }

    /// Whether a path is a sync call: an app route, or (no app route) a configured marker.
    func isSyncCall(_ urlPath: String) -> Bool {
        if let route = HabiterAPI.route(ofPath: urlPath) { return route == .sync }
        let path = Array(urlPath.utf8)
        return scan.options.syncPathMarkers.contains(where: { path.containsBytes($0) })
    }

    /// Parameters only an OAuth token request carries.
    static let tokenRequestMarkers = ["grant_type", "code_verifier"]

    /// Whether a response body to a `/token` URL issues an access token. `escapedJSON`: the body
    /// is as a JSON string holds it (a HAR's `content.text`), its quotes escaped.
    static func issuesAccessToken(_ body: UnsafeBufferPointer<UInt8>, escapedJSON: Bool = false) -> Bool {
        body.containsBytes("\"access_token\"") || body.containsBytes("access_token=")
            || (escapedJSON && body.containsBytes(#"\"access_token\""#))
    }

    static func isCredentialHeader(_ lowercasedName: String, scan: ArtifactScan) -> Bool {
        if transportHeaders.contains(lowercasedName) { return true }
        guard let match = scan.nameMatch(lowercasedName) else { return false }
        return !match.describesMetadata
    }

    // MARK: Parts, as they are read

    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) throws {
        // A comment is the file's own text, not the exchange's: no protocol, no carrier. A flow's
        // other texts (a WebSocket message, metadata) are the exchange's, but no protocol field.
        // (Matched by case: `==` on a kind with a payload is a call.)
        var isComment = false, isProtocolField = true, carrier: Family?
        switch text.kind {
        case .url:
            let url = Array(bytes)
            hostContext = HTTPExchange.host(ofURL: url).withUnsafeBytes { scan.rules.patterns.contextMask(of: $0) }
            urlPath = HTTPExchange.path(ofURL: url)
            fragmentShowsSignIn = url.contains(UInt8(ascii: "#")) && HabiterAPI.hasAuthorizationResponseFragment(bytes)
        case .host:
            // The host of a mitmproxy flow, whose URL is the request target alone.
            hostContext |= scan.rules.patterns.contextMask(of: bytes)
        case .comment: (isComment, isProtocolField) = (true, false)
        case .note: carrier = .transport
        case .flowValue: isProtocolField = false
        case .method, .version, .statusText, .chunkExtension: break
        }
        scan.scanNamedString(bytes, name: nil, at: place(text.offset), depth: depth) {
            HitLocation(key: text.key, path: text.path(under: root), ancestry: ancestry(isComment ? [] : [container]),
                        readerContext: isComment ? .payload : nil, carrier: carrier, isProtocolField: isProtocolField)
        }
        try scan.checkDocumentHits(at: place(text.offset))
    }

    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws {
        let facts = scan.keyFacts(name.bindMemory(to: UInt8.self))
        let match = scan.nameMatch(of: facts, key: name.bindMemory(to: UInt8.self))
        let isVariable = field.list == .variables
        // A name that is itself a secret: found where it stands, and masked where it names the value.
        var masked = false
        if facts.matchesPattern {
            let found = scan.scanPatterns(name, offset: place(field.nameOffset)) {
                isVariable ? HitLocation(key: nil, path: field.namePath(under: root), ancestry: ancestry([]), readerContext: .payload)
                    : HitLocation(key: nil, path: field.namePath(under: root), ancestry: ancestry([container]), isProtocolField: true)
            }
            masked = found > 0
        }
        if isVariable {
            // The file's own value (`@token = …`), judged by its name.
            scan.scanNamedString(value, name: match, at: place(field.valueOffset), depth: depth) {
                HitLocation(key: masked ? Redaction.maskedKey : String(decoding: name, as: UTF8.self), path: field.valuePath(under: root),
                            ancestry: ancestry([]), readerContext: .payload)
            }
            try scan.checkDocumentHits(at: place(field.valueOffset))
            return
        }
        // Locations are made only for what is found: a message can hold a million headers.
        func location(_ path: LayeredPath) -> HitLocation {
            let lowercased = String(decoding: name, as: UTF8.self).lowercased()
            return HitLocation(key: masked ? Redaction.maskedKey : String(decoding: name, as: UTF8.self), path: path, ancestry: ancestry([container]),
                               carrier: ExchangeScanner.isCredentialHeader(lowercased, scan: scan) ? .transport : nil, isProtocolField: true)
        }
        let setCookie = name.equalsIgnoringASCIICase("set-cookie")
        if setCookie || name.equalsIgnoringASCIICase("cookie") {
            let valuePath = field.valuePath(under: root)
            let frame = LayerFrame(path: valuePath.entering("cookie"), outerOffset: place(field.valueOffset),
                                   outerKey: masked ? Redaction.maskedKey : String(decoding: name, as: UTF8.self),
                                   ancestry: ancestry([container]), depth: depth + 1, readerContext: nil, carrier: .transport, isProtocolField: true)
            try ExchangeScanner.scanCookies(value, setCookie: setCookie, frame: frame, scan: scan) {
                try scan.checkDocumentHits(at: place(field.valueOffset))
            }
            // The value as text too: parts without `=`, Set-Cookie attributes, formats that span pairs.
            _ = scan.scanPatterns(value, offset: place(field.valueOffset)) { location(valuePath) }
        } else {
            // A header's name, or the request's host, may name the provider of a generic-shaped value.
            var context = facts.contextRules
            if field.side == .request {
                if name.equalsIgnoringASCIICase("host") { hostContext |= scan.rules.patterns.contextMask(of: value) }
                context |= hostContext
            }
            scan.scanNamedString(value, name: match, at: place(field.valueOffset), depth: depth, context: context, carriedByProtocol: true) {
                location(field.valuePath(under: root))
            }
        }
        try scan.checkDocumentHits(at: place(field.valueOffset))
    }

    /// A Cookie (`a=1; b=2`) or Set-Cookie (`name=value; Path=/`: the first pair) value's pairs,
    /// scanned a batch at a time (the cookie layer has no rule that looks at its pairs together),
    /// so that a header of a million cookies costs a batch of memory; `afterBatch` may stop the
    /// scan (the hit limit).
    static func scanCookies(_ value: UnsafeRawBufferPointer, setCookie: Bool, frame: LayerFrame, scan: ArtifactScan,
                            afterBatch: () throws -> Void) rethrows {
        try forEachCookieBatch(value, setCookie: setCookie, batchSize: cookieBatch) { pairs in
            _ = scan.scanPairs(PairList.decoded(pairs), frame: frame)
            try afterBatch()
        }
    }

    /// Hands `body` the `name=value` pairs of a cookie value, at most `batchSize` at a time; parts
    /// without `=` are no pair. Blanks around a pair and the quotes of a quoted value go.
    private static func forEachCookieBatch(_ value: UnsafeRawBufferPointer, setCookie: Bool, batchSize: Int,
                                   _ body: ([DecodedPair]) throws -> Void) rethrows {
        var pairs: [DecodedPair] = []
        var start = 0
        while start < value.count {
            let end = value[start...].firstIndex(of: UInt8(ascii: ";")) ?? value.count
            defer { start = end + 1 }
            let trimmed = value[start..<end].drop { $0 == 0x20 || $0 == 0x09 }
            guard let eq = trimmed.firstIndex(of: UInt8(ascii: "=")) else { continue }
            var cookieValue = trimmed[(eq + 1)...]
            while let last = cookieValue.last, last == 0x20 || last == 0x09 { cookieValue = cookieValue.dropLast() }
            if cookieValue.count >= 2 && cookieValue.first == 0x22 && cookieValue.last == 0x22 {
                cookieValue = cookieValue.dropFirst().dropLast()
            }
            pairs.append(DecodedPair(name: Array(trimmed[trimmed.startIndex..<eq]), value: Array(cookieValue)))
            if setCookie { break }
            if pairs.count >= batchSize {
                try body(pairs)
                pairs.removeAll(keepingCapacity: true)
            }
        }
        if !pairs.isEmpty { try body(pairs) }
    }

    // MARK: The exchange's end

    mutating func exchange(_ exchange: HTTPExchange) throws {
        let context = self.context(urlPath: urlPath)
        let requestBody = exchange.request?.body, responseBody = exchange.response?.body
        let tokenExchange = isTokenExchange(requestBody, responseBody) || isSignIn(requestBody, responseBody)
        let carrier: Family? = tokenExchange ? .transport : nil
        scan.facts[container] = ContainerFacts(context: context, carrier: carrier)
        // The bodies of the app's sign-in and metadata calls are protocol, not sync data.
        let protocolBodies = tokenExchange || HabiterAPI.route(ofPath: urlPath) == .metadata
        for body in [requestBody, responseBody].compactMap({ $0 }) {
            scanBody(body, exchange: exchange.index, context: context, carrier: carrier, isProtocolField: protocolBodies)
        }
        container = ExchangeScanner.newContainer(scan)
        urlPath = ""
        fragmentShowsSignIn = false
    }

    /// Whether the exchange is an OAuth token request (authorization code with PKCE, refresh).
    private func isTokenExchange(_ request: HTTPExchange.Body?, _ response: HTTPExchange.Body?) -> Bool {
        if let request, request.withBytes(in: window, { body in ExchangeScanner.tokenRequestMarkers.contains { body.containsBytes($0) } }) {
            return true
        }
        guard urlPath.hasSuffix("/token"), let response else { return false }
        return response.withBytes(in: window) { ExchangeScanner.issuesAccessToken($0.bindMemory(to: UInt8.self)) }
    }

    /// Whether the exchange is a call of the app's sign-in: by its route, else (unless it is a
    /// sync call) by its bodies or by an authorization response in its URL's fragment.
    private func isSignIn(_ request: HTTPExchange.Body?, _ response: HTTPExchange.Body?) -> Bool {
        if let route = HabiterAPI.route(ofPath: urlPath) { return route == .signIn }
        if isSyncCall(urlPath) { return false }
        if fragmentShowsSignIn { return true }
        if let request, request.withBytes(in: window, { HabiterAPI.isSignInRequest($0, escapedJSON: false) }) { return true }
        if let response, response.withBytes(in: window, { HabiterAPI.isSignInResponse($0, escapedJSON: false) }) { return true }
        return false
    }

    /// A body: its content coding undone (gzip, deflate, br, zstd; a body that claims a coding
    /// it does not have is an input error, and is scanned as it is; one that decompresses beyond
    /// the limits is a limit error), then JSON by type or content, else text, which the layer
    /// decoders open (a form, base64, a JWT).
    private func scanBody(_ body: HTTPExchange.Body, exchange: Int, context: ScanContext, carrier: Family?, isProtocolField: Bool) {
        var path = body.path(exchange: exchange, under: root)
        var inflated: [UInt8]?
        var excluded: UInt16 = 0
        if let coding = body.unsupportedCoding, body.withBytes(in: window, { !$0.isEmpty }) {
            scan.fail(.parse, at: place(body.offset), "a body coded \(coding) (Content-Encoding or Transfer-Encoding) cannot be decoded (only gzip, deflate, br and zstd can); it was scanned as it is, so what it holds is not checked")
        }
        // The coding to undo: the one the headers name, else gzip by its magic.
        let coding: ContentCoding?
        if body.codings.count > 1 {
            let names = body.codings.map(\.layerName).joined(separator: " and ")
            scan.fail(.parse, at: place(body.offset), "a body coded with both \(names) (Content-Encoding or Transfer-Encoding) cannot be decoded (one coding can be undone, not two); it was scanned as it is, so what it holds is not checked")
            coding = nil
        } else if let declared = body.codings.first {
            coding = declared
        } else if body.withBytes(in: window, { GzipLayerDecoder.hasMagic($0) }) {
            coding = .gzip
        } else {
            coding = nil
        }
        if let coding {
            switch body.withBytes(in: window, coding.decode) {
            case .success(let bytes):
                inflated = bytes
                path = path.entering(coding.layerName)
            case .failure(let error):
                scan.fail(error.isLimit ? .limit : .parse, at: place(body.offset),
                          "a \(coding.layerName)-encoded body cannot be decompressed (\(error.message(coding: coding.layerName))); it was scanned as it is")
                excluded = scan.layerDecoders.mask(named: coding.layerName)
            }
        }
        // The JSON reader's hits learn that they are protocol fields from an ancestor's facts.
        var ancestry: [Int] = []
        if isProtocolField {
            let id = ExchangeScanner.newContainer(scan)
            scan.facts[id] = ContainerFacts(carrier: carrier, isProtocolField: true)
            ancestry = [id]
        }
        let frame = LayerFrame(path: path, outerOffset: place(body.offset), outerKey: nil, ancestry: self.ancestry(ancestry), depth: depth + 1,
                               readerContext: context, carrier: carrier, isProtocolField: isProtocolField)
        let mime = body.mimeType?.lowercased() ?? ""
        if let inflated {
            inflated.withUnsafeBytes { scanContent($0, inPlace: nil, mime: mime, frame: frame) }
            return
        }
        switch body.bytes {
        case .input(let range):
            // Read in place with exact positions in an input; a layer's bytes have none.
            scanContent(window.bytes(range), inPlace: layer == nil ? range : nil, mime: mime, frame: frame, excluding: excluded)
        case .decoded(let bytes):
            bytes.withUnsafeBytes { scanContent($0, inPlace: nil, mime: mime, frame: frame, excluding: excluded) }
        }
    }

    /// A body's content; `inPlace` says where it stands when it is the input's own bytes.
    /// `excluded` are decoders not to offer it (gzip, when the body failed to inflate: its error
    /// is reported once).
    private func scanContent(_ bytes: UnsafeRawBufferPointer, inPlace: Range<Int>?, mime: String, frame: LayerFrame,
                             excluding excluded: UInt16 = 0) {
        if mime.containsText("json") || JSONLayerDecoder().decode(bytes) != nil {
            let jsonFrame = frame.entering("json")
            if let inPlace, scanJSONInPlace(inPlace, frame: jsonFrame) { return }
            // Not one JSON text in place: NDJSON, or JSON after all decoding.
            if scan.scanJSONLayer(bytes, frame: jsonFrame) { return }
        }
        if !scan.openLayers(bytes, at: frame.outerOffset ?? 0, depth: frame.depth, excluding: excluded, locate: { frame.location }).replacedValue {
            _ = scan.scanPatterns(bytes, offset: frame.outerOffset ?? 0, kind: TextKind(mediaType: mime)) { frame.location }
        }
    }

    /// Reads a JSON body where it stands in the input, so findings get their exact positions.
    private func scanJSONInPlace(_ range: Range<Int>, frame: LayerFrame) -> Bool {
        var inPlace = frame
        inPlace.outerOffset = nil
        var reader = JSONReader(window: scan.window, start: range.lowerBound, limit: range.upperBound, maxDepth: scan.options.maxDepth)
        return scan.readJSONLayer(&reader, frame: inPlace)
    }
}
