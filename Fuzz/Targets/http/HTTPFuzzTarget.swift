// The raw HTTP message reader (internal: built with -enable-testing) over every exchange, read
// whole and streamed: errors are HTTPSyntaxError at an offset inside the input, parts lie inside
// the input, both reads give the same exchanges; then a whole scan with the format forced to http.
import FuzzSupport
@testable import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.buffer(data, size)
    let whole = readHTTP(ByteWindow(whole: bytes), size: size)
    let streamed = readHTTP(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: size)
    Fuzz.check(whole.exchanges == streamed.exchanges, "the same exchanges whole and streamed")
    Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
    Fuzz.scan(bytes, with: Fuzz.scanner(.http))
    return 0
}
