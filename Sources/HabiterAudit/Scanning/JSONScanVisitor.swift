/// Scans one JSON text (an input, an NDJSON line, or an embedded layer) as the reader walks it:
/// tracks the path and the open containers, runs the name rules on keys and the pattern rules on
/// keys and string values, and opens JSON held in strings as inner layers.
struct JSONScanVisitor: JSONVisitor {
    private enum Segment {
        /// A key, unescaped, as a byte range of `keyArena`.
        case key(start: Int, count: Int)
        case index(Int)
    }

    private struct Container {
        var id: Int
        var isObject: Bool
        var nextIndex = 0
        var keys: ShapeKeys = []
        /// For an array under a sensitive name: every element is judged by that name.
        var elementName: NameMatch?
        /// Pending hits when the container opened: its shape matters only if hits followed.
        var hitsAtOpen = 0
    }

    private let scan: ArtifactScan
    private let layer: LayerFrame
    private var segments: [Segment] = []
    /// The keys on the current path (and the pending key), unescaped, back to back. The input's
    /// bytes do not outlive the token, so keys are copied here.
    private var keyArena: [UInt8] = []
    private var containers: [Container] = []
    private var pendingKey: Segment?
    private var pendingName: NameMatch?
    private var unescaped: [UInt8] = []

    init(scan: ArtifactScan, layer: LayerFrame) {
        self.scan = scan
        self.layer = layer
    }

    // MARK: Events

    mutating func objectStart(at offset: Int) {
        beginValue()
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an object", at: offset) }
        containers.append(Container(id: nextId(), isObject: true, hitsAtOpen: scan.pending.count))
    }

    mutating func objectEnd(at offset: Int) {
        let container = containers.removeLast()
        if scan.pending.count > container.hitsAtOpen, let shape = container.keys.shape(isRoot: containers.isEmpty && layer.depth == 0) {
            scan.facts[container.id, default: ContainerFacts()].shape = shape
        }
        endValue()
    }

    mutating func arrayStart(at offset: Int) {
        beginValue()
        if let name = pendingName { recordName(name, credible: false, valueDescription: "an array", at: offset) }
        containers.append(Container(id: nextId(), isObject: false, elementName: pendingName))
    }

    mutating func arrayEnd(at offset: Int) {
        containers.removeLast()
        endValue()
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        let start = keyArena.count
        unescaping(raw, escaped) { visitor, key in
            visitor.keyValue(key, at: offset)
            visitor.keyArena.append(contentsOf: key)
        }
        pendingKey = .key(start: start, count: keyArena.count - start)
    }

    /// Calls `body` with the string content unescaped: the raw bytes when there is no escape,
    /// else the scratch buffer, borrowed so that `body` may mutate the visitor.
    private mutating func unescaping(_ raw: UnsafeBufferPointer<UInt8>, _ escaped: Bool,
                                     _ body: (inout JSONScanVisitor, UnsafeBufferPointer<UInt8>) -> Void) {
        guard escaped else { return body(&self, raw) }
        var buffer: [UInt8] = []
        swap(&buffer, &unescaped)
        buffer.removeAll(keepingCapacity: true)
        JSONString.unescape(raw, into: &buffer)
        buffer.withUnsafeBufferPointer { body(&self, $0) }
        swap(&buffer, &unescaped)
    }

    /// A key, unescaped: shape flags, name rules, and pattern rules (a secret used as a key is
    /// reported, and never printed again).
    private mutating func keyValue(_ key: UnsafeBufferPointer<UInt8>, at offset: Int) {
        containers[containers.count - 1].keys.formUnion(ShapeKeys.flag(of: key))
        pendingName = scan.nameMatch(key)
        if key.count >= scan.rules.patterns.minimumValueLength {
            let found = scan.scanPatterns(UnsafeRawBufferPointer(key), offset: layer.outerOffset ?? offset) {
                HitLocation(key: nil, path: currentPath().appending(.key(Redaction.maskedKey)), ancestry: ancestry(),
                            readerContext: layer.readerContext, carrier: layer.carrier)
            }
            if found > 0 { scan.maskedKeys.insert(Array(key)) }
        }
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        beginValue()
        unescaping(raw, escaped) { visitor, value in visitor.stringValue(UnsafeRawBufferPointer(value), at: offset) }
        endValue()
    }

    /// A string value, unescaped.
    private mutating func stringValue(_ value: UnsafeRawBufferPointer, at offset: Int) {
        if containers.count == 1 && layer.depth == 0, case .key(let s, let c)? = segments.last,
           keyArena[s..<s + c].elementsEqual("format".utf8), value.elementsEqual("habiter.backup".utf8) {
            containers[0].keys.insert(.backupFormat)
        }
        scan.scanNamedString(value, name: pendingName, at: layer.outerOffset ?? offset, depth: layer.depth) { location() }
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {
        beginValue()
        if let name = pendingName { recordName(name, credible: false, valueDescription: "a number", at: offset) }
        endValue()
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) {
        beginValue()
        if let name = pendingName {
            recordName(name, credible: false, valueDescription: value == .null ? "null" : "a boolean", at: offset)
        }
        endValue()
    }

    // MARK: Path and containers

    private mutating func beginValue() {
        guard let top = containers.last else { return }
        if top.isObject {
            segments.append(pendingKey!)
        } else {
            segments.append(.index(top.nextIndex))
            containers[containers.count - 1].nextIndex += 1
            pendingName = top.elementName
        }
    }

    private mutating func endValue() {
        pendingName = nil
        guard !containers.isEmpty else { return }
        if case .key(let start, _) = segments.removeLast() {
            keyArena.removeLast(keyArena.count - start)
        }
    }

    private func nextId() -> Int {
        defer { scan.nextContainerId += 1 }
        return scan.nextContainerId
    }

    /// The id of the innermost open container.
    var currentContainerId: Int? { containers.last?.id }

    private func ancestry() -> [Int] {
        layer.ancestry + containers.map(\.id)
    }

    private func keyText(_ segment: Segment) -> String {
        guard case .key(let start, let count) = segment else { return "" }
        let bytes = Array(keyArena[start..<start + count])
        return scan.maskedKeys.contains(bytes) ? Redaction.maskedKey : String(decoding: bytes, as: UTF8.self)
    }

    /// The JSON Pointer of the current value, across layers.
    private func currentPath() -> LayeredPath {
        var path = layer.path
        for segment in segments {
            switch segment {
            case .key: path = path.appending(.key(keyText(segment)))
            case .index(let i): path = path.appending(.index(i))
            }
        }
        return path
    }

    /// The nearest object key enclosing the current value.
    private func nearestKey() -> String? {
        for segment in segments.reversed() {
            if case .key = segment { return keyText(segment) }
        }
        return layer.outerKey
    }

    /// The location of the current value.
    func location() -> HitLocation {
        HitLocation(key: nearestKey(), path: currentPath(), ancestry: ancestry(), readerContext: layer.readerContext,
                    carrier: layer.carrier)
    }

    private func recordName(_ match: NameMatch, credible: Bool, valueDescription: String, at offset: Int) {
        scan.recordNameHit(match, credible: credible, valueDescription: valueDescription,
                           at: layer.outerOffset ?? offset, location: location())
    }
}
