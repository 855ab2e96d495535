// The deflate decoder, on raw bytes and on well-formed deflate data made of the input. The
// first byte chooses: a multiple of 3 -> the input as it is; 1 -> the rest in the zlib format;
// 2 -> the rest as raw deflate. Checks: no trap; a layer, or a refusal, only behind a zlib
// header whose first bytes inflate to text, and the layer is what `inflate` gives; limits hold;
// well-formed data inflates back to its payload.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeflateLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(Fuzz.buffer(data, size))
    let payload = Array(input.dropFirst())
    let value: [UInt8]
    switch (input.first ?? 0) % 3 {
    case 1, 2:
        var compressed: [UInt8] = []
        let wrapper: Zlib.Wrapper = input.first! % 3 == 1 ? .zlib : .raw
        Fuzz.check(payload.withUnsafeBytes { Zlib.Deflater(wrapper).compress($0, final: true, onto: &compressed) }, "zlib compresses")
        let overLimits = payload.count > GzipLayerDecoder.maxOutput || payload.count > compressed.count * GzipLayerDecoder.maxRatio
        Fuzz.check(overLimits || (try? DeflateLayerDecoder.inflate(compressed).get()) == payload, "well-formed deflate data inflates to its payload")
        value = compressed
    default:
        value = input
    }
    let inflated = DeflateLayerDecoder.inflate(value)
    if case .success(let bytes) = inflated {
        Fuzz.check(bytes.count <= GzipLayerDecoder.maxOutput && bytes.count <= value.count * GzipLayerDecoder.maxRatio, "limits hold")
    }
    let (layer, refusal) = value.withUnsafeBytes { Fuzz.decodeOrRefuse(DeflateLayerDecoder(), $0) }
    if layer != nil || refusal != nil {
        Fuzz.check(value.withUnsafeBytes(DeflateLayerDecoder.opens), "only zlib data that begins as text")
    }
    if let layer { Fuzz.check((try? inflated.get()) == layer.bytes && layer.replacesValue, "the layer is the inflated data") }
    if refusal != nil { Fuzz.check((try? inflated.get()) == nil, "refused only when it cannot be inflated") }
    return 0
}
