import AuditBytes
@testable import HabiterAudit
import Testing

/// The byte search of the hot paths, against a naive search: haystacks on both sides of the
/// 64-byte switch from the loop to `memmem`, needles at the start, the end, overlapping and absent.
@Suite struct ByteSearchTests {
    private func naive(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    @Test func agreesWithANaiveSearch() {
        var generator = SeededGenerator(seed: 0xB5EA)
        let alphabet = Array("\"ab_".utf8)
        for _ in 0..<20_000 {
            let haystack = (0..<Int.random(in: 0...200, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle: [UInt8]
            if !haystack.isEmpty && Bool.random(using: &generator) {
                let start = Int.random(in: 0..<haystack.count, using: &generator)
                needle = Array(haystack[start..<min(haystack.count, start + Int.random(in: 1...12, using: &generator))])
            } else {
                needle = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            }
            let found = haystack.withUnsafeBytes { h in needle.withUnsafeBytes { h.containsBytes($0) } }
            #expect(found == naive(haystack, needle), "\(haystack.count) bytes, needle \(needle)")
        }
    }

    /// `containsByte` on every length across its four ways (a loop, two words, blocks of 16 with
    /// an overlapping last one, `memchr`), the byte at every place or nowhere, read from a slice
    /// of a larger buffer whose bytes around it hold the byte: a search past either end fails.
    @Test func containsByteAgreesWithALoopAtEveryLengthAndPlace() {
        var generator = SeededGenerator(seed: 0xB5EB)
        let wanted = UInt8(ascii: "=")
        for length in 0...150 {
            for place in -1..<length {
                var buffer = [UInt8](repeating: wanted, count: length + 64)
                for i in 32..<(32 + length) { buffer[i] = UInt8.random(in: 0x30...0x39, using: &generator) }
                if place >= 0 { buffer[32 + place] = wanted }
                let found = buffer.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[32..<(32 + length)]).containsByte(wanted) }
                #expect(found == (place >= 0), "\(length) bytes, the byte at \(place)")
            }
        }
    }

    @Test func stringAndStaticStringNeedles() {
        let body = Array(#"{"token_type":"Bearer","expires_in":3600,"scope":"sync","access_token":"x"}"#.utf8)
        #expect(body.count >= 64)
        #expect(body.containsBytes("\"access_token\""))
        #expect(!body.containsBytes("\"refresh_token\""))
        #expect(body.withUnsafeBufferPointer { $0.containsBytes("expires_in" as StaticString) })
        #expect(!body.withUnsafeBufferPointer { $0.containsBytes("id_token" as StaticString) })
    }

    /// `hasBytes(_:at:)` and the prefix checks built on it, against slices compared by value.
    @Test func bytesAtAnOffset() {
        let text = Array("operation/dev-1/42".utf8)
        let pieces: [[UInt8]] = [[], Array("operation/".utf8), Array("dev-1".utf8), Array("dev-2".utf8), Array("42".utf8),
                                 Array("42!".utf8), text, text + [0x30]]
        text.withUnsafeBufferPointer { bytes in
            for piece in pieces {
                for offset in -1...(text.count + 1) {
                    let expected = offset >= 0 && offset + piece.count <= text.count && Array(text[offset..<(offset + piece.count)]) == piece
                    #expect(piece.withUnsafeBufferPointer { bytes.hasBytes($0, at: offset) } == expected, "\(piece) at \(offset)")
                }
                #expect(bytes.hasBytePrefix(piece) == text.starts(with: piece))
            }
            #expect(bytes.hasPrefix("operation/") && !bytes.hasPrefix("operation/x") && bytes.hasPrefix(""))
            // Literals of every length up to the text's and beyond, a single scalar among them
            // (a `StaticString` without a pointer), against the text's prefixes by value.
            let literals: [StaticString] = ["", "o", "p", "op", "operation", "operation/", "operation/dev-1/4", "operation/dev-1/42",
                                            "operation/dev-1/43", "operation/dev-1/42!", "\u{E9}", "x"]
            for literal in literals {
                let expected = literal.withUTF8Buffer { Array($0) }
                #expect(bytes.hasPrefix(literal) == text.starts(with: expected), "\(literal)")
                #expect(bytes.equals(literal) == (text == expected), "\(literal)")
                let cut = UnsafeBufferPointer(rebasing: bytes[..<min(expected.count, bytes.count)])
                #expect(cut.hasPrefix(literal) == (Array(cut) == expected), "\(literal) on the text's first \(cut.count) bytes")
            }
            #expect(UnsafeBufferPointer<UInt8>(start: nil, count: 0).hasBytes(UnsafeBufferPointer(start: nil, count: 0), at: 0))
        }
    }
}
