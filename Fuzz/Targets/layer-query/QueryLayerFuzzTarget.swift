// The URL query decoder: a layer is the query as written (a part of the value after its first
// `?`), with at least one pair, and the URL is still scanned.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(QueryLayerDecoder(), value) else { return 0 }
    guard case .pairs = layer.content else { Fuzz.check(false, "a query layer is pairs"); return 0 }
    Fuzz.check(Fuzz.contains(Array(value), [UInt8(ascii: "?")] + layer.bytes), "the query follows a ?")
    Fuzz.check(!layer.bytes.contains(UInt8(ascii: "#")), "the fragment is not part of the query")
    Fuzz.check(value.allSatisfy { $0 > 0x20 && $0 != 0x7F }, "no blanks or control characters")
    Fuzz.check(!layer.replacesValue, "the URL is still scanned")
    return 0
}
