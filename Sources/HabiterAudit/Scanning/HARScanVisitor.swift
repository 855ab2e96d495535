/// Scans a HAR capture as the JSON reader streams it. Each `log.entries[i]` is collected (its
/// bytes pinned in the window, its values in a small tree), judged as an `HTTPExchange`, and the
/// rest of the entry is scanned as plain JSON in the entry's context. Everything outside the
/// entries (creator, pages, comments) is scanned as plain JSON. Memory grows with the largest
/// entry, never with the number of entries.
struct HARScanVisitor: JSONVisitor {
    private let scan: ArtifactScan
    private var outside: JSONScanVisitor
    /// The key of each open container outside entries (nil for array elements and the root).
    private var keys: [String?] = []
    private var pendingKey: String?
    private var entry: JSONTreeBuilder?
    private var entryDepth = 0
    private var entryIndex = 0

    init(scan: ArtifactScan) {
        self.scan = scan
        outside = JSONScanVisitor(scan: scan, layer: .input(path: scan.rootPath))
    }

    /// Whether the container about to open is an entry: an object in `log.entries`.
    private var opensEntry: Bool {
        keys.count == 3 && keys[1] == "log" && keys[2] == "entries"
    }

    mutating func objectStart(at offset: Int) throws {
        if entry != nil {
            entryDepth += 1
            entry!.objectStart(at: offset)
            return
        }
        if opensEntry {
            scan.window.pin(at: offset)
            entry = JSONTreeBuilder()
            entryDepth = 1
            entry!.objectStart(at: offset)
            return
        }
        keys.append(pendingKey)
        pendingKey = nil
        try outside.objectStart(at: offset)
    }

    mutating func objectEnd(at offset: Int) throws {
        if entry != nil {
            entry!.objectEnd(at: offset)
            entryDepth -= 1
            if entryDepth == 0 { finishEntry() }
            return
        }
        keys.removeLast()
        try outside.objectEnd(at: offset)
    }

    mutating func arrayStart(at offset: Int) throws {
        if entry != nil {
            entryDepth += 1
            entry!.arrayStart(at: offset)
            return
        }
        keys.append(pendingKey)
        pendingKey = nil
        try outside.arrayStart(at: offset)
    }

    mutating func arrayEnd(at offset: Int) throws {
        if entry != nil {
            entry!.arrayEnd(at: offset)
            entryDepth -= 1
            return
        }
        keys.removeLast()
        try outside.arrayEnd(at: offset)
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if entry != nil { return entry!.key(raw, escaped: escaped, at: offset) }
        pendingKey = JSONString.decode(raw, escaped: escaped)
        try outside.key(raw, escaped: escaped, at: offset)
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if entry != nil { return entry!.string(raw, escaped: escaped, at: offset) }
        pendingKey = nil
        try outside.string(raw, escaped: escaped, at: offset)
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        if entry != nil { return entry!.number(raw, at: offset) }
        pendingKey = nil
        try outside.number(raw, at: offset)
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws {
        if entry != nil { return entry!.literal(value, at: offset) }
        pendingKey = nil
        try outside.literal(value, at: offset)
    }

    /// Judges a complete entry, then lets the window drop its bytes.
    private mutating func finishEntry() {
        defer {
            entry = nil
            entryIndex += 1
            scan.window.unpin()
        }
        guard let tree = entry?.result else { return }
        let path = scan.rootPath.appending(.key("log")).appending(.key("entries")).appending(.index(entryIndex))
        let (exchange, taken) = HAREntry.exchange(from: tree, path: path)
        let exchangeScanner = ExchangeScanner(scan: scan)
        let context = exchangeScanner.context(of: exchange, urlPath: exchange.urlPath)
        var rest = JSONScanVisitor(scan: scan, layer: .input(path: path, readerContext: context))
        try? JSONReplay.replay(tree, into: &rest, skipping: taken)
        exchangeScanner.scan(exchange, context: context)
        scan.finishDocument(defaultContext: .payload)
    }
}
