import AuditInputs
import AuditScan

/// Writes pretty JSON straight into bytes, laid out exactly as `JSONOutput.rendered()` lays out
/// the same value, for the long arrays of a report: a finding is written member by member instead
/// of being built as a tree, written, and freed. The bytes live in a buffer of its own, so that
/// each piece is stored in place after one check for room.
package struct JSONStreamWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// The number of elements written so far in each open container, outermost first: a stack
    /// in raw memory, `depth` deep, since every key and element reads and counts in it (as an
    /// array, each count was a uniqueness check; a key took 174 instructions).
    private let counts: UnsafeMutablePointer<Int>
    private var depth = 0
    /// Deeper than any parsed value it writes (`JSONReader.defaultMaxDepth`, a merged SARIF
    /// log's) with the containers around it.
    private static let maxDepth = JSONReader.defaultMaxDepth + 32
    /// Bytes kept free past what `reserve` is asked for: indentation is stored eight spaces at a
    /// time and may run past its end.
    private static let slack = 8

    /// Offered the writer after each long array's element (a finding): hands what was written
    /// on when enough has gathered; false when that fails.
    package struct Flush {
        /// Where the bytes go; nil while the whole text is kept (`rendered`).
        fileprivate let sink: ((UnsafeRawBufferPointer) -> Bool)?
        fileprivate let chunk: Int
        /// The threads that may write a long array's elements at once (`elements`).
        fileprivate let writers: Int

        package func callAsFunction(_ writer: inout JSONStreamWriter) -> Bool {
            guard let sink, writer.pendingCount >= chunk else { return true }
            return writer.flush(to: sink)
        }
    }

    /// The whole text `body` writes (given a flush that keeps everything), with room for
    /// `capacity` bytes made at once.
    package static func rendered(reserving capacity: Int, _ body: (inout JSONStreamWriter, Flush) -> Bool) -> String {
        var writer = JSONStreamWriter()
        writer.reserve(capacity)
        _ = body(&writer, Flush(sink: nil, chunk: .max, writers: 1))
        return writer.rendered()
    }

    /// Writes what `body` writes to `sink` as it is made, about `chunk` bytes at a time, so that
    /// a report of millions of findings is never held whole; false when the sink fails (it is
    /// not called again). A long array's elements may be written on up to `writers` threads
    /// (`elements`), the sink called by one at a time.
    package static func stream(chunk: Int, writers: Int = 1, to sink: (UnsafeRawBufferPointer) -> Bool,
                               _ body: (inout JSONStreamWriter, Flush) -> Bool) -> Bool {
        // The sink is only called while `stream` runs: the flush that holds it does not
        // outlive it.
        withoutActuallyEscaping(sink) { sink in
            var writer = JSONStreamWriter()
            writer.reserve(chunk + 4096)
            let written = body(&writer, Flush(sink: sink, chunk: chunk, writers: writers))
            return written && writer.finish(to: sink)
        }
    }

    /// Writes `count` elements of the innermost array, element `i` by `write(i, &writer)` after
    /// its separator, and offers the writer to `flush` after each; false when that fails. Where
    /// `flush` streams to a sink and allows more than one writer, the elements are written a
    /// block of `blockSize` at a time on that many threads, each into a writer of its own at
    /// this one's depth, and the blocks handed to the sink in order (`BlockTurns`): the bytes
    /// are those one writer writes. `write` must then be safe to call from several threads at
    /// once (it reads what it writes, and changes nothing else).
    package mutating func elements(_ count: Int, flush: Flush, blockSize: Int = 1024, _ write: (Int, inout JSONStreamWriter) -> Void) -> Bool {
        let blocks = (count + blockSize - 1) / blockSize
        guard let sink = flush.sink, flush.writers > 1, blocks > 1 else {
            for i in 0..<count {
                element()
                write(i, &self)
                guard flush(&self) else { return false }
            }
            return true
        }
        // What was written before the array's elements goes first.
        guard self.flush(to: sink) else { return false }
        let turns = BlockTurns(count: blocks)
        let stack = Array(UnsafeBufferPointer(start: counts, count: depth))
        withoutActuallyEscaping(write) { write in
            nonisolated(unsafe) let (write, sink) = (write, sink)
            WorkerThreads.run(count: min(flush.writers, blocks)) { _ in
                var writer = JSONStreamWriter(continuing: stack)
                while let block = turns.claim() {
                    let elements = block * blockSize..<min(count, (block + 1) * blockSize)
                    // Only the first element of the array has no comma before it.
                    writer.counts[writer.depth - 1] = stack[stack.count - 1] + elements.lowerBound
                    for i in elements {
                        writer.element()
                        write(i, &writer)
                    }
                    turns.handOn(block) { writer.flush(to: sink) }
                }
            }
        }
        counts[depth - 1] += count
        return !turns.failed
    }

    /// A writer inside the containers whose element counts `stack` holds, outermost first.
    private init(continuing stack: [Int]) {
        self.init()
        for (depth, count) in stack.enumerated() { counts[depth] = count }
        depth = stack.count
    }

    init() {
        capacity = 4096
        base = .allocate(capacity: capacity + JSONStreamWriter.slack)
        counts = .allocate(capacity: JSONStreamWriter.maxDepth)
    }

    deinit {
        base.deallocate()
        counts.deallocate()
    }

    /// Room for `more` bytes after those written, made at once rather than by growing.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(more) }
    }

    private mutating func grow(_ more: Int) {
        capacity = max(2 * capacity, count + more)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + JSONStreamWriter.slack)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
    }

    /// Opens an object (`{`) or an array (`[`) where a value is due.
    package mutating func open(_ bracket: Unicode.Scalar) {
        precondition(depth < JSONStreamWriter.maxDepth, "JSONStreamWriter nests at most \(JSONStreamWriter.maxDepth) containers")
        reserve(1)
        put(UInt8(ascii: bracket))
        counts[depth] = 0
        depth += 1
    }

    /// Closes the innermost container with `bracket` (`}` or `]`).
    package mutating func close(_ bracket: Unicode.Scalar) {
        depth -= 1
        reserve(2 + 2 * depth)
        if counts[depth] > 0 { putNewLine(depth: depth) }
        put(UInt8(ascii: bracket))
    }

    /// Begins the next element of the innermost container (as `JSONOutput.beginElement` does).
    package mutating func element() {
        reserve(2 + 2 * depth)
        putSeparator()
    }

    /// Begins the member `key` of the innermost object; its value comes next. The key is one
    /// of the report's own, which need no escaping. Inlined, so that each key's bytes are
    /// stored as constants.
    @inline(__always)
    package mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(2 + 2 * depth + length + 4)
        putSeparator()
        put(UInt8(ascii: "\""))
        (base + count).initialize(from: key.utf8Start, count: length)
        count += length
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        put(0x20)
    }

    /// Begins the member `key` of the innermost object, a key from an input: escaped.
    mutating func key(escaping key: String) {
        reserve(2 + 2 * depth)
        putSeparator()
        string(key)
        reserve(2)
        put(UInt8(ascii: ":"))
        put(0x20)
    }

    package mutating func string(_ value: String) {
        if value.utf8.withContiguousStorageIfAvailable({ string($0) }) == nil {
            var copy = value
            copy.withUTF8 { string($0) }
        }
    }

    private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(2 + JSONOutput.maxEscapedLength(bytes.count))
        put(UInt8(ascii: "\""))
        count += JSONOutput.writeEscaped(bytes, into: base + count)
        put(UInt8(ascii: "\""))
    }

    /// A string, or `null` when there is none.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// The raw value of one of the report's enums (level, family, context, confidence, baseline
    /// state), whose cases are plain words: copied without the escape scan, which took some 130
    /// instructions a string. `JSONEscapeTests.reportEnumWordsNeedNoEscape` holds every case to it.
    mutating func rawValue<Value: RawRepresentable>(_ value: Value) where Value.RawValue == String {
        var text = value.rawValue
        text.withUTF8 { bytes in
            assert(JSONOutput.needsNoEscape(bytes), "\(Value.self) has a case that needs an escape")
            reserve(bytes.count + 2)
            put(UInt8(ascii: "\""))
            if let start = bytes.baseAddress { (base + count).initialize(from: start, count: bytes.count) }
            count += bytes.count
            put(UInt8(ascii: "\""))
        }
    }

    /// The raw value of one of the report's enums, or `null` when there is none.
    mutating func rawValue<Value: RawRepresentable>(_ value: Value?) where Value.RawValue == String {
        if let value { rawValue(value) } else { null() }
    }

    /// A decimal integer, two digits at a time from the right, its digits counted by comparison:
    /// a digit at a time, with a division to count each and one to write it, took some 130
    /// instructions for a report's line, column or offset.
    package mutating func int(_ value: Int) {
        reserve(21)
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var power: UInt64 = 10
        while digits < 20 && magnitude >= power {
            digits &+= 1
            power = power &* 10
        }
        var end = count &+ digits
        while magnitude >= 100 {
            let pair = magnitude % 100
            magnitude /= 100
            end &-= 2
            Self.putPair(pair, at: base + end)
        }
        if magnitude >= 10 {
            Self.putPair(magnitude, at: base + (end &- 2))
        } else {
            base[end &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count &+= digits
    }

    /// The two digits of `pair` (below 100) at `place`.
    @inline(__always)
    private static func putPair(_ pair: UInt64, at place: UnsafeMutablePointer<UInt8>) {
        let tens = pair / 10
        place[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        place[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- 10 &* tens)
    }

    mutating func null() {
        append("null")
    }

    mutating func bool(_ value: Bool) {
        if value { append("true") } else { append("false") }
    }

    /// A parsed value, written member by member (numbers exactly as they were written).
    mutating func value(_ value: JSONValue) {
        switch value {
        case .object(let members):
            open("{")
            for member in members {
                key(escaping: member.key)
                self.value(member.value.value)
            }
            close("}")
        case .array(let elements):
            open("[")
            for element in elements {
                self.element()
                self.value(element.value)
            }
            close("]")
        case .string(let text): string(text)
        case .number(var text): text.withUTF8 { append($0) }
        case .bool(let flag): bool(flag)
        case .null: null()
        }
    }

    /// A value built as a tree, at the current depth.
    package mutating func value(_ value: JSONOutput) {
        var bytes: [UInt8] = []
        value.write(to: &bytes, indent: depth * 2)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// The text: what was written, and a final newline.
    mutating func rendered() -> String {
        reserve(1)
        put(0x0A)
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// The number of bytes written since the last flush.
    var pendingCount: Int { count }

    /// Hands the bytes written since the last flush to `sink`; false when it fails.
    mutating func flush(to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        defer { count = 0 }
        return sink(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Writes the final newline and flushes what is left to `sink`; false when it fails.
    mutating func finish(to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        reserve(1)
        put(0x0A)
        return flush(to: sink)
    }

    // MARK: Bytes, after a check for room

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// What comes before the next element of the innermost container: a comma after the first,
    /// a new line, the indentation (at most 2 + 2 × depth bytes). Counts the element.
    @inline(__always)
    private mutating func putSeparator() {
        if counts[depth - 1] > 0 { put(UInt8(ascii: ",")) }
        counts[depth - 1] += 1
        putNewLine(depth: depth)
    }

    /// A new line indented to `depth` (1 + 2 × depth bytes; up to `slack` more are overwritten).
    @inline(__always)
    private mutating func putNewLine(depth: Int) {
        put(0x0A)
        let spaces = 2 * depth
        var i = 0
        while i < spaces {
            UnsafeMutableRawPointer(base + count + i).storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
            i &+= 8
        }
        count += spaces
    }

    private mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        guard let source = bytes.baseAddress else { return }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }
}
