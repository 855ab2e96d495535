import AuditCore
@testable import AuditReport
import Testing

/// How the JSON writers escape a string's bytes (`JSONOutput.writeEscaped`, eight at a time
/// while none needs an escape), against a plain byte loop, and the report's enum words, which
/// the streaming writer copies unescaped.
@Suite struct JSONEscapeTests {
    /// What JSON escaping gives for `bytes`, one byte at a time.
    static func plainlyEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20, 0x7F: out += Array(String(format: "\\u%04x", Int(b)).utf8)
            default: out.append(b)
            }
        }
        return out
    }

    /// Strings of 0 to 40 bytes, plain or with bytes to escape and UTF-8 anywhere (in a word, in
    /// the bytes after the last), escaped into room of exactly `maxEscapedLength` with a guard
    /// past it.
    @Test func escapesAsAByteLoopDoesWithinItsRoom() {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let specials: [UInt8] = [0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x00, 0x01, 0x1F, 0x7F, 0xC3, 0xA9, 0x20, 0x7E, 0x80, 0xFF]
        for _ in 0..<20_000 {
            let length = next(41)
            var bytes = (0..<length).map { _ in UInt8(ascii: "a") + UInt8(next(26)) }
            for _ in 0..<(next(3) == 0 ? 0 : next(4)) where length > 0 {
                bytes[next(length)] = specials[next(specials.count)]
            }
            let room = JSONOutput.maxEscapedLength(bytes.count)
            let out = UnsafeMutablePointer<UInt8>.allocate(capacity: room + 16)
            defer { out.deallocate() }
            out.initialize(repeating: 0xEE, count: room + 16)
            let written = bytes.withUnsafeBufferPointer { JSONOutput.writeEscaped($0, into: out) }
            #expect(Array(UnsafeBufferPointer(start: out, count: written)) == Self.plainlyEscaped(bytes), "\(bytes)")
            #expect(UnsafeBufferPointer(start: out + room, count: 16).allSatisfy { $0 == 0xEE }, "wrote past its room: \(bytes)")
        }
    }

    /// The streaming writer copies these enums' raw values without escaping them
    /// (`JSONStreamWriter.rawValue`): each case must be a plain word.
    @Test func reportEnumWordsNeedNoEscape() {
        let words = Level.allCases.map(\.rawValue) + Family.allCases.map(\.rawValue) + ScanContext.allCases.map(\.rawValue)
            + Confidence.allCases.map(\.rawValue) + BaselineState.allCases.map(\.rawValue)
        for word in words {
            #expect(Array(word.utf8).withUnsafeBufferPointer(JSONOutput.needsNoEscape), "\(word)")
        }
        #expect(!Array("a\"b".utf8).withUnsafeBufferPointer(JSONOutput.needsNoEscape))
    }
}
