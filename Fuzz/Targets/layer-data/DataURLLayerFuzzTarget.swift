// The data URL decoder: a layer is a URL that starts with `data:`, whose base64 payload opens
// exactly as the base64 decoder opens it and whose percent-encoded payload is decoded.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDataURLLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let (layer, refusal) = Fuzz.decodeOrRefuse(DataURLLayerDecoder(), value)
    guard layer != nil || refusal != nil else { return 0 }
    guard let (payload, isBase64) = DataURLLayerDecoder.payload(of: value) else { Fuzz.check(false, "a layer is a data URL"); return 0 }
    Fuzz.check(payload.upperBound == value.count && value[payload.lowerBound - 1] == UInt8(ascii: ","), "the payload follows the first comma")
    let bytes = UnsafeRawBufferPointer(rebasing: value[payload])
    if isBase64 {
        let (base64, base64Refusal) = Fuzz.decodeOrRefuse(Base64LayerDecoder(), bytes)
        Fuzz.check(base64?.bytes == layer?.bytes && base64Refusal == refusal, "base64 opens as the base64 decoder opens it")
    } else {
        Fuzz.check(refusal == nil && layer?.bytes == LayerBytes.percentDecode(bytes, plusAsSpace: false), "text is percent-decoded")
    }
    if let layer { Fuzz.check(!layer.replacesValue, "the URL is still scanned as text") }
    return 0
}
