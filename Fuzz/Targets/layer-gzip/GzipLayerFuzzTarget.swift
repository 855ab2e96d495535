// The gzip decoder, on raw bytes and on well-formed gzip built from the input. The first byte
// chooses: 0x1F or a multiple of 4 -> the input as it is; 1 -> one member of the rest; 2 -> the
// rest split into two members (and stored blocks); 3 -> one member then the rest again as
// trailing bytes. Checks: no trap; `decode` opens exactly what `inflate` inflates; limits hold
// (maxOutput, maxRatio); well-formed members inflate back to their payload.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzipLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(Fuzz.buffer(data, size))
    let mode = input.first.map { $0 == 0x1F ? 0 : $0 & 3 } ?? 0
    let payload = input.dropFirst()
    var expected: [UInt8]?
    let value: [UInt8]
    switch mode {
    case 1:
        value = StoredGzip.member(payload)
        expected = Array(payload)
    case 2:
        let cut = payload.startIndex + payload.count / 2
        value = StoredGzip.member(payload[..<cut], blockSize: 7) + StoredGzip.member(payload[cut...])
        expected = Array(payload)
    case 3:
        value = StoredGzip.member(payload) + payload
        // Trailing bytes are ignored unless they start another member.
        if !(payload.count >= 2 && payload.first == 0x1F && payload.dropFirst().first == 0x8B) { expected = Array(payload) }
    default:
        value = input
    }
    let inflated = GzipLayerDecoder.inflate(value)
    if let expected {
        Fuzz.check((try? inflated.get()) == expected, "a well-formed gzip member inflates to its payload")
    }
    let (layer, refusal) = value.withUnsafeBytes { Fuzz.decodeOrRefuse(GzipLayerDecoder(), $0) }
    let headerPasses = value.count >= 20 && GzipLayerDecoder.hasMagic(value) && value[3] & 0xE0 == 0
    switch inflated {
    case .success(let bytes):
        Fuzz.check(bytes.count <= GzipLayerDecoder.maxOutput && bytes.count <= value.count * GzipLayerDecoder.maxRatio, "limits hold")
        if headerPasses {
            Fuzz.check(layer?.bytes == bytes, "decode opens what inflate inflates")
        }
    case .failure(let error):
        Fuzz.check(layer == nil, "decode does not open what inflate refuses")
        // Recognised by its header: refused, never passed over as not gzip.
        if headerPasses { Fuzz.check(refusal != nil && (refusal?.kind == .limit) == error.isLimit, "decode refuses what inflate refuses") }
        _ = error.message
    }
    if !headerPasses { Fuzz.check(layer == nil && refusal == nil, "without the header, no layer and no refusal") }
    if let layer {
        guard case .text = layer.content else { Fuzz.check(false, "a gzip layer is text"); return 0 }
        Fuzz.check(layer.replacesValue, "inflated text replaces the compressed bytes")
    }
    // Tight limits: stops early, never holds more than allowed.
    if case .success(let bytes) = GzipLayerDecoder.inflate(value, maxOutput: 64, maxRatio: 2) {
        Fuzz.check(bytes.count <= 64 && bytes.count <= value.count * 2, "tight limits hold")
    }
    return 0
}
