@testable import AuditInputs
@testable import AuditReport
import Testing

/// The streaming writer lays out what it writes exactly as `JSONOutput.rendered()` lays out the
/// same value: random trees, some written member by member, some as subtrees (`value`).
@Suite struct JSONStreamWriterTests {
    static let keys: [StaticString] = ["a", "ruleId", "aKeyLongerThanSixteenBytes", "k2"]

    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func string() -> String {
            let pieces = ["plain", "\"", "\\", "\n", "\u{01}", "é", "🔑", "\u{7F}", " ", "0123456789abcdef"]
            return (0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined()
        }

        /// A tree, and the same written into `writer` (some subtrees whole, through `value`).
        mutating func write(into writer: inout JSONStreamWriter, depth: Int) -> JSONOutput {
            switch depth > 4 ? 2 + next(3) : next(5) {
            case 0:
                writer.open("{")
                var members: [(String, JSONOutput)] = []
                for _ in 0..<next(4) {
                    let key = JSONStreamWriterTests.keys[next(JSONStreamWriterTests.keys.count)]
                    writer.key(key)
                    members.append((key.description, write(into: &writer, depth: depth + 1)))
                }
                writer.close("}")
                return .object(members)
            case 1:
                writer.open("[")
                var elements: [JSONOutput] = []
                for _ in 0..<next(4) {
                    writer.element()
                    elements.append(write(into: &writer, depth: depth + 1))
                }
                writer.close("]")
                return .array(elements)
            case 2:
                let text = string()
                writer.string(text)
                return .string(text)
            case 3:
                let number = next(3) == 0 ? -next(1000) : next(Int.max)
                writer.int(number)
                return .int(number)
            default:
                switch next(4) {
                case 0:
                    writer.null()
                    return .null
                case 1:
                    let value = next(2) == 0
                    writer.bool(value)
                    return .bool(value)
                default: break
                }
                let tree: JSONOutput = .object([("source", .string(string())), ("list", .array([.int(next(9)), .null]))])
                writer.value(tree)
                return tree
            }
        }
    }

    @Test func writesWhatTheTreeRenders() {
        var generator = Generator(state: 0x5EED)
        for _ in 0..<2000 {
            var writer = JSONStreamWriter()
            let tree = generator.write(into: &writer, depth: 0)
            #expect(writer.rendered() == tree.rendered())
        }
    }

    /// A parsed value (a merged SARIF log's parts) written member by member, keys escaped and
    /// numbers as they were written, as the tree of it renders: random trees read back, and keys
    /// and numbers the random ones do not hold.
    @Test func writesParsedValuesAsTheirTreesRender() throws {
        var generator = Generator(state: 0xFEED)
        var texts = [#"{"a\n\"k": [1.0e3, -0.0, 12345678901234567890, true, false, null, "s\u001b", {}, []], "é🔑": {"x": {"y": [[[]]]}}}"#]
        for _ in 0..<500 {
            var scratch = JSONStreamWriter()
            texts.append(generator.write(into: &scratch, depth: 0).renderedOnOneLine())
        }
        for text in texts {
            let value = try JSONValue.parse(Array(text.utf8)).value
            var writer = JSONStreamWriter()
            writer.open("[")
            writer.element()
            writer.value(value)
            writer.close("]")
            #expect(writer.rendered() == JSONOutput.array([JSONOutput(value)]).rendered())
        }
    }

    /// A long array's elements written a block at a time on several threads come out as one
    /// writer writes them: every count around the block size, every number of writers, and
    /// flushes after every element or never. Each element is a random tree of its own.
    @Test func elementsOnSeveralThreadsAreWrittenAsOnOne() {
        func text(_ count: Int, blockSize: Int, writers: Int?, chunk: Int) -> [UInt8] {
            func body(_ writer: inout JSONStreamWriter, _ flush: JSONStreamWriter.Flush) -> Bool {
                writer.open("{")
                writer.key("before"); writer.string("the header")
                writer.key("a"); writer.open("[")
                guard writer.elements(count, flush: flush, blockSize: blockSize, { i, writer in
                    var generator = Generator(state: UInt64(i) &* 0x9E37_79B9 &+ 1)
                    _ = generator.write(into: &writer, depth: 0)
                }) else { return false }
                writer.close("]")
                writer.key("k2"); writer.int(count)
                writer.close("}")
                return true
            }
            guard let writers else { return Array(JSONStreamWriter.rendered(reserving: 0, body).utf8) }
            var bytes: [UInt8] = []
            #expect(JSONStreamWriter.stream(chunk: chunk, writers: writers, to: { bytes += $0; return true }, body))
            return bytes
        }
        for count in [0, 1, 3, 4, 5, 8, 9, 37] {
            let one = text(count, blockSize: 4, writers: nil, chunk: 0)
            for writers in [1, 2, 3] {
                for chunk in [1, 1 << 20] {
                    let same = text(count, blockSize: 4, writers: writers, chunk: chunk) == one
                    #expect(same, "\(count) elements, \(writers) writers, chunks of \(chunk)")
                }
            }
        }
    }

    /// A sink that fails stops the writing: the stream says so, and the sink is not called
    /// again, whichever thread's block it failed on.
    @Test func aFailedSinkStopsTheBlocks() {
        for failing in 1...6 {
            var calls = 0
            let written = JSONStreamWriter.stream(chunk: 1, writers: 2, to: { _ in
                calls += 1
                return calls < failing
            }) { writer, flush in
                writer.open("[")
                guard writer.elements(40, flush: flush, blockSize: 4, { i, writer in writer.int(i) }) else { return false }
                writer.close("]")
                return true
            }
            #expect(!written, "failing at call \(failing)")
            #expect(calls == failing, "failing at call \(failing): \(calls) calls")
        }
    }

    /// Integers at every digit count and at each edge, as Swift writes them.
    @Test func writesIntegersAsSwiftDoes() {
        var values = [0, 1, 9, 10, 99, 100, 101, 999, Int.max, Int.min, Int.min + 1, -1, -10, -99, -100]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            var writer = JSONStreamWriter()
            writer.int(value)
            #expect(writer.rendered() == "\(value)\n")
        }
    }
}
