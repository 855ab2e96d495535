@testable import AuditInputs
import Foundation

/// Helpers for the layer decoder tests: decoding strings and bytes, readable pairs, base64 and
/// gzip encoders, and a seeded random generator so measured rates are reproducible.
enum LayerTesting {
    static func decode(_ decoder: some LayerDecoder, _ text: String) -> DecodedLayer? {
        decode(decoder, Array(text.utf8))
    }

    /// The layer, or nil when the value is not one or the decoder refuses it (`refusal` says).
    static func decode(_ decoder: some LayerDecoder, _ bytes: [UInt8]) -> DecodedLayer? {
        bytes.withUnsafeBytes { (try? decoder.decode($0)) ?? nil }
    }

    /// Why the decoder refuses a value that is its kind of layer, or nil when it opens it or it
    /// is not one.
    static func refusal(_ decoder: some LayerDecoder, _ bytes: [UInt8]) -> LayerRefusal? {
        bytes.withUnsafeBytes { value -> LayerRefusal? in
            do throws(LayerRefusal) {
                _ = try decoder.decode(value)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The pairs of the `.pairs` layer `decoder` opens in `text` as `[name, value]` strings, or nil.
    static func pairs(_ decoder: some LayerDecoder, _ text: String) -> [[String]]? {
        Array(text.utf8).withUnsafeBytes { value in
            guard let layer = (try? decoder.decode(value)) ?? nil, case .pairs(let list) = layer.content else { return nil }
            return list.pairs(in: value).map { [String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)] }
        }
    }

    /// The part of `text` that the pairs of the layer `decoder` opens are read from, or nil.
    static func encodedPairsText(_ decoder: some LayerDecoder, _ text: String) -> String? {
        let bytes = Array(text.utf8)
        let layer = decode(decoder, bytes)
        guard let layer, case .pairs(let list) = layer.content, let range = list.encodedRange else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    static func isJSON(_ layer: DecodedLayer?) -> Bool {
        guard let layer, case .json = layer.content else { return false }
        return true
    }

    /// The layer is the value itself, read as JSON where it stands: nothing was copied.
    static func isValueJSON(_ layer: DecodedLayer?) -> Bool {
        guard let layer, case .valueIsJSON = layer.content else { return false }
        return layer.bytes.isEmpty
    }

    static func isText(_ layer: DecodedLayer?) -> Bool {
        guard let layer, case .text = layer.content else { return false }
        return true
    }

    static func string(_ layer: DecodedLayer?) -> String? {
        layer.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    static func base64(_ bytes: [UInt8], url: Bool = false, padded: Bool = true) -> String {
        var text = Data(bytes).base64EncodedString()
        if url { text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        if !padded { text = text.replacingOccurrences(of: "=", with: "") }
        return text
    }

    static func base64(_ text: String, url: Bool = false, padded: Bool = true) -> String {
        base64(Array(text.utf8), url: url, padded: padded)
    }

    /// Gzip data of `bytes` (zlib, with the gzip wrapper).
    static func gzip(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        gzip(chunks: 1, level: level) { _ in bytes }
    }

    /// Deflate data of `bytes` in `wrapper` (zlib or raw).
    static func deflate(_ bytes: [UInt8], _ wrapper: Zlib.Wrapper = .zlib, level: Int32 = 6) -> [UInt8] {
        var output: [UInt8] = []
        let ok = bytes.withUnsafeBytes { Zlib.Deflater(wrapper, level: level).compress($0, final: true, onto: &output) }
        precondition(ok, "zlib failed to compress")
        return output
    }

    /// Gzip data of the concatenation of `chunks` chunks, each made by `chunk(i)`, compressed as
    /// they come (so 100 MB of zeros need not be held), with the gzip wrapper.
    static func gzip(chunks: Int, level: Int32 = 9, _ chunk: (Int) -> [UInt8]) -> [UInt8] {
        let deflater = Zlib.Deflater(.gzip, level: level)
        var output: [UInt8] = []
        for i in 0..<chunks {
            let ok = chunk(i).withUnsafeBytes { deflater.compress($0, final: i == chunks - 1, onto: &output) }
            precondition(ok, "zlib failed to compress")
        }
        return output
    }
}

/// SplitMix64: a small seeded generator, so random-input measurements repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
