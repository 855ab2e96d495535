// The multipart/form-data decoder: a layer is a body whose first line is a delimiter and whose
// first part is form-data; its parts' names and bodies are ranges of the value, in order, and the
// scan's pass in place, the iterator and the redactor's part reader give the same parts.
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipartLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    guard let layer = Fuzz.decodeLayer(MultipartLayerDecoder(), value) else { return 0 }
    guard case .pairs(let list) = layer.content else { Fuzz.check(false, "a multipart layer is pairs"); return 0 }
    Fuzz.check(!layer.replacesValue, "the body is still scanned as text")
    guard let boundary = MultipartParts.boundary(of: value) else { Fuzz.check(false, "a layer has a boundary"); return 0 }
    Fuzz.check(value[0] == UInt8(ascii: "-") && value[1] == UInt8(ascii: "-") && (1...70).contains(boundary.count), "the first line is a delimiter")
    let parts = Array(MultipartParts(value, boundary: boundary))
    Fuzz.check(parts.first?.isFormData == true, "the first part is form-data")
    var end = boundary.upperBound
    for part in parts {
        Fuzz.check(part.name.upperBound <= part.body.lowerBound && part.body.upperBound <= value.count, "ranges inside the value")
        Fuzz.check(part.name.lowerBound >= end, "parts in order")
        end = part.body.upperBound
    }
    var inPlace: [[UInt8]] = []
    list.pairs(in: value).forEachInPlace { name, body, _ in inPlace.append(Array(name) + [0] + Array(body)) }
    let iterated = list.pairs(in: value).map { $0.name + [0] + $0.value }
    let read = parts.map { Array(value[$0.name]) + [0] + Array(value[$0.body]) }
    Fuzz.check(inPlace == read && iterated == read, "one reading of the parts")
    return 0
}
