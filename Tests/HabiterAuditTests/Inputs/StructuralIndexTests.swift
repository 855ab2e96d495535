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
    /// Calls `check` with every block of 64 `fillers` bytes but one, which takes every byte value
    /// at every position, and says where.
    static func everyByteAtEveryPosition(among fillers: [UInt8], _ check: (UnsafeRawPointer, String) -> Void) {
        for filler in fillers {
            for value in 0...255 {
                for position in 0..<64 {
                    var block = [UInt8](repeating: filler, count: 64)
                    block[position] = UInt8(value)
                    block.withUnsafeBytes { check($0.baseAddress!, "byte \(value) at \(position) among \(filler)") }
                }
            }
        }
    }

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
        StructuralTestSupport.everyByteAtEveryPosition(among: Array(#"a"{"#.utf8) + [0xFF]) { block, place in
            #expect(StructuralClassifier.classify(block) == StructuralClassifier.classifyScalar(block), "\(place)")
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

/// The line cursor's classifier against its byte loop: every byte value at every position among
/// fillers of every class, and random blocks.
@Suite struct ByteMasksTests {
    /// The weighted sums that gather a comparison where there is no movemask agree with the one
    /// used here, on every single byte set and on random comparisons.
    @Test func bothGathersAgree() {
        var generator = SeededGenerator(seed: 0x6A7E_0001)
        var masks = (0..<16).map { lane in SIMD16<UInt8>((0..<16).map { $0 == lane ? 0xFF : 0 }) }
        masks += (0..<2_000).map { _ in SIMD16<UInt8>((0..<16).map { _ in Bool.random(using: &generator) ? 0xFF : 0 }) }
        for mask in masks {
            let expected = (0..<16).reduce(UInt64(0)) { bits, lane in mask[lane] == 0xFF ? bits | 1 << UInt64(lane) : bits }
            #expect(ByteMasks.bits16(mask) == expected, "\(mask)")
            #expect(ByteMasks.portableBits16(mask) == expected, "\(mask)")
        }
    }
}

@Suite struct LineBreakClassifierTests {
    @Test func everyByteAtEveryPosition() {
        StructuralTestSupport.everyByteAtEveryPosition(among: [UInt8(ascii: "a"), 0x0A, 0x0D, 0x80, 0xFF]) { block, place in
            #expect(LineBreakClassifier.classify(block) == LineBreakClassifier.classifyScalar(block), "\(place)")
        }
    }

    @Test func knownBlock() {
        var block = Array("a\nb\r\né".utf8)
        block += [UInt8](repeating: UInt8(ascii: " "), count: 63 - block.count) + [0x0A]
        block.withUnsafeBytes {
            let expected = LineBreakClassifier.Block(lineFeeds: 1 << 1 | 1 << 4 | 1 << 63, needsBytewise: true)
            #expect(LineBreakClassifier.classifyScalar($0.baseAddress!) == expected)
            #expect(LineBreakClassifier.classify($0.baseAddress!) == expected)
        }
        var plain = Array("a\nb\n".utf8)
        plain += [UInt8](repeating: UInt8(ascii: " "), count: 64 - plain.count)
        plain.withUnsafeBytes {
            #expect(LineBreakClassifier.classify($0.baseAddress!) == LineBreakClassifier.Block(lineFeeds: 1 << 1 | 1 << 3, needsBytewise: false))
        }
    }

    @Test func randomBlocks() {
        var generator = SeededGenerator(seed: 0x11FE_ED01)
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x20, 0x61, 0x7F, 0x80, 0xC3, 0xA9, 0xF0, 0xFF]
        for round in 0..<20_000 {
            let block: [UInt8] = (0..<64).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            block.withUnsafeBytes {
                #expect(LineBreakClassifier.classify($0.baseAddress!) == LineBreakClassifier.classifyScalar($0.baseAddress!),
                        "block \(block)")
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
