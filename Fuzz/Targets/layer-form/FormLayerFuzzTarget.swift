// The form body decoder: a layer holds the whole value, has one pair per `&`-separated part,
// each with a non-empty name.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(FormLayerDecoder(), value) else { return 0 }
    guard case .pairs(let list) = layer.content else { Fuzz.check(false, "a form layer is pairs"); return 0 }
    let pairs = Array(list.pairs(in: value))
    Fuzz.check(list.encodedRange == 0..<value.count, "a form layer is the whole value")
    Fuzz.check(pairs.count == value.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).count, "one pair per part")
    Fuzz.check(pairs.allSatisfy { !$0.name.isEmpty }, "names are not empty")
    Fuzz.check(value.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "printable ASCII without blanks")
    return 0
}
