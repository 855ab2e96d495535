// The JWT decoder (also after `Bearer `): a layer is one JSON object {"header": …} or
// {"header": …, "claims": …} whose parts are JSON objects, and the token is still scanned.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWTLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(JWTLayerDecoder(), value) else { return 0 }
    guard case .json = layer.content else { Fuzz.check(false, "a JWT layer is JSON"); return 0 }
    Fuzz.check(!layer.replacesValue, "the token is still scanned")
    guard let events = Fuzz.jsonEvents(layer.bytes) else { Fuzz.check(false, "a JWT layer is one JSON text"); return 0 }
    let keys = events.compactMap { event -> [UInt8]? in if case .key(let k, _, _) = event { k } else { nil } }
    Fuzz.check(keys.first == Array("header".utf8), "the header comes first")
    if case .objectStart = events.first {} else { Fuzz.check(false, "a JWT layer is an object") }
    return 0
}
