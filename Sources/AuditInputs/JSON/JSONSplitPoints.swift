import AuditBytes

/// Where an element of an array starts: its first byte, after any whitespace.
public struct JSONArrayElement: Equatable, Sendable {
    /// 0 for the array's first element.
    public let index: Int
    /// Absolute byte offset.
    public let offset: Int

    public init(index: Int, offset: Int) {
        self.index = index
        self.offset = offset
    }
}

/// What `JSONSplitPoints` could not follow. None of them is a syntax error report: the caller
/// reads the text serially, and its reader says what is wrong, if anything is.
public enum JSONSplitFailure: Error, Equatable, Sendable {
    /// A `}` or `]` that closes nothing, or a container of the other kind.
    case unbalanced(at: Int)
    /// A byte where an element must start, or a `:` in the array.
    case unexpectedByte(at: Int)
    /// A key of an object on the path holds a backslash: it may spell the path's key with
    /// escapes, which are not decoded here.
    case escapedKey(at: Int)
    /// The input ended before the array did (`at` is the input's end).
    case truncated(at: Int)
}

/// The split points of one array of a JSON text: the offset of its `[` and of each element's
/// first byte, found from the structural characters outside strings (`JSONStructuralScanner`)
/// without reading the values, so that the elements can be read apart, in parallel.
///
/// The array is the value reached from the root by `path`, a list of object keys
/// (`["log", "entries"]` in a HAR; `[]` for a top-level array); keys compare byte for byte and
/// the first matching key of each object is followed. The text is fed in pieces of any size at
/// their absolute offsets, and the search may stop at the first element at or after
/// `stopOffset`. It does not validate the text, but on valid JSON every split point it reports
/// is right; where it cannot follow (a key with escapes on the path, unbalanced brackets, a
/// byte that starts no value) it fails rather than guess, and the caller reads serially.
public struct JSONSplitPoints: Sendable {
    public enum Status: Equatable, Sendable {
        /// The array is not reached yet.
        case searching
        /// Inside the array, reading its elements.
        case inArray
        /// An element started at or after `stopOffset`: feeding more from `position` (with a
        /// later `stopOffset`, or none) goes on.
        case stopped
        /// The array closed, at `arrayEnd`.
        case finished
        /// The path leads to no array: a key is absent, or a value on the path is of another
        /// kind.
        case notFound
        case failed(JSONSplitFailure)
    }

    /// The object keys from the root to the array.
    public let path: [String]
    /// Feeding stops once an element starts at or after this offset (that element recorded).
    public var stopOffset: Int?
    public private(set) var status: Status = .searching
    /// Absolute offset of the array's `[`.
    public private(set) var arrayStart: Int?
    /// Absolute offset of the array's `]`.
    public private(set) var arrayEnd: Int?
    /// The elements found so far, in order. 16 bytes each: an array of a million elements
    /// costs 16 MB.
    public private(set) var elements: [JSONArrayElement] = []
    /// Absolute offset where the next piece must start: the end of the last one, or, when
    /// stopped, the start of the element that stopped the search. Nil before the first piece.
    public private(set) var position: Int?

    /// Each key of `path` as UTF-8.
    private let keys: [[UInt8]]
    /// The array's depth: 1 for the root.
    private let targetDepth: Int
    private var scanner = JSONStructuralScanner()
    /// Open containers.
    private var depth = 0
    /// Bit d is set when the container at depth d + 1 is an object, for the first 64 depths;
    /// `deeperObjectBits` holds the others, 64 to a word.
    private var objectBits: UInt64 = 0
    private var deeperObjectBits: [UInt64] = []
    /// The containers at depths 1 through `onPath` are the path's.
    private var onPath = 0
    /// The on-path object expects a key next (after its `{` or a `,`).
    private var expectingKey = false
    /// The key being read in the on-path object.
    private var key: KeyCapture?
    /// The on-path object's last key is the path's (until its `:`).
    private var keyMatched = false
    /// What the next non-whitespace byte starts.
    private var pending: Pending? = .pathValue
    /// The offset of the byte that opens the next container of the path.
    private var pathValueOffset: Int?
    /// Bytes of a UTF-8 byte-order mark read before the root.
    private var byteOrderMarkBytes = 0
    /// Absolute offset of the first piece.
    private var firstOffset = 0

    private enum Pending {
        /// The root, or the value of the path's key: the next container of the path, or no
        /// array there.
        case pathValue
        /// An element of the array, or (as the first) the array's `]`.
        case element
    }

    private struct KeyCapture {
        /// Absolute offset of the key's first byte (after its quote).
        var start: Int
        /// The key's first bytes, up to one more than the path's key.
        var bytes: [UInt8] = []
        var length = 0
        var hasBackslash = false
    }

    /// A search for the array at `path` (`[]`: the root array).
    public init(path: [String] = [], stopOffset: Int? = nil) {
        self.path = path
        self.stopOffset = stopOffset
        keys = path.map { Array($0.utf8) }
        targetDepth = path.count + 1
    }

    /// The split points of the array at `path` in `bytes`, whose first byte is at absolute
    /// offset `offset`: fed whole, then finished unless stopped.
    public static func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0, path: [String] = [],
                            stopOffset: Int? = nil) -> JSONSplitPoints {
        var points = JSONSplitPoints(path: path, stopOffset: stopOffset)
        if points.feed(bytes, at: offset) { points.finish() }
        return points
    }

    /// The first element starting at or after `offset`, among those found so far.
    public func firstElement(atOrAfter offset: Int) -> JSONArrayElement? {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if elements[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        return low < elements.count ? elements[low] : nil
    }

    /// Reads the next piece of the text, which starts at absolute `offset` (`position`, after
    /// the first piece). Returns whether more is wanted: false once the array is closed, not
    /// found, failed, or stopped.
    @discardableResult
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        switch status {
        case .searching, .inArray: break
        case .stopped: status = .inArray
        case .finished, .notFound, .failed: return false
        }
        if let position {
            precondition(offset == position, "JSONSplitPoints: a piece at \(offset), expected at \(position)")
        } else {
            firstOffset = offset
        }
        position = offset + chunk.count
        guard let raw = chunk.baseAddress, chunk.count > 0 else { return true }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = chunk.count
        if pending != nil, !resolvePending(base, from: 0, count: count, offset: offset) { return false }
        var blockStart = 0
        while blockStart < count {
            let blockCount = min(StructuralClassifier.blockSize, count - blockStart)
            let masks = blockCount == StructuralClassifier.blockSize
                ? scanner.next(block: base + blockStart)
                : scanner.next(partial: UnsafeBufferPointer(start: base + blockStart, count: blockCount))
            if !readBlock(masks, base, blockStart: blockStart, count: count, offset: offset) { return false }
            blockStart += StructuralClassifier.blockSize
        }
        if key != nil { appendKeyBytes(base, from: max(key!.start - offset, 0), to: count) }
        return true
    }

    /// The input has ended: an array not closed by now is a failure.
    public mutating func finish() {
        switch status {
        case .searching, .inArray: status = .failed(.truncated(at: position ?? 0))
        case .stopped, .finished, .notFound, .failed: break
        }
    }

    /// The events of one block: structural characters outside strings and, until the array is
    /// reached, quotes (for the keys of the path's objects). Returns false to stop feeding.
    private mutating func readBlock(_ masks: JSONBlockMasks, _ base: UnsafePointer<UInt8>, blockStart: Int, count: Int,
                                    offset: Int) -> Bool {
        guard case .searching = status else {
            return readElements(masks.structuralOutsideStrings, base, blockStart: blockStart, count: count, offset: offset)
        }
        var events = masks.structuralOutsideStrings | masks.quotes
        while events != 0 {
            let bit = events.trailingZeroBitCount
            events &= events &- 1
            let i = blockStart + bit
            let byte = base[i]
            switch byte {
            case UInt8(ascii: "\""):
                guard depth == onPath, depth > 0 else { break }
                if masks.inString & (1 &<< UInt64(bit)) != 0 {
                    if expectingKey {
                        expectingKey = false
                        key = KeyCapture(start: offset + i + 1)
                    }
                } else if key != nil {
                    appendKeyBytes(base, from: max(key!.start - offset, 0), to: i)
                    let read = key!
                    key = nil
                    if read.hasBackslash { return fail(.escapedKey(at: read.start - 1)) }
                    keyMatched = read.length == keys[onPath - 1].count && read.bytes == keys[onPath - 1]
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                push(isObject: byte == UInt8(ascii: "{"))
                guard pathValueOffset == offset + i else { break }
                pathValueOffset = nil
                onPath = depth
                if onPath == targetDepth {
                    arrayStart = offset + i
                    status = .inArray
                    pending = .element
                    if !resolvePending(base, from: i + 1, count: count, offset: offset) { return false }
                    return readElements(events & masks.structuralOutsideStrings, base, blockStart: blockStart, count: count,
                                        offset: offset)
                }
                expectingKey = true
                keyMatched = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let closesPath = depth == onPath
                guard pop(isObject: byte == UInt8(ascii: "}")) else { return fail(.unbalanced(at: offset + i)) }
                if closesPath {
                    status = .notFound
                    return false
                }
            case UInt8(ascii: ","):
                if depth == onPath {
                    expectingKey = true
                    keyMatched = false
                }
            default: // ":"
                if depth == onPath, keyMatched {
                    keyMatched = false
                    pending = .pathValue
                    if !resolvePending(base, from: i + 1, count: count, offset: offset) { return false }
                }
            }
        }
        return true
    }

    /// The structural characters `events` of a block in the array: only brackets and the
    /// array's own commas matter. Returns false to stop feeding.
    private mutating func readElements(_ events: UInt64, _ base: UnsafePointer<UInt8>, blockStart: Int, count: Int,
                                       offset: Int) -> Bool {
        var events = events
        while events != 0 {
            let i = blockStart + events.trailingZeroBitCount
            events &= events &- 1
            let byte = base[i]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                push(isObject: byte == UInt8(ascii: "{"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard pop(isObject: byte == UInt8(ascii: "}")) else { return fail(.unbalanced(at: offset + i)) }
                if depth < targetDepth {
                    arrayEnd = offset + i
                    status = .finished
                    return false
                }
            case UInt8(ascii: ","):
                if depth == targetDepth {
                    pending = .element
                    if !resolvePending(base, from: i + 1, count: count, offset: offset) { return false }
                }
            default: // ":"
                if depth == targetDepth { return fail(.unexpectedByte(at: offset + i)) }
            }
        }
        return true
    }

    /// Skips whitespace from `from`; the first other byte is what `pending` said it starts.
    /// Returns false to stop feeding. At the piece's end, `pending` waits for the next piece.
    private mutating func resolvePending(_ base: UnsafePointer<UInt8>, from: Int, count: Int, offset: Int) -> Bool {
        var i = from
        while i < count {
            let byte = base[i]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                i += 1
                continue
            default:
                break
            }
            if depth == 0, byteOrderMarkBytes < 3, offset + i == firstOffset + byteOrderMarkBytes,
               byte == (byteOrderMarkBytes == 0 ? 0xEF : byteOrderMarkBytes == 1 ? 0xBB : 0xBF) {
                // A UTF-8 byte-order mark before the root (`JSONReader` skips it too).
                byteOrderMarkBytes += 1
                i += 1
                continue
            }
            let start = offset + i
            switch pending! {
            case .pathValue:
                pending = nil
                guard byte == (onPath == keys.count ? UInt8(ascii: "[") : UInt8(ascii: "{")) else {
                    status = .notFound
                    return false
                }
                pathValueOffset = start
            case .element:
                pending = nil
                switch byte {
                case UInt8(ascii: "]") where elements.isEmpty:
                    break // an empty array: the `]` is read as an event
                case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    elements.append(JSONArrayElement(index: elements.count, offset: start))
                    if let stopOffset, start >= stopOffset {
                        // Nothing crosses into the element: no string is open and the byte
                        // before it escapes nothing, so the scan resumes there afresh.
                        status = .stopped
                        position = start
                        scanner = JSONStructuralScanner()
                        return false
                    }
                default:
                    return fail(.unexpectedByte(at: start))
                }
            }
            return true
        }
        return true
    }

    /// Adds the key's bytes `from..<to` of the piece at `base`.
    private mutating func appendKeyBytes(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        guard from < to else { return }
        let limit = keys[onPath - 1].count + 1
        for i in from..<to {
            let byte = base[i]
            if byte == UInt8(ascii: "\\") { key!.hasBackslash = true }
            if key!.bytes.count < limit { key!.bytes.append(byte) }
        }
        key!.length += to - from
    }

    @inline(__always)
    private mutating func push(isObject: Bool) {
        let bit: UInt64 = 1 &<< UInt64(depth & 63)
        if depth < 64 {
            if isObject { objectBits |= bit } else { objectBits &= ~bit }
        } else {
            let word = (depth >> 6) - 1
            if word == deeperObjectBits.count { deeperObjectBits.append(0) }
            if isObject { deeperObjectBits[word] |= bit } else { deeperObjectBits[word] &= ~bit }
        }
        depth += 1
    }

    /// Closes the innermost container; false when there is none or it is of the other kind.
    @inline(__always)
    private mutating func pop(isObject: Bool) -> Bool {
        guard depth > 0 else { return false }
        depth -= 1
        let word = depth < 64 ? objectBits : deeperObjectBits[(depth >> 6) - 1]
        return (word &>> UInt64(depth & 63)) & 1 == (isObject ? 1 : 0)
    }

    private mutating func fail(_ failure: JSONSplitFailure) -> Bool {
        status = .failed(failure)
        return false
    }
}
