// A whole scan with the input format forced to HAR (the JSON reader with the HAR visitor, entries,
// headers, bodies, base64 and gzip bodies, layers): no trap, errors as input errors, positions
// inside the input, the same result whole and streamed.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.scan(Fuzz.buffer(data, size), with: Fuzz.scanner(.har))
    return 0
}
