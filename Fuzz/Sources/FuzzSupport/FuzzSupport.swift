// What every fuzz target shares: invariant checks, a streaming byte source, event recorders and
// the scanners. A failed invariant traps with a message naming the invariant, never input bytes
// (fuzz inputs grow from seeds that hold fake secrets, and reports must not echo values).
@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan

public enum Fuzz {
    /// The input as a buffer (libFuzzer may pass a null pointer with size 0).
    public static func buffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    /// Traps when an invariant does not hold: libFuzzer records the input as a crash.
    public static func check(_ condition: @autoclosure () -> Bool, _ invariant: @autoclosure () -> String,
                             file: StaticString = #file, line: UInt = #line) {
        if !condition() { fatalError("fuzz invariant violated: \(invariant())", file: file, line: line) }
    }

    /// A chunk size for the streaming copy of an input, derived from its bytes so that a crash
    /// reproduces from the input alone: mostly tiny chunks (every token crosses a boundary).
    public static func chunkSize(for bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes.prefix(64) { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
        let sizes = [1, 2, 3, 5, 7, 16, 64, 4096]
        return sizes[Int(hash % UInt64(sizes.count))]
    }

    /// A window that reads `bytes` `chunkSize` at a time, as a file or stdin is read.
    public static func streamingWindow(_ bytes: UnsafeRawBufferPointer, chunkSize: Int) -> ByteWindow {
        ByteWindow(source: MemorySource(Array(bytes), readSize: chunkSize), chunkSize: chunkSize)
    }

    // MARK: Scanners

    /// The built-in rule pack, loaded once per process.
    public static let rules: RulePack = {
        do { return try RulePack.load() } catch { fatalError("the built-in rule pack does not load: \(error)") }
    }()

    nonisolated(unsafe) private static var scanners: [String: Scanner] = [:]
    nonisolated(unsafe) public static let matcher = RegexMatcher()

    /// A scanner with the built-in rules reading every input as `format`.
    public static func scanner(_ format: InputFormat, context: ScanContext? = nil) -> Scanner {
        let key = "\(format.rawValue)/\(context.map { "\($0)" } ?? "auto")"
        if let scanner = scanners[key] { return scanner }
        let scanner = Scanner(rules: rules, options: ScanOptions(context: context, inputFormat: format))
        scanners[key] = scanner
        return scanner
    }

    /// Scans `bytes` whole and again streamed in small chunks, and checks what every scan must
    /// give: positions inside the input, and the same findings and errors either way, for the
    /// input and for each member of an archive. The offsets in compressed input, UTF-16 text and
    /// an archive's members are into what they decode to, which may be longer.
    @discardableResult
    public static func scan(_ bytes: UnsafeRawBufferPointer, with scanner: Scanner) -> ArtifactOutcome {
        let decoded = FormatDetector.compression(of: bytes) != nil || UTF16Text.byteOrder(of: bytes) != nil
            || ArchiveFormat.of(bytes) != nil
        let inputSize = decoded ? Int.max : bytes.count
        let streamed = scanner.scan(streamingWindow(bytes, chunkSize: chunkSize(for: bytes)), name: "fuzz", rules: scanner.rules,
                                    matcher: matcher).expanded
        let whole = scanner.scan(bytes: bytes, name: "fuzz", matcher: matcher)
        let wholeExpanded = whole.expanded
        check(wholeExpanded.count == streamed.count, "the same members whole and streamed")
        for (one, other) in zip(wholeExpanded, streamed) {
            checkPositions(one, inputSize: inputSize)
            checkPositions(other, inputSize: inputSize)
            check(one.findings == other.findings, "the same findings whole and streamed")
            check(one.errors == other.errors, "the same input errors whole and streamed")
            check(one.summary == other.summary, "the same summary whole and streamed")
        }
        return whole
    }

    static func checkPositions(_ outcome: ArtifactOutcome, inputSize: Int) {
        for finding in outcome.findings {
            let p = finding.position
            check(p.line >= 1 && p.column >= 1 && p.byteOffset >= 0 && p.byteOffset <= inputSize, "a finding's position is in the input")
        }
        for error in outcome.errors {
            guard let p = error.position else { continue }
            check(p.line >= 1 && p.column >= 1 && p.byteOffset >= 0 && p.byteOffset <= inputSize, "an error's position is in the input")
        }
    }
}

/// An input held in memory, handed out at most `readSize` bytes per read.
final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let readSize: Int
    private var next = 0

    init(_ bytes: [UInt8], readSize: Int) {
        self.bytes = bytes
        self.readSize = max(1, readSize)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        guard next < bytes.count else { return .end }
        let n = min(readSize, buffer.count, bytes.count - next)
        buffer.copyBytes(from: bytes[next..<(next + n)])
        next += n
        return .bytes(n)
    }
}

// MARK: JSON events

/// One token the JSON reader reported, with copies of its bytes.
public enum JSONEvent: Equatable {
    case objectStart(Int), objectEnd(Int), arrayStart(Int), arrayEnd(Int)
    case key([UInt8], escaped: Bool, Int)
    case string([UInt8], escaped: Bool, Int)
    case number([UInt8], Int)
    case literal(String, Int)

    var offset: Int {
        switch self {
        case .objectStart(let o), .objectEnd(let o), .arrayStart(let o), .arrayEnd(let o): o
        case .key(_, _, let o), .string(_, _, let o), .number(_, let o), .literal(_, let o): o
        }
    }
}

/// Records every token, touching every byte it is handed (ASan sees any read outside the input).
public struct JSONRecorder: JSONVisitor {
    public var events: [JSONEvent] = []

    public init(events: [JSONEvent] = []) {
        self.events = events
    }

    public mutating func objectStart(at offset: Int) throws { events.append(.objectStart(offset)) }
    public mutating func objectEnd(at offset: Int) throws { events.append(.objectEnd(offset)) }
    public mutating func arrayStart(at offset: Int) throws { events.append(.arrayStart(offset)) }
    public mutating func arrayEnd(at offset: Int) throws { events.append(.arrayEnd(offset)) }
    public mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        events.append(.key(Array(raw), escaped: escaped, offset))
    }
    public mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        events.append(.string(Array(raw), escaped: escaped, offset))
    }
    public mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        events.append(.number(Array(raw), offset))
    }
    public mutating func literal(_ value: JSONLiteral, at offset: Int) throws {
        events.append(.literal("\(value)", offset))
    }

    /// Checks that the tokens of an accepted text form one well-nested value in increasing order
    /// inside `size` bytes, with keys exactly where an object expects them.
    public func checkWellFormed(size: Int, maxDepth: Int) {
        var stack: [Bool] = []  // true: object
        var expectKey = false
        var last = -1
        var values = 0
        for event in events {
            Fuzz.check(event.offset > last && event.offset < size, "JSON token offsets increase inside the input")
            last = event.offset
            switch event {
            case .key:
                Fuzz.check(stack.last == true && expectKey, "a key only where an object expects one")
                expectKey = false
                continue
            case .objectEnd, .arrayEnd:
                let isObject: Bool
                if case .objectEnd = event { isObject = true } else { isObject = false }
                Fuzz.check(stack.last == isObject, "containers close in order")
                Fuzz.check(!isObject || expectKey, "an object closes after a value, not after a key")
                stack.removeLast()
            default:
                Fuzz.check(!(stack.last == true && expectKey), "an object member starts with a key")
                if stack.isEmpty { values += 1 }
                switch event {
                case .objectStart: stack.append(true)
                case .arrayStart: stack.append(false)
                default: break
                }
                Fuzz.check(stack.count <= maxDepth, "nesting stays within the limit")
            }
            expectKey = stack.last == true
        }
        Fuzz.check(stack.isEmpty && values == 1, "one complete value")
    }
}

// MARK: HTTP exchanges as comparable text

/// Records what the raw HTTP reader hands its visitor as lines of text (paths, offsets, bytes),
/// to compare two reads, and checks that every part lies inside the input.
struct HTTPRecorder: HTTPMessageVisitor {
    let window: ByteWindow
    let size: Int
    var lines: [String] = []

    private func inInput(_ range: Range<Int>) -> Bool { range.lowerBound >= 0 && range.upperBound <= size }

    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) {
        Fuzz.check(inInput(text.range) && bytes.count == text.count, "a text part \(text.range) lies in the input of \(size) bytes")
        lines.append("\(text.path(under: LayeredPath())) @\(text.offset) \(Array(bytes))")
    }

    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        Fuzz.check(inInput(field.nameRange) && name.count == field.nameCount, "a field name \(field.nameRange) lies in the input of \(size) bytes")
        Fuzz.check(inInput(field.valueRange) && field.valueRange.lowerBound == field.valueOffset,
                   "a field value \(field.valueRange) lies in the input of \(size) bytes")
        Fuzz.check(value.count >= field.valueRange.count || value.contains(0x20), "a value is as long as it is written, or folded")
        lines.append("\(field.valuePath(under: LayeredPath())) \(Array(name)) @\(field.valueOffset) \(field.valueRange) \(Array(value))")
    }

    mutating func exchange(_ exchange: HTTPExchange) {
        for (label, message) in [("request", exchange.request), ("response", exchange.response)] {
            guard let message else { continue }
            for length in message.contentLengths { Fuzz.check(inInput(length), "a Content-Length value \(length) lies in the input") }
            guard let body = message.body else { continue }
            Fuzz.check(body.offset >= 0 && body.offset <= size, "a body's offset \(body.offset) is in the input of \(size) bytes")
            if case .input(let range) = body.bytes {
                Fuzz.check(inInput(range) && range.lowerBound == body.offset, "an in-place body \(range) is in the input of \(size) bytes")
            }
            let bytes = body.withBytes(in: window) { Array($0) }
            lines.append("\(label) body \(body.path(exchange: exchange.index, under: LayeredPath())) @\(body.offset) \(bytes) \(body.mimeType ?? "-") \(body.codings)")
        }
        lines.append("end of exchange \(exchange.index)")
    }
}

/// Reads every exchange of raw HTTP text through `window`: the parts as text, or the error.
public func readHTTP(_ window: ByteWindow, size: Int) -> (exchanges: [String], error: String?) {
    var reader = HTTPMessageReader(window: window, start: 0)
    var recorder = HTTPRecorder(window: window, size: size)
    var exchanges = 0
    do {
        while try reader.nextExchange(&recorder) {
            exchanges += 1
            Fuzz.check(exchanges <= size + 1, "an exchange consumes input")
            window.unpin()
            if let truncation = reader.truncation {
                Fuzz.check(truncation.offset >= 0 && truncation.offset <= size, "a truncation's offset is in the input")
                return (recorder.lines, "\(truncation.reason) @\(truncation.offset)")
            }
        }
        return (recorder.lines, nil)
    } catch let error as HTTPSyntaxError {
        Fuzz.check(error.offset >= 0 && error.offset <= size, "an HTTP error's offset \(error.offset) is in the input of \(size) bytes")
        return (recorder.lines, "\(error.reason) @\(error.offset)")
    } catch {
        Fuzz.check(false, "the HTTP reader throws only HTTPSyntaxError")
        return ([], nil)
    }
}

// MARK: Hostile numbers

extension Fuzz {
    /// Numbers that break unchecked arithmetic on lengths and sizes, as a reader would see them
    /// written: around 2^63 and 2^64, negative, floating-point, signed, padded, listed.
    public static let hostileDecimals = ["9223372036854775807", "9223372036854775808", "18446744073709551615",
                                         "18446744073709551616", "99999999999999999999999", "-1", "1e23", "+5", "0",
                                         "00000000000000000000000000000005", "5, 5", "5, 6", "", " 5", "4294967296"]
    public static let hostileHex = ["7FFFFFFFFFFFFFFF", "7fffffffffffffff", "8000000000000000", "FFFFFFFFFFFFFFFF",
                                    "10000000000000000", "FFFFFFFFFFFFFFFFFFFF", "-1", "+5", "0x5", "", "1e3", "0;ext=1",
                                    "5;" + String(repeating: "e", count: 64), "0000000000000000000000005"]
    /// Varint values at the edges of 31, 32, 63 and 64 bits, and past the end of any input.
    public static let hostileVarints: [UInt64] = [0, 1, 0x7F, 0x80, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000,
                                                  UInt64(Int.max), UInt64(Int.max) + 1, UInt64.max, UInt64.max - 1, 1 << 40]

    /// A varint's bytes (protobuf base-128).
    public static func varint(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
        return out
    }
}
