// The library's end-to-end entry point as the CLI uses it: format detection (gzip undone first),
// then whichever reader the content asks for, the layers and the detectors. No trap, positions
// inside the input, the same result whole and streamed.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.scan(Fuzz.buffer(data, size), with: Fuzz.scanner(.auto))
    return 0
}
