// The URL userinfo decoder: a layer is (username, password) from the userinfo written in the
// value before the host, with a non-empty password, and the URL is still scanned. The pairs are
// the percent-decoded bytes of the ranges `credentials(in:)` gives (which the redactor rewrites):
// the username right after `://`, then `:`, the password, and `@`.
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
    if let (username, password) = UserinfoLayerDecoder.credentials(in: value) {
        Fuzz.check(username.lowerBound >= 3 && Array(value[(username.lowerBound - 3)..<username.lowerBound]) == Array("://".utf8), "the username follows ://")
        Fuzz.check(password.lowerBound == username.upperBound + 1 && value[username.upperBound] == UInt8(ascii: ":"), "a colon between")
        Fuzz.check(!password.isEmpty && password.upperBound < value.count && value[password.upperBound] == UInt8(ascii: "@"), "the password ends at an @")
        Fuzz.check(pairs[0].value == LayerBytes.percentDecode(value[username], plusAsSpace: false)
                   && pairs[1].value == LayerBytes.percentDecode(value[password], plusAsSpace: false), "the pairs are the ranges, decoded")
    } else {
        Fuzz.check(false, "the ranges of a layer")
    }
    Fuzz.check(!layer.replacesValue, "the URL is still scanned")
    return 0
}
