import AuditCore
import AuditDetection
import AuditInputs

/// Where a text being scanned sits in the input: the input itself, or a layer decoded from a
/// string value of an outer text.
struct LayerFrame {
    /// The string that carries this layer, located when first asked; nil when the place is
    /// given as the frame is made (the `given` fields). Given fields are stored, not one value
    /// to switch over: every location made in the input (a given place, which a hit-heavy input
    /// asks for at every value) copied the whole frame with its retains, +17 % on the
    /// adversarial sensitive-keys input.
    private let origin: LayerOrigin?
    /// Without an origin, the path up to and including this layer's decoder; with one, the
    /// layers after the origin's path, this layer's decoder first.
    private var ownPath: LayeredPath
    private let givenKey: String?
    private let givenAncestry: [Int]
    private let givenReaderContext: ScanContext?
    private let givenCarrier: Family?
    private let givenIsProtocolField: Bool
    /// The offset of the outer string that carries this layer; nil for the input itself.
    var outerOffset: Int?
    /// How many layers are open around this one.
    var depth: Int

    init(path: LayeredPath, outerOffset: Int?, outerKey: String?, ancestry: [Int], depth: Int, readerContext: ScanContext?,
         carrier: Family? = nil, isProtocolField: Bool = false) {
        origin = nil
        ownPath = path
        (givenKey, givenAncestry, givenReaderContext, givenCarrier, givenIsProtocolField) = (outerKey, ancestry, readerContext, carrier, isProtocolField)
        self.outerOffset = outerOffset
        self.depth = depth
    }

    /// The layer `decoder` opened in the string at `origin`.
    init(origin: LayerOrigin, decoder: String, outerOffset: Int, depth: Int) {
        self.origin = origin
        ownPath = LayeredPath(layers: [LayeredPath.Layer(decoder: decoder, tokens: [])])
        (givenKey, givenAncestry, givenReaderContext, givenCarrier, givenIsProtocolField) = (nil, [], nil, nil, false)
        self.outerOffset = outerOffset
        self.depth = depth
    }

    static func input(path: LayeredPath = LayeredPath(), readerContext: ScanContext? = nil, carrier: Family? = nil) -> LayerFrame {
        LayerFrame(path: path, outerOffset: nil, outerKey: nil, ancestry: [], depth: 0, readerContext: readerContext, carrier: carrier)
    }

    /// The path up to and including this layer's decoder.
    @inline(__always) var path: LayeredPath {
        guard let origin else { return ownPath }
        return LayeredPath(layers: origin.fact { $0.path.layers } + ownPath.layers)
    }

    /// The decoder that opened the innermost layer (nil for the input itself).
    @inline(__always) var decoder: String? { ownPath.layers.last?.decoder }
    /// The nearest name outside this layer.
    @inline(__always) var outerKey: String? { origin.map { $0.fact { $0.key } } ?? givenKey }
    /// Container ids enclosing this layer.
    @inline(__always) var ancestry: [Int] { origin.map { $0.fact { $0.ancestry } } ?? givenAncestry }
    /// A context the reader fixed for everything in this text (e.g. a HAR entry to the sync API).
    @inline(__always) var readerContext: ScanContext? { origin.map { $0.fact { $0.readerContext } } ?? givenReaderContext }
    /// `transport` when the protocol carries everything in this text (see `HitLocation`).
    @inline(__always) var carrier: Family? { origin.map { $0.fact { $0.carrier } } ?? givenCarrier }
    /// Everything in this text is a protocol field (see `HitLocation`).
    @inline(__always) var isProtocolField: Bool { origin.map { $0.fact { $0.isProtocolField } } ?? givenIsProtocolField }
    /// The name rule the name of the string that carries this layer matches: each element of a
    /// list at the layer's root is judged by it (`{"password": "[\"…\"]"}` as `{"password":
    /// ["…"]}`). Not the root itself: the carrying string's own name hit stands for it.
    @inline(__always) var rootName: NameMatch? { origin?.name }
    /// The context rules the name of the string that carries this layer speaks for
    /// (`KeyFacts.contextRules`): what the layer holds at its root is read with them, as the
    /// string itself is (a provider's key over base64 of its token, or over JSON text of a
    /// list of tokens). An object there is read by its own keys, as under the key itself.
    @inline(__always) var context: ContextMask { origin?.context ?? 0 }

    /// The same text read as another decoder's (NDJSON where JSON was expected).
    mutating func renameLayer(to decoder: String) {
        ownPath.layers[ownPath.layers.count - 1].decoder = decoder
    }

    /// This frame with `token` appended to its innermost layer's path.
    func appending(_ token: PathToken) -> LayerFrame {
        var frame = self
        frame.ownPath.append(token)
        return frame
    }

    /// This frame with a layer opened by `decoder` inside it.
    func entering(_ decoder: String) -> LayerFrame {
        var frame = self
        frame.ownPath = ownPath.entering(decoder)
        return frame
    }

    /// The offset and depth of this text, all its visitor and its drafts read of it.
    var position: LayerPosition { LayerPosition(outerOffset: outerOffset, depth: depth) }

    /// Where a hit at the root of this text sits.
    var location: HitLocation { location(key: outerKey, at: path) }

    /// Where a hit inside this text sits, under `key` at `path`, with the facts of this layer.
    func location(key: String?, at path: LayeredPath) -> HitLocation {
        HitLocation(key: key, path: path, ancestry: ancestry, readerContext: readerContext, carrier: carrier,
                    isProtocolField: isProtocolField)
    }
}

/// Where a text sits by offset and depth: what a JSON text's visitor and its drafts need of
/// its frame. A value without references: each kept a copy of the frame, retained and released
/// with its origin and path (two atomic counts each) every time a layer's visitor was taken for
/// another text, where the path tracker's copy is the one that locations need.
struct LayerPosition {
    /// The offset of the outer string that carries the text; nil for the input itself.
    var outerOffset: Int?
    /// How many layers are open around the text.
    var depth: Int
}

extension ArtifactScan {
    /// Offers a string value to the layer decoders and scans every layer they open. Says whether
    /// a layer opened, and whether one replaces the value, so the caller does not scan the value
    /// as text.
    ///
    /// `offset` is the position to report (the outermost string's); `locate` gives the value's
    /// location and is asked only when a hit in a layer needs it. A layer that turns out not to
    /// be one (text that starts like JSON but is not) is forgotten, hits and errors included: a
    /// value that is not a decoder's kind is not an error, it is scanned as text; one the decoder
    /// recognises and refuses is (see `nextLayer`). A layer beyond `options.maxLayerDepth` is a
    /// limit error: what it holds is not checked.
    /// `excluded` are decoders not to try (the one that split off a value as it was written).
    /// `context`: the context rules the value's name speaks for, which speak for what its layers
    /// hold at their roots (`LayerFrame.context`); `name`: the name rule its name matches, which
    /// judges a list there (`LayerFrame.rootName`).
    func openLayers(_ value: UnsafeRawBufferPointer, at offset: Int, depth: Int, excluding excluded: UInt16 = 0,
                    name: NameMatch? = nil, context: ContextMask = 0, locate: () -> HitLocation) -> OpenedLayers {
        var candidates = layerDecoders.candidates(value) & ~excluded
        guard let first = nextLayer(of: value, at: offset, candidates: &candidates) else { return OpenedLayers() }
        return withoutActuallyEscaping(locate) { locate in
            // The value's location, made only if a hit inside asks for it (`LayerOrigin`).
            let origin = LayerOrigin(locate, name: name, context: context)
            if !options.locatesLayersWhenAsked { _ = origin.location }
            defer {
                if origin.isLocated { layerOriginsLocated += 1 }
                origin.close()
            }
            var opened = OpenedLayers(any: true)
            var next: (layer: DecodedLayer, decoder: Int)? = first
            while let (layer, index) = next {
                if depth == 0 && base64Decoder == 1 << UInt16(index) { base64RecognisedOutside = true }
                let name = layerDecoders.decoders[index].name
                guard depth < options.maxLayerDepth else {
                    fail(.limit, at: offset, "encoded layers nested deeper than the limit of \(options.maxLayerDepth): the \(name) layer inside is not checked")
                    return OpenedLayers(any: true)
                }
                let frame = LayerFrame(origin: origin, decoder: name, outerOffset: offset, depth: depth + 1)
                if scanLayer(layer, of: value, frame: frame) && layer.replacesValue { opened.replacedValue = true }
                next = nextLayer(of: value, at: offset, candidates: &candidates)
            }
            return opened
        }
    }

    /// The next layer that a decoder of `candidates` opens, and the decoder's index; the decoders
    /// tried are taken off `candidates`. A layer a decoder recognises and refuses is an input
    /// error at `offset`, and the next decoder is tried.
    private func nextLayer(of value: UnsafeRawBufferPointer, at offset: Int, candidates: inout UInt16) -> (layer: DecodedLayer, decoder: Int)? {
        while candidates != 0 {
            let index = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            do {
                if let layer = try layerDecoders.decoders[index].decode(value) { return (layer, index) }
            } catch {
                fail(error.kind == .limit ? .limit : .parse, at: offset, error.reason)
            }
        }
        return nil
    }

    /// Scans a layer decoded from `value` in `frame`; false when it is not that content after all
    /// (text that starts like JSON but is not), in which case nothing was recorded.
    private func scanLayer(_ layer: DecodedLayer, of value: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        switch layer.content {
        case .json: return layer.bytes.withUnsafeBytes { scanJSONLayer($0, frame: frame) }
        case .valueIsJSON: return scanJSONLayer(value, frame: frame)
        case .valueIsXML: return scanXMLLayer(value, frame: frame)
        case .valueIsHTTP: return scanHTTPLayer(value, frame: frame)
        case .text: return scanTextLayer(layer.bytes, frame: frame)
        case .pairs(let list): return scanPairs(list.pairs(in: value), frame: frame)
        }
    }

    /// JSON text, or else NDJSON text (an operation log as a request body).
    func scanJSONLayer(_ text: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        var reader = JSONReader(text, maxDepth: options.maxDepth)
        return readJSONLayer(&reader, frame: frame) || scanNDJSONLayer(text, frame: frame)
    }

    /// NDJSON held in a string: two or more lines, each one JSON text (blank lines allowed), read
    /// as the array of its documents: the path goes on `!ndjson/<document index>`. When a line is
    /// not JSON, forgets what it recorded and returns false.
    private func scanNDJSONLayer(_ bytes: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        guard bytes.contains(0x0A) else { return false }
        let mark = hitMark
        let errorMark = errorCount
        var ndjson = frame
        ndjson.renameLayer(to: "ndjson")
        var documents = 0
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            lineStart = lineEnd + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let document = ndjson.appending(.index(documents))
            var reader = JSONReader(line, maxDepth: options.maxDepth)
            guard readJSONLayer(&reader, frame: document) else {
                rollBackHits(to: mark)
                rollBackErrors(to: errorMark)
                return false
            }
            documents += 1
        }
        if documents < 2 {
            rollBackHits(to: mark)
            rollBackErrors(to: errorMark)
            return false
        }
        return true
    }

    /// Reads one JSON text with `reader` as a layer in `frame`; when it is not JSON after all,
    /// forgets what it recorded and returns false.
    func readJSONLayer(_ reader: inout JSONReader, frame: LayerFrame) -> Bool {
        let mark = (hits: hitMark, errors: errorCount)
        var visitor = takeLayerVisitor(for: frame)
        do {
            try reader.readText(&visitor)
            keepLayerVisitor(consume visitor)
            return true
        } catch {
            return layerReadFailed(error, frame: frame, since: mark) { error in
                guard let syntax = error as? JSONSyntaxError, case .nestingTooDeep = syntax.reason else { return nil }
                return (.limit, "JSON in a string nested deeper than the limit of \(options.maxDepth): its keys are not checked")
            }
        }
    }

    /// What a layer's reader threw, handled; whether the layer stands. A document limit: the
    /// content all the same, too large to check in full, so the input fails closed (true). Any
    /// other error: the text is not that content after all, and what the layer recorded since
    /// `mark` is forgotten (false); but an error that `refusal` names (nesting beyond the
    /// reader's limit, an XML DTD) says it is that content all the same, not read in full: an
    /// input error of that kind and reason.
    func layerReadFailed(_ error: any Error, frame: LayerFrame, since mark: (hits: HitMark, errors: Int),
                         refusal: (any Error) -> (kind: InputError.Kind, reason: String)?) -> Bool {
        if let limit = error as? DocumentLimit {
            fail(.limit, at: frame.outerOffset ?? limit.offset, limit.message)
            return true
        }
        rollBackHits(to: mark.hits)
        rollBackErrors(to: mark.errors)
        if let (kind, reason) = refusal(error) { fail(kind, at: frame.outerOffset, reason) }
        return false
    }

    /// Named values: each judged by its name and scanned like an object member's value. The
    /// `code` and `state` of an OAuth authorization response in a fragment or form (Habiter's
    /// callback, its desktop loopback POST) are judged by `name.authorization-response`.
    func scanPairs(_ pairs: PairList.Pairs, frame: LayerFrame) -> Bool {
        let responseRule = authorizationResponseRule.flatMap { rule in
            frame.decoder.map { HabiterAPI.authorizationResponseLayers.contains($0) } == true
                && HabiterAPI.isAuthorizationResponse(pairs) ? rule : nil
        }
        let splitter = layerDecoders.mask(named: frame.decoder)
        pairs.forEachInPlace { pairName, value, isVerbatim in
            var name = nameMatch(pairName.assumingMemoryBound(to: UInt8.self))
            if let responseRule, pairName.elementsEqual(HabiterAPI.codeName) || pairName.elementsEqual(HabiterAPI.stateName) {
                let word = String(decoding: pairName, as: UTF8.self)
                name = NameMatch(ruleIndex: responseRule, words: [word], matchedName: "authorizationresponse", describesMetadata: false)
            }
            // The location is made only for a hit: a form can hold a million fields.
            scanNamedString(value, name: name, at: frame.outerOffset ?? 0, depth: frame.depth,
                            excluding: isVerbatim ? splitter : 0, carriedByProtocol: frame.isProtocolField) {
                let key = String(decoding: pairName, as: UTF8.self)
                return HitLocation(key: key, path: frame.path.appending(.key(key)), ancestry: frame.ancestry,
                                   readerContext: frame.readerContext, carrier: frame.carrier, isProtocolField: frame.isProtocolField)
            }
        }
        return true
    }

    /// Decoded text: itself offered to the decoders, else scanned with the pattern rules.
    func scanTextLayer(_ text: [UInt8], frame: LayerFrame) -> Bool {
        text.withUnsafeBytes { bytes in
            if !openLayers(bytes, at: frame.outerOffset ?? 0, depth: frame.depth, name: frame.rootName, context: frame.context,
                           locate: { frame.location }).replacedValue {
                _ = scanPatterns(bytes, offset: frame.outerOffset ?? 0, context: frame.context) { frame.location }
            }
        }
        return true
    }
}

/// What `openLayers` did with a value.
struct OpenedLayers {
    /// A decoder opened a layer of it.
    var any = false
    /// A layer stands for the value, which is not scanned as text.
    var replacedValue = false
}
