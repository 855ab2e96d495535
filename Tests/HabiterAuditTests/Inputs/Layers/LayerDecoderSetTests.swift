@testable import AuditInputs
import Testing

/// The decoder set the scan offers every string value to: its gate tables, and decoders that
/// are cheap to call out of an existential.
@Suite struct LayerDecoderSetTests {
    /// A decoder with a stored property (a name was one) is copied with a retain and a release
    /// each time the scan offers it a value.
    @Test func standardDecodersKeepNoStoredProperty() {
        func size(of decoder: some LayerDecoder) -> Int { MemoryLayout.size(ofValue: decoder) }
        for decoder in LayerDecoders.standard {
            #expect(size(of: decoder) == 0, "\(decoder.name)")
        }
    }

    /// The lookup tables give the decoders whose gate a value passes, as each gate says it.
    @Test func candidatesAreTheDecodersWhoseGateTheValuePasses() {
        let set = LayerDecoderSet(LayerDecoders.standard)
        let values = ["", "{", "{}", " [1]", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "Basic dXNlcjpwYXNz", "a=1", "=",
                      "https://example.org/a?b=c", "/path?q", "user:pw@host.example", "\u{1F}\u{8B}\u{08}\u{00}" + String(repeating: "x", count: 20),
                      "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", "#x=1&y=2", "0123456789abcdef0123", "b", "B" + String(repeating: "=", count: 12)]
        var generator = SeededGenerator(seed: 0x6A7E)
        // Every length to past the longest minimum, every first byte a gate names, and the
        // bytes a gate requires, anywhere.
        let random = (0..<4_000).map { _ in
            let first = Array("{[ eBbhHwW/\u{1F}aZ09#=@.?x".utf8).randomElement(using: &generator)!
            let rest = (0..<Int.random(in: 0...80, using: &generator)).map { _ in Array("ab09=@#.?/% ".utf8).randomElement(using: &generator)! }
            return String(decoding: [first] + rest, as: UTF8.self)
        }
        for value in values + random {
            let bytes = Array(value.utf8)
            var expected: UInt16 = 0
            for (i, decoder) in LayerDecoders.standard.enumerated() {
                let gate = decoder.gate
                guard bytes.count >= gate.minimumLength, let first = bytes.first else { continue }
                if let firstBytes = gate.firstBytes, !firstBytes.utf8.contains(first) { continue }
                if let required = gate.requiredByte, !bytes.contains(required) { continue }
                expected |= 1 << UInt16(i)
            }
            let mask = bytes.withUnsafeBytes { set.candidates($0) }
            #expect(mask == expected, "\(value.debugDescription)")
        }
    }
}
