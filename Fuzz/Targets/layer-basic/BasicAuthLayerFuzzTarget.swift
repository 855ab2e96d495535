// The HTTP Basic credentials decoder: a layer is exactly (username, password), split at the first
// colon of the decoded credentials, which hold no control character.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBasicAuthLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(BasicAuthLayerDecoder(), value) else { return 0 }
    guard case .pairs(let list) = layer.content else { Fuzz.check(false, "a Basic layer is pairs"); return 0 }
    let pairs = Array(list.pairs(in: value))
    Fuzz.check(pairs.map { String(decoding: $0.name, as: UTF8.self) } == ["username", "password"], "username and password")
    Fuzz.check(!pairs[0].value.contains(UInt8(ascii: ":")), "at the first colon")
    Fuzz.check(layer.bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "no control characters")
    Fuzz.check(!layer.replacesValue, "the header value is still scanned")
    return 0
}
