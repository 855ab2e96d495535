// The JSON-in-a-string decoder: it opens only values whose first non-blank byte is `{` or `[`,
// never turns away one that is JSON (or whose first line is, for NDJSON), and the layer is the
// value itself, read as JSON and replacing the value.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let layer = Fuzz.decodeLayer(JSONLayerDecoder(), value)
    let first = value.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    let opens = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    Fuzz.check(layer == nil || opens, "opens only an object or array")
    if opens {
        let firstLine = Array(value.prefix { $0 != 0x0A })
        let isJSON = Fuzz.jsonEvents(Array(value)) != nil || Fuzz.jsonEvents(firstLine) != nil
        Fuzz.check(layer != nil || !isJSON, "turns away no JSON text and no NDJSON whose first line is JSON")
    }
    if let layer {
        guard case .json = layer.content else { Fuzz.check(false, "a JSON layer is JSON"); return 0 }
        Fuzz.check(layer.bytes == Array(value) && layer.replacesValue, "the layer is the value")
        // What the scan does next: read it as JSON (an error is not a layer, never a trap).
        _ = Fuzz.jsonEvents(layer.bytes)
    }
    return 0
}
