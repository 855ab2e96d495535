// Checks every layer decoder must pass, and a gzip writer for well-formed gzip members.
import Foundation
@testable import AuditInputs

extension Fuzz {
    /// Decodes `value` with `decoder` (ungated: a scan asks only behind the decoder's `LayerGate`,
    /// but `decode` is public and must not trap on anything) and checks what holds for every
    /// decoder: decoded names and values no larger than the value (percent-decoding never grows);
    /// a refusal has a reason. A refused value gives nil, as one that is not a layer.
    public static func decodeLayer(_ decoder: any LayerDecoder, _ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        decodeOrRefuse(decoder, value).layer
    }

    /// As `decodeLayer`, telling a refusal apart.
    public static func decodeOrRefuse(_ decoder: any LayerDecoder, _ value: UnsafeRawBufferPointer) -> (layer: DecodedLayer?, refusal: LayerRefusal?) {
        let decoded: DecodedLayer?
        do throws(LayerRefusal) {
            decoded = try decoder.decode(value)
        } catch {
            check(!error.reason.isEmpty, "a refusal says why")
            return (nil, error)
        }
        guard let layer = decoded else { return (nil, nil) }
        if case .pairs(let list) = layer.content {
            let pairs = Array(list.pairs(in: value))
            check(!pairs.isEmpty, "a pairs layer has pairs")
            if let range = list.encodedRange { check(range.clamped(to: 0..<value.count) == range, "the pairs are read from within the value") }
            for pair in pairs {
                check(pair.name.count <= max(value.count, 8) && pair.value.count <= value.count, "decoded pairs are not larger than the value")
            }
        }
        return (layer, nil)
    }

    /// True when `small` occurs in `big`.
    public static func contains(_ big: [UInt8], _ small: [UInt8]) -> Bool {
        if small.isEmpty { return true }
        guard big.count >= small.count else { return false }
        for i in 0...(big.count - small.count) where big[i] == small[0] && Array(big[i..<(i + small.count)]) == small {
            return true
        }
        return false
    }

    /// JSON tokens of `bytes` when it is one JSON text (any depth), else nil.
    public static func jsonEvents(_ bytes: [UInt8]) -> [JSONEvent]? {
        bytes.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer, maxDepth: 1 << 16)
            var recorder = JSONRecorder()
            do { try reader.readText(&recorder) } catch { return nil }
            return recorder.events
        }
    }
}

/// Writes gzip members with stored (uncompressed) deflate blocks: valid gzip for any payload,
/// without a compressor, so the fuzzer's payload reaches the decoder's member and limit logic.
public enum StoredGzip {
    public static func member(_ payload: ArraySlice<UInt8>, blockSize: Int = 65535) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var start = payload.startIndex
        repeat {
            let n = min(max(1, blockSize), 65535, payload.endIndex - start)
            let final = start + n == payload.endIndex
            out.append(final ? 0x01 : 0x00)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += payload[start..<(start + n)]
            start += n
        } while start < payload.endIndex
        out += littleEndian(crc32(payload)) + littleEndian(UInt32(truncatingIfNeeded: payload.count))
        return out
    }

    static func littleEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
    }

    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
