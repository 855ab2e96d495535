@testable import AuditBytes
@testable import AuditInputs
import Foundation
import Testing

/// A byte-at-a-time reading of a JSON text's quotes and backslashes, the reference the block
/// masks are held to: per byte, whether a backslash escapes it, whether it is a quote that opens
/// or closes a string, whether it lies in a string (opening quote included, closing excluded),
/// and whether it is a structural character or a line feed outside strings.
private struct ReferenceMasks: Equatable {
    var escaped: [Bool] = []
    var quotes: [Bool] = []
    var inString: [Bool] = []
    var structurals: [Bool] = []
    var lineFeeds: [Bool] = []

    init() {}

    init(_ bytes: [UInt8]) {
        var escapeNext = false
        var open = false
        for byte in bytes {
            let isEscaped = escapeNext
            escapeNext = !isEscaped && byte == UInt8(ascii: "\\")
            let isQuote = byte == UInt8(ascii: "\"") && !isEscaped
            if isQuote { open.toggle() }
            escaped.append(isEscaped)
            quotes.append(isQuote)
            inString.append(open)
            structurals.append(!open && Array("{}[],:".utf8).contains(byte))
            lineFeeds.append(!open && byte == UInt8(ascii: "\n"))
        }
    }

    /// The first `count` bytes' bits of `masks` appended.
    mutating func append(_ masks: JSONBlockMasks, count: Int) {
        for i in 0..<count {
            let bit: UInt64 = 1 << UInt64(i)
            escaped.append(masks.escaped & bit != 0)
            quotes.append(masks.quotes & bit != 0)
            inString.append(masks.inString & bit != 0)
            structurals.append(masks.structuralOutsideStrings & bit != 0)
            lineFeeds.append(masks.lineFeedsOutsideStrings & bit != 0)
        }
    }

    /// The first byte where two readings differ, and in what, for a readable failure.
    func firstDifference(from other: ReferenceMasks) -> String? {
        let fields: [(String, [Bool], [Bool])] = [("escaped", escaped, other.escaped), ("quotes", quotes, other.quotes),
                                                  ("inString", inString, other.inString),
                                                  ("structurals", structurals, other.structurals),
                                                  ("lineFeeds", lineFeeds, other.lineFeeds)]
        for (name, mine, theirs) in fields where mine != theirs {
            let index = mine.indices.first { $0 < theirs.count && mine[$0] != theirs[$0] } ?? min(mine.count, theirs.count)
            return "\(name) differs at byte \(index) (counts \(mine.count), \(theirs.count))"
        }
        return nil
    }
}

private enum StructuralTestSupport {
    /// The masks of `bytes` read by the scanner in pieces of `pieceSizes` (cycled; 64 is a whole
    /// block, less a partial one), with the vector or the byte-at-a-time classifier.
    static func scan(_ bytes: [UInt8], pieceSizes: [Int] = [64], scalar: Bool = false) -> ReferenceMasks {
        var scanner = JSONStructuralScanner()
        var result = ReferenceMasks()
        var start = 0
        var piece = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                let count = min(pieceSizes[piece % pieceSizes.count], buffer.count - start)
                piece += 1
                let masks: JSONBlockMasks
                if scalar {
                    var padded = [UInt8](repeating: UInt8(ascii: " "), count: 64)
                    padded.replaceSubrange(0..<count, with: buffer[start..<start + count])
                    masks = scanner.next(classes: padded.withUnsafeBytes { StructuralClassifier.classifyScalar($0.baseAddress!) }, count: count)
                } else if count == 64 {
                    masks = scanner.next(block: buffer.baseAddress! + start)
                } else {
                    masks = scanner.next(partial: UnsafeBufferPointer(rebasing: buffer[start..<start + count]))
                }
                if count < 64 {
                    // Padding has no class: nothing structural, quoted or escaped-by-text past it.
                    let beyond = ~UInt64(0) << UInt64(count)
                    #expect(masks.quotes & beyond == 0 && masks.structuralOutsideStrings & beyond == 0
                        && masks.lineFeedsOutsideStrings & beyond == 0)
                }
                result.append(masks, count: count)
                start += count
            }
        }
        return result
    }

    static func bytes(of file: URL) throws -> [UInt8] { Array(try Data(contentsOf: file)) }
}

/// The vector classifier against the byte loop, and the byte loop against a few known blocks.
@Suite struct StructuralClassifierTests {
    @Test func knownBlock() {
        var block = Array(#"{"a\"b":[1, 2]}"#.utf8) + [UInt8(ascii: "\n")] + Array(#"\\x"#.utf8)
        block += [UInt8](repeating: UInt8(ascii: "."), count: 64 - block.count)
        func bits(_ positions: [Int]) -> UInt64 { positions.reduce(0) { $0 | 1 << UInt64($1) } }
        let expected = JSONByteClasses(quotes: bits([1, 4, 6]), backslashes: bits([3, 16, 17]),
                                       structurals: bits([0, 7, 8, 10, 13, 14]), lineFeeds: bits([15]))
        block.withUnsafeBytes {
            #expect(StructuralClassifier.classifyScalar($0.baseAddress!) == expected)
            #expect(StructuralClassifier.classify($0.baseAddress!) == expected)
        }
    }

    /// Every byte value at every position, among filler bytes of every class and none.
    @Test func everyByteAtEveryPosition() {
        for filler in Array(#"a"{"#.utf8) + [0xFF] {
            for value in 0...255 {
                for position in 0..<64 {
                    var block = [UInt8](repeating: filler, count: 64)
                    block[position] = UInt8(value)
                    block.withUnsafeBytes {
                        #expect(StructuralClassifier.classify($0.baseAddress!) == StructuralClassifier.classifyScalar($0.baseAddress!),
                                "byte \(value) at \(position) among \(filler)")
                    }
                }
            }
        }
    }

    @Test func randomBlocks() {
        var generator = SeededGenerator(seed: 0x5715_D001)
        let alphabet = Array(#"""\\\{}[],:: "ax"#.utf8) + [0x0A, 0x0D, 0x09, 0x5B, 0x7B, 0xE2, 0x80]
        for round in 0..<20_000 {
            let block: [UInt8] = (0..<64).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            block.withUnsafeBytes {
                #expect(StructuralClassifier.classify($0.baseAddress!) == StructuralClassifier.classifyScalar($0.baseAddress!),
                        "block \(block)")
            }
        }
    }

    /// A partial block is classified as if spaces followed it, whatever lies after it in memory.
    @Test func partialBlocks() {
        let bytes = Array(#"{"k":[1,"\"",{}]}"#.utf8) + [0x0A] + Array(#"\\"::,,[[]]{}"#.utf8) + [UInt8](repeating: 0x22, count: 64)
        for count in 0...64 {
            let padded = Array(bytes[0..<count]) + [UInt8](repeating: UInt8(ascii: " "), count: 64 - count)
            let expected = padded.withUnsafeBytes { StructuralClassifier.classifyScalar($0.baseAddress!) }
            let partial = bytes.withUnsafeBytes { StructuralClassifier.classify(partial: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            #expect(partial == expected, "\(count) bytes")
        }
    }

    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent))
    func jsonTestSuiteFiles() throws {
        #expect(JSONTestSuiteTests.files.count >= 283)
        for name in JSONTestSuiteTests.files {
            var bytes = try StructuralTestSupport.bytes(of: JSONTestSuiteTests.directory!.appendingPathComponent(name))
            let count = bytes.count
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: 64)
            bytes.withUnsafeBytes { buffer in
                var start = 0
                while start < count {
                    let block = buffer.baseAddress! + start
                    let partial = StructuralClassifier.classify(partial: UnsafeRawBufferPointer(rebasing: buffer[start..<min(start + 64, count)]))
                    #expect(StructuralClassifier.classify(block) == StructuralClassifier.classifyScalar(block), "\(name) at \(start)")
                    #expect(partial == StructuralClassifier.classifyScalar(block), "\(name) at \(start), partial")
                    start += 64
                }
            }
        }
    }
}

/// The string-aware masks against the byte-at-a-time reference, fed whole, in blocks and in
/// pieces, with either classifier.
@Suite struct JSONStructuralScannerTests {
    private func expectReference(_ bytes: [UInt8], pieceSizes: [Int] = [64], _ label: @autoclosure () -> String) {
        let reference = ReferenceMasks(bytes)
        for scalar in [false, true] {
            let scanned = StructuralTestSupport.scan(bytes, pieceSizes: pieceSizes, scalar: scalar)
            if let difference = scanned.firstDifference(from: reference) {
                Issue.record("\(label()), pieces \(pieceSizes), scalar \(scalar): \(difference)")
            }
        }
    }

    /// Runs of 0 to 9 backslashes before a quote, the run ending at every byte from 56 to 72, so
    /// that it crosses the first block boundary at every place: the quote is escaped exactly
    /// when the run is odd, and the `,` after it is structural exactly when the quote closed
    /// the string.
    @Test func backslashRunsAcrossTheBlockBoundary() {
        for run in 0...9 {
            for runEnd in 56...72 {
                // `["` then filler, then the run ending at `runEnd`, then `",1]`.
                let fillerCount = runEnd - run + 1 - 2
                guard fillerCount >= 0 else { continue }
                let bytes = Array(#"[""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: fillerCount)
                    + [UInt8](repeating: UInt8(ascii: "\\"), count: run) + Array(#"",1]"#.utf8)
                let quote = runEnd + 1
                #expect(bytes[quote] == UInt8(ascii: "\""))
                let scanned = StructuralTestSupport.scan(bytes)
                #expect(scanned.escaped[quote] == (run % 2 == 1), "run \(run) ending at \(runEnd)")
                #expect(scanned.quotes[quote] == (run % 2 == 0), "run \(run) ending at \(runEnd)")
                #expect(scanned.structurals[quote + 1] == (run % 2 == 0), "run \(run) ending at \(runEnd)")
                for pieces in [[64], [runEnd], [runEnd + 1], [1], [63, 1], [7], [65 - run]] where pieces.allSatisfy({ $0 >= 1 && $0 <= 64 }) {
                    expectReference(bytes, pieceSizes: pieces, "run \(run) ending at \(runEnd)")
                }
            }
        }
    }

    /// A string of structural characters and escapes over three blocks hides them all; the
    /// scanner says it is in a string at each block's end.
    @Test func aStringAcrossBlocks() {
        let inner = String(repeating: #"{[,:]}\\\"\n"#, count: 16)
        let bytes = Array(#"{"k":""#.utf8) + Array(inner.utf8) + Array(#""}"#.utf8)
        var scanner = JSONStructuralScanner()
        var structural: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let count = min(64, buffer.count - start)
                let masks = count == 64 ? scanner.next(block: buffer.baseAddress! + start)
                    : scanner.next(partial: UnsafeBufferPointer(rebasing: buffer[start..<start + count]))
                for i in 0..<count where masks.structuralOutsideStrings & (1 << UInt64(i)) != 0 { structural.append(start + i) }
                if start + count < buffer.count { #expect(scanner.isInString, "block at \(start)") }
                start += count
            }
        }
        #expect(structural == [0, 4, bytes.count - 1])
        #expect(!scanner.isInString)
        expectReference(bytes, "string across blocks")
        expectReference(bytes, pieceSizes: [13], "string across blocks")
    }

    /// A text of every length from 0 to 200 read in whole blocks and a partial last one, and a
    /// trailing backslash carried out of a partial block.
    @Test func partialFinalBlocks() {
        let unit = Array(#"{"a":["x\"y",{"b\\":null}]},"#.utf8)
        for length in 0...200 {
            let bytes = Array((0..<(length / unit.count + 1)).flatMap { _ in unit }.prefix(length))
            expectReference(bytes, "length \(length)")
        }
        var scanner = JSONStructuralScanner()
        let head = Array(#"["a\"#.utf8)
        _ = head.withUnsafeBufferPointer { scanner.next(partial: $0) }
        #expect(scanner.endsInEscape && scanner.isInString)
        let masks = Array(#""",1]"#.utf8).withUnsafeBufferPointer { scanner.next(partial: $0) }
        #expect(masks.escaped & 1 == 1 && masks.quotes == 0b10 && masks.structuralOutsideStrings == 0b10100)
    }

    @Test func randomTexts() {
        var generator = SeededGenerator(seed: 0x5CA7_7E55)
        let alphabet = Array(#"\\\\""{}[],: x"#.utf8) + [0x0A]
        for round in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let pieces = round % 3 == 0 ? [64] : (0..<4).map { _ in Int.random(in: 1...64, using: &generator) }
            expectReference(bytes, pieceSizes: pieces, "round \(round)")
        }
    }

    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent))
    func jsonTestSuiteFiles() throws {
        for name in JSONTestSuiteTests.files {
            let bytes = try StructuralTestSupport.bytes(of: JSONTestSuiteTests.directory!.appendingPathComponent(name))
            expectReference(bytes, name)
            expectReference(bytes, pieceSizes: [7, 64, 1], name)
        }
    }
}

// MARK: - Split points

/// A JSON value with its members in order, written with random whitespace and escapes.
private indirect enum Tree {
    case object([(String, Tree)])
    case array([Tree])
    case string(String)
    case number(String)
    case literal(String)
}

private struct TreeWriter {
    var generator: SeededGenerator
    var bytes: [UInt8] = []

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func space() {
        let choices = ["", "", "", " ", "\n", "\n    ", "\t", "\r\n  "]
        bytes += Array(choices.randomElement(using: &generator)!.utf8)
    }

    mutating func write(_ tree: Tree) {
        switch tree {
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            space()
            for (index, (key, value)) in members.enumerated() {
                if index > 0 {
                    bytes.append(UInt8(ascii: ","))
                    space()
                }
                string(key)
                space()
                bytes.append(UInt8(ascii: ":"))
                space()
                write(value)
                space()
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            space()
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    bytes.append(UInt8(ascii: ","))
                    space()
                }
                write(element)
                space()
            }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): string(text)
        case .number(let text), .literal(let text): bytes += Array(text.utf8)
        }
    }

    /// `text` quoted: quotes, backslashes and controls escaped, `/` and non-ASCII sometimes.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += Array(#"\""#.utf8)
            case "\\": bytes += Array(#"\\"#.utf8)
            case "\n": bytes += Array(#"\n"#.utf8)
            case "/" where Bool.random(using: &generator): bytes += Array(#"\/"#.utf8)
            case _ where scalar.value < 0x20 || (scalar.value > 0x7F && Bool.random(using: &generator)):
                for unit in String(scalar).utf16 { bytes += Array(String(format: "\\u%04x", unit).utf8) }
            default: bytes += Array(String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

private struct TreeMaker {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// Text full of what a structural reading could trip on.
    mutating func tricky() -> String {
        let pieces = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\\\", "\\\"", "\"entries\": [", "\n", "ü", "😀", "abc",
                      " ", "\u{7}", "/", "\\u0022", "x"]
        return (0..<int(0...24)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    mutating func scalar() -> Tree {
        switch int(0...6) {
        case 0: .number(["0", "-1", "12.5", "-0.0e-3", "1E22", "42"].randomElement(using: &generator)!)
        case 1: .literal(["true", "false", "null"].randomElement(using: &generator)!)
        default: .string(tricky())
        }
    }

    mutating func value(depth: Int) -> Tree {
        guard depth > 0 else { return scalar() }
        switch int(0...4) {
        case 0: return .array((0..<int(0...4)).map { _ in value(depth: depth - 1) })
        case 1: return .object((0..<int(0...4)).map { index in ("k\(index)" + tricky(), value(depth: depth - 1)) })
        default: return scalar()
        }
    }

    /// A HAR entry: headers, a JSON body held in a string (so escapes of escapes), a response.
    mutating func entry(_ index: Int) -> Tree {
        var body = TreeWriter(seed: generator.next())
        body.write(value(depth: 3))
        let headers = Tree.array((0..<int(0...3)).map { _ in .object([("name", .string("X-" + tricky())), ("value", .string(tricky()))]) })
        return .object([
            ("startedDateTime", .string("2026-01-0\(index % 9 + 1)T10:00:00Z")),
            ("request", .object([("method", .string("POST")), ("url", .string("https://h/p?q=[1]&r={2}")), ("headers", headers),
                                 ("postData", .object([("mimeType", .string("application/json")),
                                                       ("text", .string(String(decoding: body.bytes, as: UTF8.self)))]))])),
            ("response", .object([("status", .number("200")), ("content", .object([("text", .string(tricky()))]))])),
            ("time", .number("12.5")),
            ("_flag", scalar()),
        ])
    }

    /// A HAR with `entries` entries, `log`'s other members around them in random order, some
    /// of them decoys (an `entries` key deeper down, keys that start like it, a string that
    /// spells it).
    mutating func har(entries: Int) -> Tree {
        var members: [(String, Tree)] = [
            ("version", .string("1.2")),
            ("creator", .object([("name", .string(tricky())), ("entries", .array([.number("1"), .number("2")]))])),
            ("pages", .array([.object([("id", .string("page_1]{")), ("entries", .object([])), ("title", .string(tricky()))])])),
            ("comment", .string("\"entries\": [1, 2]")),
            ("entriesX", .array([])),
            ("entrie", .number("1")),
        ]
        members.shuffle(using: &generator)
        members.insert(("entries", .array((0..<entries).map { entry($0) })), at: int(0...members.count))
        return .object([("log", .object(members))])
    }
}

/// Split points against Foundation's parser: as many elements as it finds, each offset on an
/// element's first byte, each element parsing alone to the same value, whatever the pieces.
@Suite struct JSONSplitPointsTests {
    static let harPath = ["log", "entries"]

    /// A value in one canonical spelling, to compare values from different parses.
    private static func canonical(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    private static func parse(_ bytes: some Collection<UInt8>) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `points` found the array `reference` in `bytes` exactly.
    private static func expectExact(_ points: JSONSplitPoints, _ bytes: [UInt8], reference: [Any], _ label: String) {
        #expect(points.status == .finished, "\(label): \(points.status)")
        guard let start = points.arrayStart, let end = points.arrayEnd else {
            Issue.record("\(label): no array")
            return
        }
        #expect(bytes[start] == UInt8(ascii: "[") && bytes[end] == UInt8(ascii: "]"), "\(label)")
        #expect(canonical(parse(bytes[start...end]) ?? 0) == canonical(reference), "\(label): the array's bounds")
        let elements = points.elements
        #expect(elements.count == reference.count, "\(label)")
        #expect(elements.map(\.index) == Array(elements.indices), "\(label)")
        let firstEnd = elements.first?.offset ?? end
        #expect(bytes[(start + 1)..<firstEnd].allSatisfy(isWhitespace), "\(label): only whitespace before the first element")
        for (k, element) in elements.enumerated() where k < reference.count {
            let isLast = k + 1 == elements.count
            var slice = Array(bytes[element.offset..<(isLast ? end : elements[k + 1].offset)])
            while let last = slice.last, isWhitespace(last) { slice.removeLast() }
            if !isLast {
                #expect(slice.last == UInt8(ascii: ","), "\(label): element \(k) ends with a comma")
                slice.removeLast()
                while let last = slice.last, isWhitespace(last) { slice.removeLast() }
            }
            #expect(Array("{[\"-0123456789tfn".utf8).contains(bytes[element.offset]), "\(label): element \(k) starts a value")
            let parsed = parse(slice)
            #expect(parsed != nil && canonical(parsed!) == canonical(reference[k]),
                    "\(label): element \(k) at \(element.offset) parses alone to the reference")
        }
    }

    /// The same search, fed in pieces of `size` bytes.
    private static func chunked(_ bytes: [UInt8], size: Int, path: [String], stopOffset: Int? = nil) -> JSONSplitPoints {
        var points = JSONSplitPoints(path: path, stopOffset: stopOffset)
        bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + size, buffer.count)
                guard points.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), at: 1000 + start) else { return }
                start = end
            }
            points.finish()
        }
        return points
    }

    private static func same(_ a: JSONSplitPoints, _ b: JSONSplitPoints, shift: Int) -> Bool {
        a.status == b.status && a.arrayStart.map { $0 + shift } == b.arrayStart && a.arrayEnd.map { $0 + shift } == b.arrayEnd
            && a.elements.map { JSONArrayElement(index: $0.index, offset: $0.offset + shift) } == b.elements
    }

    @Test func harEntriesAgainstFoundation() throws {
        for seed in UInt64(0)..<10 {
            var maker = TreeMaker(seed: 0x4A4 + seed)
            var writer = TreeWriter(seed: 0x3172 + seed)
            writer.write(maker.har(entries: seed < 2 ? Int(seed) : maker.int(2...8)))
            let bytes = writer.bytes
            let root = try #require(Self.parse(bytes) as? [String: Any], "seed \(seed)")
            let reference = try #require((root["log"] as? [String: Any])?["entries"] as? [Any])
            let whole = bytes.withUnsafeBytes { JSONSplitPoints.scan($0, path: Self.harPath) }
            Self.expectExact(whole, bytes, reference: reference, "seed \(seed)")
            for size in 1...70 {
                #expect(Self.same(whole, Self.chunked(bytes, size: size, path: Self.harPath), shift: 1000), "seed \(seed), pieces of \(size)")
            }
        }
    }

    @Test func topLevelArraysAgainstFoundation() throws {
        for seed in UInt64(0)..<40 {
            var maker = TreeMaker(seed: 0x70B + seed)
            var writer = TreeWriter(seed: 0xA77A + seed)
            let tree = Tree.array((0..<(seed < 3 ? Int(seed) : maker.int(0...12))).map { _ in maker.value(depth: 3) })
            writer.space()
            writer.write(tree)
            writer.space()
            let bytes = writer.bytes
            let reference = try #require(Self.parse(bytes) as? [Any], "seed \(seed)")
            let whole = bytes.withUnsafeBytes { JSONSplitPoints.scan($0) }
            Self.expectExact(whole, bytes, reference: reference, "seed \(seed)")
            for size in seed < 8 ? Array(1...70) : [1, 5, 63, 64, 65] {
                #expect(Self.same(whole, Self.chunked(bytes, size: size, path: []), shift: 1000), "seed \(seed), pieces of \(size)")
            }
        }
    }

    /// Every accepted case of the suite whose root is an array: the elements Foundation finds.
    @Test(.enabled(if: JSONTestSuiteTests.directory != nil, JSONTestSuiteTests.absent))
    func jsonTestSuiteArrays() throws {
        var checked = 0
        for name in JSONTestSuiteTests.files {
            let bytes = try StructuralTestSupport.bytes(of: JSONTestSuiteTests.directory!.appendingPathComponent(name))
            let points = bytes.withUnsafeBytes { JSONSplitPoints.scan($0) }
            // Rejected and undecided cases: only that nothing crashes.
            guard name.hasPrefix("y_"), let reference = Self.parse(bytes) as? [Any] else { continue }
            Self.expectExact(points, bytes, reference: reference, name)
            #expect(Self.same(points, Self.chunked(bytes, size: 1, path: []), shift: 1000), "\(name), pieces of 1")
            checked += 1
        }
        #expect(checked >= 50)
    }

    /// Stopping at the first element at or after an offset, then going on from there.
    @Test func stopsAndResumes() throws {
        var maker = TreeMaker(seed: 0x5709)
        var writer = TreeWriter(seed: 0x5709)
        writer.write(maker.har(entries: 6))
        let bytes = writer.bytes
        let whole = bytes.withUnsafeBytes { JSONSplitPoints.scan($0, path: Self.harPath) }
        try #require(whole.status == .finished && whole.elements.count == 6)
        for stop in stride(from: 0, through: bytes.count, by: 37) {
            let expected = whole.firstElement(atOrAfter: stop)
            for size in [bytes.count, 64, 100] {
                var points = Self.chunked(bytes, size: size, path: Self.harPath, stopOffset: 1000 + stop)
                let label = "stop at \(stop), pieces of \(size)"
                if let expected {
                    #expect(points.status == .stopped, "\(label)")
                    #expect(points.elements.last.map { $0.offset - 1000 } == expected.offset, "\(label)")
                    #expect(points.elements.count == expected.index + 1, "\(label)")
                    #expect(points.position == 1000 + expected.offset, "\(label)")
                    points.stopOffset = nil
                    bytes.withUnsafeBytes { buffer in
                        if points.feed(UnsafeRawBufferPointer(rebasing: buffer[expected.offset...]), at: 1000 + expected.offset) {
                            points.finish()
                        }
                    }
                }
                #expect(Self.same(whole, points, shift: 1000), "\(label), resumed")
            }
        }
        #expect(whole.firstElement(atOrAfter: whole.elements[2].offset) == whole.elements[2])
        #expect(whole.firstElement(atOrAfter: whole.elements[2].offset + 1) == whole.elements[3])
        #expect(whole.firstElement(atOrAfter: whole.arrayEnd!) == nil)
    }

    @Test func smallArrays() {
        let cases: [(String, [String], [Int])] = [
            ("[]", [], []),
            (" [ \n\t] ", [], []),
            ("[1]", [], [1]),
            (#"[ 1 ,"a" , [ ] ,{ },-2,true,false,null]"#, [], [2, 5, 11, 16, 20, 23, 28, 34]),
            (#"{"log":{"entries":[]}}"#, Self.harPath, []),
            (#"{"log":{"entries":[{"a":"]"}, "x"]}}"#, Self.harPath, [19, 30]),
            ("\u{FEFF}[1, 2]", [], [4, 7]),
            (#"{"log":{"creator":{"na\u006de":"x","entries":[0]},"comment":"\"entries\":[","entries":[1,2]}}"#, Self.harPath, [87, 89]),
            (#"{"a":{"b":{"c":[[3],4]}}}"#, ["a", "b", "c"], [16, 20]),
        ]
        for (text, path, offsets) in cases {
            let bytes = Array(text.utf8)
            for size in [bytes.count, 1, 2, 3] {
                let points = Self.chunked(bytes, size: size, path: path)
                #expect(points.status == .finished, "\(text), pieces of \(size): \(points.status)")
                #expect(points.elements.map { $0.offset - 1000 } == offsets, "\(text), pieces of \(size)")
            }
        }
    }

    /// Elements nested past the 64 depths kept in one word, and a bracket closing the wrong
    /// kind of container down there.
    @Test func deepNesting() throws {
        for depth in [62, 63, 64, 65, 66, 130, 200] {
            let isObject = (0..<depth).map { $0 % 3 == 0 }
            let opening = isObject.map { $0 ? #"{"k":"# : "[" }.joined()
            let closing = isObject.reversed().map { $0 ? "}" : "]" }.joined()
            let head = "[" + opening + "1" + closing + ", 2, " + opening + "3"
            let bytes = Array((head + closing + "]").utf8)
            let reference = try #require(Self.parse(bytes) as? [Any], "depth \(depth)")
            let points = bytes.withUnsafeBytes { JSONSplitPoints.scan($0) }
            Self.expectExact(points, bytes, reference: reference, "depth \(depth)")
            #expect(Self.same(points, Self.chunked(bytes, size: 7, path: []), shift: 1000), "depth \(depth), pieces of 7")
            // The innermost container closed by the other kind of bracket.
            let wrong = Array((head + (isObject.last! ? "]" : "}") + closing.dropFirst() + "]").utf8)
            let failed = wrong.withUnsafeBytes { JSONSplitPoints.scan($0) }
            #expect(failed.status == .failed(.unbalanced(at: head.utf8.count)), "depth \(depth): \(failed.status)")
        }
    }

    @Test func pathsThatLeadToNoArray() {
        let cases: [(String, [String])] = [
            ("[1]", Self.harPath), (#"{"log":{}}"#, Self.harPath), (#"{"log":{"entries":{}}}"#, Self.harPath),
            (#"{"log":{"creator":{"entries":[1]}}}"#, Self.harPath), (#"{"log":{"entries":"[1,2]"}}"#, Self.harPath),
            (#"{"log":[{"entries":[1]}]}"#, Self.harPath), (#"{"entries":[1]}"#, Self.harPath), (#"{"a":1}"#, []),
            (#""[1]""#, []), ("12", []), ("]", []), (#"{"log":{"entries":null,"x":[1]}}"#, Self.harPath),
        ]
        for (text, path) in cases {
            for size in [text.utf8.count, 1] {
                #expect(Self.chunked(Array(text.utf8), size: size, path: path).status == .notFound, "\(text), pieces of \(size)")
            }
        }
    }

    /// What it cannot follow is a failure, never a split point.
    @Test func failsRatherThanGuesses() {
        let cases: [(String, [String], JSONSplitFailure)] = [
            (#"{"log":{"\u0065ntries":[1]}}"#, Self.harPath, .escapedKey(at: 1008)),
            (#"{"log":{"version":"1","entr\"ies":[1]}}"#, Self.harPath, .escapedKey(at: 1022)),
            (#"{"log":{"entries":[1,2}}}"#, Self.harPath, .unbalanced(at: 1022)),
            ("[1,]", [], .unexpectedByte(at: 1003)),
            ("[:]", [], .unexpectedByte(at: 1001)),
            ("[1:2]", [], .unexpectedByte(at: 1002)),
            ("[1,2", [], .truncated(at: 1004)),
            (#"{"log":{"entries":["#, Self.harPath, .truncated(at: 1019)),
            (#"{"log":"#, Self.harPath, .truncated(at: 1007)),
            ("", [], .truncated(at: 0)), // nothing fed: no offset known
        ]
        for (text, path, failure) in cases {
            for size in [max(text.utf8.count, 1), 1] {
                let points = Self.chunked(Array(text.utf8), size: size, path: path)
                #expect(points.status == .failed(failure), "\(text), pieces of \(size)")
            }
        }
    }
}
