import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs

/// Scans a HAR capture as the JSON reader streams it. Every value goes through the plain JSON
/// scan (bodies open as JSON, form or base64 layers, URLs as queries); on top of that this
/// visitor follows the HAR structure and records what the hits need once each part closes:
/// the entry's context (`sync` for calls to the sync API), headers, cookies and parameters as
/// named values (`{"name": …, "value": …}` judged by the name, credential headers and cookies
/// as `transport`, `Cookie` headers split into pairs), the OAuth token exchange (its request
/// and response bodies as `transport`), the sign-in calls of the app (`HabiterAPI`: everything
/// in them `transport` and protocol), and bodies that claim base64 but are not. Nothing of an
/// entry is kept but a few field values, so memory does not grow with entries or their size.
struct HARScanVisitor: JSONVisitor {
    private let scan: ArtifactScan
    private var plain: JSONScanVisitor

    private typealias Role = HARStructure.Role

    /// A name/value object being read.
    private struct Field {
        /// The field object's container.
        var id = -1
        /// The name's and the value's bytes (unescaped), if the object has them. The buffers are
        /// kept from field to field (`begin`): a header's name was a `String` and its value an
        /// array, made and freed for every header of every entry.
        var hasName = false
        var name: [UInt8] = []
        /// The name's facts, as a JSON key's (`ArtifactScan.keyFacts`): its context rules and
        /// name rule, judged once for each distinct name, where every header of every entry
        /// searched its name for keywords and matched it with the name rules again.
        var nameFacts = KeyFacts()
        var hasValue = false
        var value: [UInt8] = []
        var valueOffset = 0
        /// Whether scanning the value found something (a pattern on it, anything in a layer of
        /// it), which says more than the field's name.
        var valueHasHits = false
        /// The scan's hit count when the field opened.
        var hitsAtOpen = 0
        /// The context rules its name, or its request's host, speaks for.
        var context: ContextMask = 0

        /// Begins the field object `id` in this field's buffers, emptied.
        mutating func begin(id: Int, hitsAtOpen: Int) {
            // The buffers swapped out, not copied: a copy retained each, and the field's reset
            // released it, four atomic counts a field.
            var (name, value) = ([UInt8](), [UInt8]())
            swap(&name, &self.name)
            swap(&value, &self.value)
            self = Field(id: id, hitsAtOpen: hitsAtOpen)
            name.truncate(to: 0)
            value.truncate(to: 0)
            swap(&name, &self.name)
            swap(&value, &self.value)
        }

        /// Whether the name, lowercased as `String.lowercased()` lowercases it, is `lowercase`
        /// (ASCII): an ASCII name compared byte by byte with its case folded, without a `String`.
        func nameIs(_ lowercase: StaticString) -> Bool {
            guard !name.contains(where: { $0 >= 0x80 }) else { return lowercasedName == lowercase.description }
            return name.withUnsafeBufferPointer { $0.count == lowercase.utf8CodeUnitCount && $0.hasPrefixIgnoringASCIICase(lowercase) }
        }

        var nameText: String { String(decoding: name, as: UTF8.self) }
        var lowercasedName: String { nameText.lowercased() }
    }

    /// What an entry has shown so far.
    private struct Entry {
        var id: Int
        var requestId: Int?
        var responseId: Int?
        /// The path of the request's URL, lowercased (`HTTPExchange.path(ofURL:)`).
        var urlPath: String?
        /// The app's route the path ends in, if any.
        var route: HabiterAPI.Route?
        /// The path is a sync call (a route or a configured marker): its bodies are sync data,
        /// never looked at for the sign-in's shapes.
        var isSync = false
        var requestHasTokenMarkers = false
        var responseIssuesToken = false
        /// A message shows the sign-in by its body or URL (`HabiterAPI`), whatever its path.
        var showsSignIn = false
        var bodyIds: [Int] = []
        /// The context rules the request's host speaks for (`api.cloudflare.com`): read into the
        /// request's headers, query and cookies.
        var hostContext: ContextMask = 0
        /// The coding the response's `Content-Encoding` names, when it names one the scan can
        /// undo: a body stored still compressed (as BrowserMob Proxy stores one) in Brotli or
        /// raw deflate has no signature to be known by.
        var responseCoding: ContentCoding?

        /// Whether the sign-in's shapes are looked for in its messages: not in sync calls, nor in
        /// the app's other calls, whose route already says what they are.
        var looksForSignIn: Bool { !isSync && route == nil }
    }

    private var structure = HARStructure()
    private var field = Field()
    private var entry: Entry?
    /// The `content` object being read: its `encoding`, and whether its text is base64 (checked
    /// when it is read, so that the text need not be kept until `encoding` is known).
    private var contentEncoding: String?
    /// What the body of the open `content` or `postData` is, by its `mimeType` (which every
    /// exporter writes before `text`).
    private var bodyKind: TextKind?
    private var contentText: ContentText?
    /// The entries begun so far, for their owner when workers share the capture (`ScanShare`).
    private var entryOrdinal = 0
    /// A worker that does not own what lies outside the entries left the current key unread.
    private var keyWithheld = false

    /// A `content.text` as far as its `encoding` (which may come after it) needs it.
    private struct ContentText {
        var isBase64: Bool
        var isEmpty: Bool
        var offset: Int
        /// Where the text is when it is base64: if the body is declared base64 and decodes to
        /// bytes that are no text layer, those bytes are scanned when `content` closes.
        var base64: Base64Text?
        /// Whether the base64 layer decoder opened the text as it was scanned.
        var base64Recognised = false
    }

    /// A base64 `content.text`: where it stands in the window (which `content`'s pin keeps
    /// visible, so a body of any size is not copied), or, written with JSON escapes, unescaped.
    private enum Base64Text {
        case inWindow(offset: Int, count: Int)
        case unescaped([UInt8])
    }

    init(scan: ArtifactScan) {
        self.scan = scan
        plain = JSONScanVisitor(scan: scan, layer: .input(path: scan.rootPath), judgesNameValuePairs: false)
    }

    // MARK: Structure

    private mutating func opened(isObject: Bool, at offset: Int) {
        let role = structure.open(isObject: isObject)
        let id = plain.currentContainerId ?? -1
        switch role {
        case .entry: entry = Entry(id: id)
        case .request: entry?.requestId = id
        case .response: entry?.responseId = id
        case .field:
            field.begin(id: id, hitsAtOpen: scan.hitCount)
            // Judged when it closes, so its value's position must still resolve then.
            scan.pinWindow(at: offset)
        case .postData:
            entry?.bodyIds.append(id)
            bodyKind = nil
        case .content:
            entry?.bodyIds.append(id)
            bodyKind = nil
            contentEncoding = nil
            contentText = nil
            scan.pinWindow(at: offset)
        default: break
        }
    }

    // MARK: Events

    mutating func objectStart(at offset: Int) throws {
        try plain.objectStart(at: offset)
        opened(isObject: true, at: offset)
    }

    mutating func arrayStart(at offset: Int) throws {
        try plain.arrayStart(at: offset)
        opened(isObject: false, at: offset)
    }

    mutating func objectEnd(at offset: Int) throws {
        let role = structure.close()
        switch role {
        case .field(let list):
            closeField(list: list)
            scan.unpinWindow()
        case .content:
            closeContent()
            scan.unpinWindow()
        default: break
        }
        plain.objectEnd(at: offset)
        if role == .entry { closeEntry() }
    }

    mutating func arrayEnd(at offset: Int) throws {
        _ = structure.close()
        plain.arrayEnd(at: offset)
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        structure.key(raw, escaped: escaped)
        if let share = scan.share, !share.ownsTheRest, let role = structure.current, role == .root || role == .log {
            // Only the way to the entries is this worker's: `skipsValue` skips the rest.
            keyWithheld = structure.pendingKey != (role == .root ? .log : .entries)
            if keyWithheld { return }
        }
        try plain.key(raw, escaped: escaped, at: offset)
    }

    /// When workers share the capture: the entries of others, and for all but worker 0
    /// everything outside `log.entries`, are skipped (`ScanShare`).
    mutating func skipsValue(at offset: Int, firstByte: UInt8) -> Int? {
        guard let share = scan.share else { return nil }
        var skipped = offset
        let skips: Bool
        switch structure.current {
        case .entries?:
            guard let start = skippedEntries(at: offset, share: share) else { return nil }
            skipped = start
            skips = true
        case nil:
            skips = !share.ownsTheRest && firstByte != UInt8(ascii: "{")
        case .root?:
            skips = !share.ownsTheRest && (keyWithheld || firstByte != UInt8(ascii: "{"))
        case .log?:
            skips = !share.ownsTheRest && (keyWithheld || firstByte != UInt8(ascii: "["))
        default:
            return nil
        }
        guard skips else { return nil }
        structure.scalarRead()
        if keyWithheld {
            keyWithheld = false
        } else {
            plain.skippedValue()
        }
        return skipped
    }

    /// An entry begins at `offset`. Nil when this worker visits it: it is published where it
    /// begins. Else where the entries this worker skips begin: at `offset`, or at the last entry
    /// the holder of its chunk has begun, when this worker may jump there (`ScanShare`). Out of
    /// line: the reader asks `skipsValue` at every value, and an entry is one value in many.
    @inline(never)
    private mutating func skippedEntries(at offset: Int, share: ScanShare) -> Int? {
        defer { entryOrdinal += 1 }
        if share.owns(documentAt: offset, ordinal: entryOrdinal) {
            if let cursor = scan.window.cursor(at: offset) {
                share.began(ScanShare.ResumePoint(offset: offset, ordinal: entryOrdinal, cursor: cursor))
            }
            return nil
        }
        guard !scan.window.isPinned, let point = share.resumePoint(after: offset) else { return offset }
        // The entries before it are passed unread, their lines counted by the holder.
        scan.window.adoptCursor(point.cursor)
        plain.skippedElements(point.ordinal - entryOrdinal)
        entryOrdinal = point.ordinal
        return point.offset
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if let role = structure.current, let key = structure.pendingKey {
            observe(string: raw, escaped: escaped, at: offset, key: key, in: role)
        }
        let isFieldValue = structure.pendingKey == .value && structure.current?.isField == true
        let isBody = structure.pendingKey == .text && (structure.current == .content || structure.current == .postData)
        // A response body that may be base64: the layer decoder's look at it is kept for its
        // `encoding` (`closeContent`).
        let isBase64Body = isBody && structure.current == .content && contentText?.base64 != nil
        structure.scalarRead()
        let hitsBefore = scan.hitCount
        // A body is declared what its `mimeType` says, for this value only.
        let declares = isBody && bodyKind != nil
        if declares { plain.declaredKind = bodyKind }
        defer { if declares { plain.declaredKind = nil } }
        if isFieldValue { plain.carrierContext = field.context }
        defer { if isFieldValue { plain.carrierContext = 0 } }
        if isBase64Body { scan.base64RecognisedOutside = false }
        try plain.string(raw, escaped: escaped, at: offset)
        if isFieldValue { field.valueHasHits = scan.hitCount > hitsBefore }
        if isBase64Body { contentText?.base64Recognised = scan.base64RecognisedOutside }
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        structure.scalarRead()
        try plain.number(raw, at: offset)
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws {
        structure.scalarRead()
        try plain.literal(value, at: offset)
    }

    /// Sets `bytes` to the string `raw`, unescaped as a `String` makes it (a lone surrogate's
    /// bytes repaired, as the `String`s made of a field's name and value repaired them).
    private static func read(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, into bytes: inout [UInt8]) {
        bytes.truncate(to: 0)
        if escaped { bytes.append(contentsOf: JSONString.decode(raw, escaped: true).utf8) } else { bytes.append(contentsOf: raw) }
    }

    /// Strings the structure needs: the URL, field names and values, bodies and their encoding.
    private mutating func observe(string raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int, key: HARStructure.Key, in role: Role) {
        func bytes() -> [UInt8] {
            var bytes: [UInt8] = []
            Self.read(raw, escaped: escaped, into: &bytes)
            return bytes
        }
        switch (role, key) {
        case (.request, .url):
            let url = bytes()
            entry?.hostContext = HTTPExchange.host(ofURL: url).withUnsafeBytes { scan.rules.patterns.contextMask(of: $0) }
            let path = HTTPExchange.path(ofURL: url)
            entry?.urlPath = path
            let route = HabiterAPI.route(ofPath: path)
            entry?.route = route
            entry?.isSync = route == .sync || (route == nil && scan.options.syncPathMarkers.contains { Array(path.utf8).containsBytes($0) })
            if url.contains(UInt8(ascii: "#")), url.withUnsafeBytes({ HabiterAPI.hasAuthorizationResponseFragment($0) }) {
                entry?.showsSignIn = true
            }
        case (.field(let list), .name):
            field.hasName = true
            Self.read(raw, escaped: escaped, into: &field.name)
            field.nameFacts = field.name.withUnsafeBufferPointer { scan.keyFacts($0) }
            field.context = field.nameFacts.contextRules
            let fromRequest = list == .requestHeaders || list == .queryString || list == .requestCookies
            if fromRequest { field.context |= entry?.hostContext ?? 0 }
        case (.field, .value):
            field.hasValue = true
            Self.read(raw, escaped: escaped, into: &field.value)
            field.valueOffset = offset
        case (.postData, .text):
            // The markers are plain ASCII: an escape inside one would be deliberate.
            if ExchangeScanner.tokenRequestMarkers.contains(where: { raw.containsBytes($0) }) { entry?.requestHasTokenMarkers = true }
            if entry?.looksForSignIn ?? true, HabiterAPI.isSignInRequest(UnsafeRawBufferPointer(raw), escapedJSON: escaped) {
                entry?.showsSignIn = true
            }
        case (.content, .text):
            // Only a response to `…/token` counts (see `closeEntry`); the URL comes first in
            // every exporter's entries, else the body is looked at anyway.
            let mayBeTokenResponse = entry?.urlPath.map { $0.hasSuffix("/token") } ?? true
            if mayBeTokenResponse && ExchangeScanner.issuesAccessToken(raw, escapedJSON: escaped) { entry?.responseIssuesToken = true }
            if entry?.looksForSignIn ?? true, HabiterAPI.isSignInResponse(UnsafeRawBufferPointer(raw), escapedJSON: escaped) {
                entry?.showsSignIn = true
            }
            // Text that cannot be base64 fails on its first byte.
            let isBase64: Bool
            if let first = raw.first, Base64.value(first, .standard) != nil || Base64.value(first, .url) != nil {
                isBase64 = escaped ? Self.isBase64(bytes()) : Self.isBase64(raw)
            } else {
                isBase64 = Self.isBase64(raw.prefix(1))
            }
            contentText = ContentText(isBase64: isBase64, isEmpty: raw.isEmpty, offset: offset)
            if isBase64 {
                let start = scan.window.start + (UnsafeRawPointer(raw.baseAddress!) - UnsafeRawPointer(scan.window.base))
                contentText?.base64 = escaped ? .unescaped(bytes()) : .inWindow(offset: start, count: raw.count)
            }
        case (.content, .mimeType), (.postData, .mimeType):
            bodyKind = escaped ? TextKind(mediaType: String(decoding: bytes(), as: UTF8.self)) : TextKind(mediaType: raw)
        case (.content, .encoding):
            contentEncoding = String(decoding: bytes(), as: UTF8.self).lowercased()
        default:
            break
        }
    }

    /// A header, cookie or parameter: judged by its name, with what its hits need.
    private mutating func closeField(list: HARStructure.FieldList) {
        guard field.hasName else { return }
        if list == .responseHeaders && field.hasValue && field.nameIs("content-encoding") {
            let codings = field.value.withUnsafeBytes { ContentCoding.tokens(in: $0) }.filter { $0 != "identity" }
            entry?.responseCoding = codings.count == 1 ? ContentCoding(token: codings[0]) : nil
        }
        if list == .params && ExchangeScanner.tokenRequestMarkers.contains(field.lowercasedName) { entry?.requestHasTokenMarkers = true }
        let isSetCookie = field.hasValue && list.isHeaders && field.nameIs("set-cookie")
        let isCookieHeader = isSetCookie || (field.hasValue && list.isHeaders && field.nameIs("cookie"))
        let match = isCookieHeader || !field.hasValue ? nil : field.name.withUnsafeBufferPointer { scan.nameMatch(of: field.nameFacts, key: $0) }
        // A hit in the value says more than the name: `finishDocument` would drop the name's.
        let judgedByName = isCookieHeader || (match != nil && !field.valueHasHits)
        // The field's facts, for the hits inside it (in its value, its cookie pairs, the name's
        // own): a field without any needs none.
        guard judgedByName || scan.hitCount > field.hitsAtOpen else { return }
        let name = field.nameText
        let credential = list.isCookies || (list.isHeaders && ExchangeScanner.isCredentialHeader(field.lowercasedName, scan: scan))
        scan.facts[field.id] = ContainerFacts(carrier: credential ? .transport : nil, isProtocolField: list != .params, valueName: name)
        guard judgedByName, field.hasValue else { return }
        let value = field.value
        var location = plain.location()
        location.path = location.path.appending(.key("value"))
        location.key = name
        if isCookieHeader {
            let frame = LayerFrame(path: location.path.entering("cookie"), outerOffset: field.valueOffset, outerKey: name,
                                   ancestry: location.ancestry, depth: 1, readerContext: nil)
            value.withUnsafeBytes { ExchangeScanner.scanCookies($0, setCookie: isSetCookie, frame: frame, scan: scan, afterBatch: {}) }
            return
        }
        guard let match else { return }
        // A header or cookie carries a session id of any shape as a live credential.
        let shape = scan.rules.nameRules[match.ruleIndex].valueShape.carried(byProtocol: list != .params)
        let text = String(decoding: value, as: UTF8.self)
        let credible = value.withUnsafeBufferPointer { ValueCredibility.isCredible($0, keyWords: match.keyWords, shape: shape) }
        let description = text.isEmpty ? "an empty string" : Redaction.describeValue(length: text.unicodeScalars.count)
        value.withUnsafeBytes {
            scan.recordNameHit(match, credible: credible, valueDescription: description, at: field.valueOffset, location: location, value: $0)
        }
    }

    /// `content.encoding` values that say the text is as it is.
    private static let plainEncodings: Set<String> = ["", "identity", "utf-8", "utf8"]

    /// Whether `text` decodes as base64 when it is told to (see `Base64LayerDecoder.decodeForced`).
    private static func isBase64<C: Collection>(_ text: C) -> Bool where C.Element == UInt8 {
        if case .success = Base64LayerDecoder.checkForced(text) { true } else { false }
    }

    /// A response body that claims base64 must be base64, and is scanned decoded: as a layer
    /// when it decodes to text, gzip or zlib data (the plain scan has opened it, or refused it),
    /// else its bytes with the pattern rules (a body in Latin-1 is no UTF-8 text layer, and a
    /// token in it is still a token).
    /// Any other `encoding` but none (`""`, `identity`, or a charset name some exporters write
    /// there) cannot be undone: refused, the text scanned as it is.
    private mutating func closeContent() {
        guard let encoding = contentEncoding, let text = contentText else { return }
        guard encoding == "base64" else {
            if !text.isEmpty && !Self.plainEncodings.contains(encoding) {
                scan.fail(.parse, at: text.offset, "a body whose content.encoding is not base64 cannot be decoded; it was scanned as text, so what it holds is not checked")
            }
            return
        }
        guard text.isBase64 else {
            return scan.fail(.parse, at: text.offset, "a body marked base64 is not valid base64; it was scanned as text")
        }
        guard let body = text.base64 else { return }
        // Made only for a hit, while `content` is open and between members, as it was when its
        // `text` began: the location of `content`, then its `text`.
        func location() -> HitLocation {
            var location = plain.location()
            location.path = location.path.appending(.key("text")).entering("base64")
            location.key = "text"
            return location
        }
        switch body {
        case .inWindow(let offset, let count):
            guard offset >= scan.window.start, offset + count <= scan.window.end else {
                return scan.fail(.limit, at: text.offset, "a body marked base64 is no longer in memory when its encoding is read; what it holds is not checked")
            }
            scanDeclaredBase64(UnsafeRawBufferPointer(start: scan.window.base + (offset - scan.window.start), count: count), text, location)
        case .unescaped(let bytes):
            bytes.withUnsafeBytes { scanDeclaredBase64($0, text, location) }
        }
    }

    /// A body declared base64 that no decoder opens as text or compressed data: data in the
    /// coding the response's `Content-Encoding` names when the bytes decompress (Brotli, raw
    /// deflate: read as the layer `!brotli`, `!deflate`), else its bytes, decoded, with the
    /// pattern rules; zstd data that its decoder did not open is refused. A body that does not
    /// decompress is not an error: Chrome keeps the header on the bodies it stores decoded (a
    /// `.wasm` served `br`). The decoder is asked again only when the scan of the text did not
    /// see it open a layer.
    private func scanDeclaredBase64(_ body: UnsafeRawBufferPointer, _ text: ContentText, _ location: () -> HitLocation) {
        let isLayer: Bool
        if text.base64Recognised && scan.options.keepsBase64Verdicts {
            isLayer = true
        } else {
            scan.declaredBase64BodiesAskedAgain += 1
            do { isLayer = try Base64LayerDecoder().recognises(body) } catch { isLayer = true }
        }
        if isLayer { return }
        switch Base64LayerDecoder.decodeForced(body, maxBytes: Base64LayerDecoder.maxDecodedBytes) {
        case .success(let decoded) where decoded.starts(with: Zstd.magic):
            // The zstd decoder refused it (and said why), or its header is invalid.
            scan.fail(.parse, at: text.offset, "a body marked base64 holds zstd data that cannot be decompressed; what it holds is not checked")
        case .success(let decoded):
            if let coding = entry?.responseCoding, case .success(let decompressed) = decoded.withUnsafeBytes(coding.decode) {
                let outer = location()
                let frame = LayerFrame(path: outer.path.entering(coding.layerName), outerOffset: text.offset,
                                       outerKey: outer.key, ancestry: outer.ancestry, depth: 2, readerContext: nil)
                _ = scan.scanTextLayer(decompressed, frame: frame)
                return
            }
            _ = decoded.withUnsafeBytes { scan.scanPatterns($0, offset: text.offset, locate: location) }
        case .failure(let error):
            scan.fail(.limit, at: text.offset, "a body marked base64: \(error.message); what it holds is not checked")
        }
    }

    /// Decides the entry's context and whether it is a token exchange or another call of the
    /// sign-in, then resolves its hits.
    private mutating func closeEntry() {
        guard let entry else { return }
        let path = entry.urlPath ?? ""
        // The app's sign-in and metadata calls are never sync data, whatever a marker says.
        let context = scan.options.context ?? (entry.isSync ? .sync : .payload)
        scan.facts[entry.id, default: ContainerFacts()].context = context
        if entry.requestHasTokenMarkers || (path.hasSuffix("/token") && entry.responseIssuesToken) {
            for id in entry.bodyIds { scan.facts[id, default: ContainerFacts()].carrier = .transport }
        }
        // A call of the sign-in carries its credentials by design, in its URL (the callback's
        // fragment) as in its bodies; a metadata call carries protocol fields, not sync data.
        let signIn = entry.route == .signIn || (entry.showsSignIn && !entry.isSync)
        if signIn || entry.route == .metadata {
            for id in [entry.requestId, entry.responseId].compactMap({ $0 }) {
                if signIn { scan.facts[id, default: ContainerFacts()].carrier = .transport }
                scan.facts[id, default: ContainerFacts()].isProtocolField = true
            }
        }
        self.entry = nil
        scan.finishDocument(defaultContext: .payload, isRequest: true)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
