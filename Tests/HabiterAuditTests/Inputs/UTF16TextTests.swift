@testable import AuditInputs
import Foundation
import Testing

/// UTF-16 text read as UTF-8 (`UTF16Text`, `UTF16Source`): what Foundation's decoder gives, in
/// pieces of any size, with failures at the offset of the code unit that breaks it.
@Suite struct UTF16TextTests {
    /// Serves its bytes a few at a time, as a slow pipe does.
    final class PieceSource: ByteSource {
        private var bytes: [UInt8]
        private let piece: Int

        init(_ bytes: [UInt8], piece: Int) {
            self.bytes = bytes
            self.piece = piece
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
            if bytes.isEmpty { return .end }
            let n = min(piece, buffer.count, bytes.count)
            buffer.copyBytes(from: bytes[0..<n])
            bytes.removeFirst(n)
            return .bytes(n)
        }
    }

    /// All the source gives, read `readSize` bytes at a time; the failure that ended it, if any.
    static func readAll(_ source: UTF16Source, readSize: Int) -> (bytes: [UInt8], failure: String?) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: readSize)
        while true {
            switch buffer.withUnsafeMutableBytes({ source.read(into: $0) }) {
            case .bytes(let n): output += buffer[0..<n]
            case .end: return (output, nil)
            case .failure(let reason): return (output, reason)
            }
        }
    }

    static func encoded(_ text: String, _ order: UTF16Text.ByteOrder, marked: Bool) -> [UInt8] {
        let data = text.data(using: order == .littleEndian ? .utf16LittleEndian : .utf16BigEndian)!
        return (marked ? (order == .littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []) + Array(data)
    }

    /// Random text of ASCII, two- and three-byte characters and surrogate pairs, in both orders,
    /// with and without a mark, read in pieces of 1 to 7 bytes into buffers of 1 to 64: Foundation's
    /// UTF-8 of the text each time.
    @Test func transcodesAsFoundationDoes() {
        var generator = SeededGenerator(seed: 16)
        let alphabet: [Character] = ["a", "Z", "0", " ", "\n", "\t", "é", "ß", "€", "中", "😀", "𝄞", "\u{FFFD}", "\u{7FF}", "\u{800}"]
        for trial in 0..<400 {
            let text = String((0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let order: UTF16Text.ByteOrder = trial % 2 == 0 ? .littleEndian : .bigEndian
            let marked = trial % 4 < 2
            let bytes = Self.encoded(text, order, marked: marked)
            let source = UTF16Source(inner: PieceSource(bytes, piece: .random(in: 1...7, using: &generator)), order: order, markLength: marked ? 2 : 0)
            let read = Self.readAll(source, readSize: .random(in: 1...64, using: &generator))
            #expect(read.failure == nil)
            #expect(read.bytes == Array(text.utf8), "trial \(trial)")
            let whole = bytes.withUnsafeBytes { UTF16Text.decode($0, order: order, markLength: marked ? 2 : 0) }
            #expect(whole == .success(Array(text.utf8)))
            #expect(UTF16Text.encode(Array(text.utf8), order: order, marked: marked) == bytes)
        }
    }

    /// A read writes only into the buffer it is given, however small: characters of three and
    /// four UTF-8 bytes read into buffers of 1 to 4 bytes leave the bytes after them as they were
    /// (fuzz-scan found the transcoder writing past a reader's buffer of a byte or two).
    @Test func aReadStaysInsideItsBuffer() {
        let text = "€😀中é a 𝄞"
        for size in 1...4 {
            let source = UTF16Source(inner: PieceSource(Self.encoded(text, .bigEndian, marked: true), piece: 3), order: .bigEndian, markLength: 2)
            var storage = [UInt8](repeating: 0xAA, count: size + 8)
            var read: [UInt8] = []
            var untouched = true
            while case .bytes(let n) = storage.withUnsafeMutableBytes({ source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }) {
                read += storage[0..<n]
                untouched = untouched && storage[size...].allSatisfy { $0 == 0xAA }
            }
            #expect(untouched, "a read into \(size) bytes wrote past them")
            #expect(read == Array(text.utf8))
        }
    }

    /// A lone surrogate or an odd byte is a failure at its offset in the input (the mark
    /// counted); the text before it is read first.
    @Test func brokenTextFailsAtItsOffset() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xD8, 0x42, 0x00], "invalid UTF-16 at byte 4: a high surrogate without its low one"),
            ([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xDC], "invalid UTF-16 at byte 4: a low surrogate without its high one"),
            ([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xD8], "invalid UTF-16 at byte 4: a high surrogate without its low one"),
            ([0xFE, 0xFF, 0x00, 0x41, 0x00], "invalid UTF-16 at byte 4: an odd number of bytes"),
        ]
        for (bytes, message) in cases {
            let order: UTF16Text.ByteOrder = bytes[0] == 0xFF ? .littleEndian : .bigEndian
            for piece in 1...4 {
                let read = Self.readAll(UTF16Source(inner: PieceSource(bytes, piece: piece), order: order, markLength: 2), readSize: 16)
                #expect(read.failure == message, "piece \(piece)")
                #expect(read.bytes == Array("A".utf8))
            }
            let whole = bytes.withUnsafeBytes { UTF16Text.decode($0, order: order, markLength: 2) }
            #expect(whole.failure?.message == message)
        }
    }

    /// Marks tell the order; without one, code units that are all text, half of them ASCII at
    /// least (eight units at least), do. UTF-32's little-endian mark is not UTF-16's.
    @Test func theByteOrderIsToldByTheMarkOrByASCIIUnits() {
        func order(_ bytes: [UInt8]) -> String {
            bytes.withUnsafeBytes { UTF16Text.byteOrder(of: $0) }.map { "\($0.order.name) \($0.markLength)" } ?? "none"
        }
        #expect(order([0xFF, 0xFE, 0x7B, 0x00]) == "utf16le 2")
        #expect(order([0xFE, 0xFF, 0x00, 0x7B]) == "utf16be 2")
        #expect(order([0xFF, 0xFE, 0x00, 0x00]) == "none")
        #expect(order(Self.encoded("{\"a\": 1}\r\n", .littleEndian, marked: false)) == "utf16le 0")
        #expect(order(Self.encoded("{\"a\": 1}\r\n", .bigEndian, marked: false)) == "utf16be 0")
        #expect(order(Self.encoded("{\"a\":1}", .littleEndian, marked: false)) == "none")  // seven units
        #expect(order(Self.encoded("{\"é\": 1}\r\n", .littleEndian, marked: false)) == "utf16le 0")
        #expect(order(Self.encoded("{\"name\": \"Morgenlauf über die Brücke 🏃\"}\n", .bigEndian, marked: false)) == "utf16be 0")
        // Mostly beyond ASCII (CJK with little markup), a lone surrogate, a C1 control, NUL: no.
        #expect(order(Self.encoded("{\"名前\": \"毎朝走る習慣を続ける\"}", .littleEndian, marked: false)) == "none")
        #expect(order(Self.encoded("{\"a\": 1}\r\n", .littleEndian, marked: false) + [0x00, 0xD8, 0x41, 0x00]) == "none")
        #expect(order(Self.encoded("{\"a\": 1}\r\n\u{85}", .littleEndian, marked: false)) == "none")
        #expect(order(Self.encoded("{\"a\": 1}\r\n\u{0}", .littleEndian, marked: false)) == "none")
        #expect(order([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 16)) == "none")
        #expect(order([UInt8](repeating: 0, count: 32)) == "none")
        #expect(order(Array("plain UTF-8 text, no NUL".utf8)) == "none")
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
