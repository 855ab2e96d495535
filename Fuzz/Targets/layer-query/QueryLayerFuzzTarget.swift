// The URL query decoder: a layer is the query as written (a part of the value after its first
// `?`), with at least one pair, and the URL is still scanned.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(QueryLayerDecoder(), value) else { return 0 }
    guard case .pairs(let list) = layer.content, let range = list.encodedRange else { Fuzz.check(false, "a query layer is encoded pairs"); return 0 }
    Fuzz.check(range.lowerBound > 0 && value[range.lowerBound - 1] == UInt8(ascii: "?"), "the query follows a ?")
    Fuzz.check(!value[range].contains(UInt8(ascii: "#")), "the fragment is not part of the query")
    Fuzz.check(value.allSatisfy { $0 > 0x20 && $0 != 0x7F }, "no blanks or control characters")
    Fuzz.check(!layer.replacesValue, "the URL is still scanned")
    return 0
}
