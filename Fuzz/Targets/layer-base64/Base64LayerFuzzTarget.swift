// The base64 layer decoder and the forced decoder (HAR bodies with "encoding": "base64").
// A layer is text, is what the lenient decoder gives too, and has 3/4 of the symbols' size;
// the forced decoder fails only with Base64Error at an offset inside the input, and what it
// decodes comes back the same after encoding it again.
import Foundation
import FuzzSupport
import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBase64Layer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let forced = Base64LayerDecoder.decodeForced(value)
    let (decoded, refusal) = Fuzz.decodeOrRefuse(Base64LayerDecoder(), value)
    if let refusal {
        Fuzz.check(refusal.kind == .limit && value.count * 3 / 4 > Base64LayerDecoder.maxDecodedBytes, "base64 is refused only for its size")
    }
    if let layer = decoded {
        guard case .text = layer.content else { Fuzz.check(false, "a base64 layer is text"); return 0 }
        Fuzz.check(!layer.replacesValue, "a base64 value is still scanned as text")
        let symbols = value.filter { $0 != UInt8(ascii: "=") && $0 != 0x0A && $0 != 0x0D }.count
        Fuzz.check(layer.bytes.count == symbols * 3 / 4, "a base64 layer decodes 6 bits per symbol")
        Fuzz.check((try? forced.get()) == layer.bytes, "the strict and the forced decoder agree")
    }
    switch forced {
    case .success(let bytes):
        Fuzz.check(bytes.count <= size * 3 / 4, "base64 shrinks")
        let again = Base64LayerDecoder.decodeForced(Array(Data(bytes).base64EncodedString().utf8))
        Fuzz.check((try? again.get()) == bytes, "decoded base64 survives encoding again")
    case .failure(let error):
        switch error {
        case .invalidCharacter(let offset), .dataAfterPadding(let offset):
            Fuzz.check(offset >= 0 && offset < size, "the error offset is in the input")
        case .truncated, .tooLarge: break
        }
        _ = error.message
    }
    let small = Base64LayerDecoder.decodeForced(value, maxBytes: 16)
    if case .success(let bytes) = small { Fuzz.check(bytes.count <= 16, "maxBytes holds") }
    return 0
}
