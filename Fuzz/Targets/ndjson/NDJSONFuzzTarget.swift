// A whole scan with the input format forced to NDJSON (one document per line): no trap, errors
// as input errors, positions inside the input, the same result whole and streamed.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let outcome = Fuzz.scan(Fuzz.buffer(data, size), with: Fuzz.scanner(.ndjson))
    Fuzz.check(outcome.summary.format == "ndjson", "a forced NDJSON scan reads NDJSON")
    return 0
}
