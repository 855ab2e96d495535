@testable import AuditBytes
@testable import AuditInputs
import Testing

/// Escaped string content read 64 bytes at a time (`JSONStringBlock`), against a byte loop
/// written here: the step on random blocks, and the reader on random strings with every escape,
/// UTF-8 and errors, whole and through windows that cut the strings anywhere.
@Suite struct JSONStringBlockTests {
    /// The step a byte at a time: valid bytes up to the closing quote, or the first byte the
    /// block leaves to the reader's byte loop.
    static func referenceStep(_ block: [UInt8]) -> JSONStringBlock.Step {
        var i = 0
        while i < 64 {
            let byte = block[i]
            if byte == UInt8(ascii: "\"") { return .closed(at: i) }
            if byte < 0x20 || byte >= 0x80 { return .bytewise }
            if byte == UInt8(ascii: "\\") {
                if i == 63 { return .passed(63) }
                guard Array(#""\/bfnrt"#.utf8).contains(block[i + 1]) else { return .bytewise }
                i += 2
            } else {
                i += 1
            }
        }
        return .passed(64)
    }

    /// The search of a string without escapes, 16 bytes at a time, must find exactly the first
    /// special byte, whatever follows it (a later special byte of any kind, or none).
    @Test func theSearchFindsTheFirstSpecialByte() {
        TestSupport.expectFirstSpecialByte(width: 16, { JSONStringBlock.firstSpecialByte(in16: $0) },
                                           later: [0x00, 0x22, 0x5C, 0x1F, 0x80, 0xFF]) {
            $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80
        }
    }

    @Test func theSearchFindsTheFirstBackslash() {
        TestSupport.expectFirstSpecialByte(width: 16, { JSONStringBlock.firstBackslash(in16: $0) }, later: [0x22, 0x5C, 0x00, 0xFF]) {
            $0 == 0x5C
        }
    }

    @Test func aBlockStepsAsTheByteLoopSteps() {
        var generator = SeededGenerator(seed: 20261204)
        // Weighted towards what decides a step: quotes, backslashes and what may follow one.
        let alphabet = Array(#"""""\\\\\\\\//bfnrtuxa0 {}:,"#.utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var seen: Set<String> = []
        for _ in 0..<40_000 {
            let density = Int.random(in: 1...8, using: &generator)
            let block = (0..<64).map { _ in
                Int.random(in: 0..<8, using: &generator) < density ? alphabet.randomElement(using: &generator)!
                    : UInt8(ascii: "k")
            }
            let expected = Self.referenceStep(block)
            let step = block.withUnsafeBytes { JSONStringBlock.step($0.baseAddress!) }
            #expect(step == expected, "\(block)")
            switch expected {
            case .closed: seen.insert("closed")
            case .passed(let count): seen.insert("passed \(count)")
            case .bytewise: seen.insert("bytewise")
            }
        }
        #expect(seen == ["closed", "passed 63", "passed 64", "bytewise"])
    }

    /// String content pieces as written in JSON, what they stand for, and the error a piece is
    /// (its reason and its offset in the piece), when it is one.
    static let pieces: [(written: [UInt8], text: [UInt8], error: (JSONSyntaxReason, Int)?)] = {
        var pieces: [(written: [UInt8], text: [UInt8], error: (JSONSyntaxReason, Int)?)] = [
            (Array(#"\""#.utf8), Array("\"".utf8), nil), (Array(#"\\"#.utf8), Array("\\".utf8), nil),
            (Array(#"\/"#.utf8), Array("/".utf8), nil), (Array(#"\n"#.utf8), [0x0A], nil), (Array(#"\t"#.utf8), [0x09], nil),
            (Array(#"\b"#.utf8), [0x08], nil), (Array(#"\f"#.utf8), [0x0C], nil), (Array(#"\r"#.utf8), [0x0D], nil),
            (Array(#"\u00e9"#.utf8), Array("é".utf8), nil), (Array(#"\ud83d\ude00"#.utf8), Array("😀".utf8), nil),
            (Array("é".utf8), Array("é".utf8), nil), (Array("😀".utf8), Array("😀".utf8), nil),
            (Array(#"{\"k\":"#.utf8), Array(#"{"k":"#.utf8), nil),
            // Errors.
            ([0x01], [], (.controlCharacterInString, 0)), (Array(#"\x"#.utf8), [], (.invalidEscape, 0)),
            ([0xFF], [], (.invalidUTF8, 0)), (Array(#"\u12G4"#.utf8), [], (.invalidUnicodeEscape, 0)),
        ]
        for length in [1, 5, 30, 63, 64, 65, 130] {
            let run = Array(String(repeating: "k", count: length).utf8)
            pieces.append((run, run, nil))
        }
        return pieces
    }()

    private static func read(_ bytes: [UInt8], chunkSize: Int?) -> Result<[[UInt8]], JSONSyntaxError> {
        let window = chunkSize.map { ByteWindow(source: ArraySource(bytes), chunkSize: $0) } ?? ByteWindow(copying: bytes)
        var visitor = JSONLongStringTests.Strings()
        var reader = JSONReader(window: window, start: 0)
        do {
            try reader.readText(&visitor)
            return .success(visitor.strings.map(\.text))
        } catch let error as JSONSyntaxError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .success([])
        }
    }

    @Test(arguments: [nil, 64, 97, 4_096] as [Int?])
    func stringsReadAsTheByteLoopReadsThem(chunkSize: Int?) {
        var generator = SeededGenerator(seed: 20261205 &+ UInt64(chunkSize ?? 0))
        var outcomes: Set<String> = []
        for _ in 0..<1_500 {
            var written = Array(#"["x", ""#.utf8), text: [UInt8] = []
            var error: JSONSyntaxError?
            for _ in 0..<Int.random(in: 0..<60, using: &generator) {
                // Errors are rare, so that most strings are long and valid.
                var piece = Self.pieces.randomElement(using: &generator)!
                while piece.error != nil && Int.random(in: 0..<20, using: &generator) != 0 {
                    piece = Self.pieces.randomElement(using: &generator)!
                }
                if error == nil, let (reason, at) = piece.error { error = JSONSyntaxError(reason, at: written.count + at) }
                written += piece.written
                text += piece.text
            }
            written += Array(#"", "y"]"#.utf8)
            switch Self.read(written, chunkSize: chunkSize) {
            case .success(let strings):
                #expect(error == nil, "no error where \(error.map { "\($0)" } ?? "")")
                #expect(strings == [Array("x".utf8), text, Array("y".utf8)])
                outcomes.insert("valid")
            case .failure(let thrown):
                #expect(thrown == error)
                outcomes.insert("\(thrown.reason)")
            }
        }
        #expect(outcomes.count == 5, "\(outcomes)")
    }
}
