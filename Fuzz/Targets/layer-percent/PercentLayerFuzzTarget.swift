// The percent decoder: a layer is a value of URL component characters and `%` escapes only,
// with at least one escape and none of a form's, a query's or a URL's marks; it decodes to
// what the shared percent decoding gives, and decoding never makes it longer.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPercentLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let (layer, refusal) = Fuzz.decodeOrRefuse(PercentLayerDecoder(), value)
    Fuzz.check((layer != nil || refusal != nil) == PercentLayerDecoder.isPercentEncoded(value), "a layer exactly when the value is percent-encoded")
    guard let layer else { return 0 }
    Fuzz.check(value.contains(UInt8(ascii: "%")) && !value.contains(UInt8(ascii: "=")) && !value.contains(UInt8(ascii: "&")), "escapes, and no form")
    Fuzz.check(layer.bytes == LayerBytes.percentDecode(value, plusAsSpace: false) && layer.bytes.count < value.count, "decoded, and shorter")
    Fuzz.check(!layer.replacesValue, "the value is still scanned as text")
    return 0
}
