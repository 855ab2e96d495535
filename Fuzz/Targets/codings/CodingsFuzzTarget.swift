// Brotli, zstd, xz and bzip2 (the content codings `br` and `zstd`, the zstd layer decoder, and
// the codings an input or a ZIP member comes in), on raw bytes and on well-formed data made of
// the input. The first byte chooses the coding (zstd, Brotli, xz, bzip2 for 0-1, 2-3, 4-5, 6-7)
// and, when odd, that the rest is compressed with it first; else the rest is the coding's data
// as it is. Checks: no trap; limits hold; well-formed data decompresses back to its payload; a
// zstd layer, or a refusal, only behind the frame magic, the layer what `decode` gives, a
// refusal only when it cannot be decompressed.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(Fuzz.buffer(data, size))
    let choice = (input.first ?? 0) % 8
    let payload = Array(input.dropFirst())
    let coding: ContentCoding = [.zstd, .brotli, .xz, .bzip2][Int(choice / 2)]
    var value = payload
    if choice % 2 == 1 {
        let compressed = payload.withUnsafeBytes { bytes in
            switch coding {
            case .zstd: Zstd.compress(bytes)
            case .brotli: Brotli.compress(bytes)
            case .xz: Xz.compress(bytes)
            default: Bzip2.compress(bytes)
            }
        }
        Fuzz.check(compressed != nil, "the library compresses")
        value = compressed ?? []
        let overLimits = payload.count > GzipLayerDecoder.maxOutput || payload.count > value.count * GzipLayerDecoder.maxRatio
        Fuzz.check(overLimits || (try? value.withUnsafeBytes(coding.decode).get()) == payload, "well-formed data decompresses to its payload")
    }
    let decoded = value.withUnsafeBytes(coding.decode)
    if case .success(let bytes) = decoded {
        Fuzz.check(bytes.count <= GzipLayerDecoder.maxOutput && bytes.count <= value.count * GzipLayerDecoder.maxRatio, "limits hold")
    }
    guard coding == .zstd else { return 0 }
    let (layer, refusal) = value.withUnsafeBytes { Fuzz.decodeOrRefuse(ZstdLayerDecoder(), $0) }
    if layer != nil || refusal != nil { Fuzz.check(Zstd.hasMagic(value), "only data behind the frame magic") }
    if let layer { Fuzz.check((try? decoded.get()) == layer.bytes && layer.replacesValue, "the layer is the decompressed data") }
    if refusal != nil { Fuzz.check((try? decoded.get()) == nil, "refused only when it cannot be decompressed") }
    return 0
}
