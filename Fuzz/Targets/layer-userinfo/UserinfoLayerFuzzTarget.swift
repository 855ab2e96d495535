// The URL userinfo decoder: a layer is (username, password) from the userinfo written in the
// value before the host, with a non-empty password, and the URL is still scanned.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUserinfoLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(UserinfoLayerDecoder(), value) else { return 0 }
    guard case .pairs(let list) = layer.content else { Fuzz.check(false, "a userinfo layer is pairs"); return 0 }
    let pairs = Array(list.pairs(in: value))
    Fuzz.check(pairs.map { String(decoding: $0.name, as: UTF8.self) } == ["username", "password"], "username and password")
    Fuzz.check(!pairs[1].value.isEmpty, "a password")
    Fuzz.check(Fuzz.contains(Array(value), Array("://".utf8) + layer.bytes + [UInt8(ascii: "@")]), "the userinfo sits after :// and before @")
    Fuzz.check(value.allSatisfy { $0 > 0x20 && $0 != 0x7F }, "no blanks or control characters")
    Fuzz.check(!layer.replacesValue, "the URL is still scanned")
    return 0
}
