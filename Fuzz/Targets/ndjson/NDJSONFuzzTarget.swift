// A whole scan with the input format forced to NDJSON (one document per line): no trap, errors
// as input errors, positions inside the input, the same result whole and streamed.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let outcome = Fuzz.scan(Fuzz.buffer(data, size), with: Fuzz.scanner(.ndjson))
    // No format only when the input could not be read (gzip that does not inflate).
    if let format = outcome.summary.format {
        Fuzz.check(format == "ndjson" || format == "ndjson+gzip", "a forced NDJSON scan reads NDJSON")
    } else {
        Fuzz.check(!outcome.errors.isEmpty, "an NDJSON scan without a format reports why")
    }
    return 0
}
