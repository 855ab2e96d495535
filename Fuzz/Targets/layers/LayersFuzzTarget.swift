// The layer pipeline as a scan runs it: the input (as UTF-8 text) becomes one JSON string value,
// and the scan offers it to every decoder, opening layers inside layers up to the depth limit
// (JSON in a string, base64, gzip, JWT, query, form, userinfo, Basic), then runs the detectors.
// The document always parses; a layer a decoder refuses is the only parse error.
import FuzzSupport
import HabiterAudit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayers(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: Fuzz.buffer(data, size), as: UTF8.self)
    var document = Array(#"{"note":""#.utf8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": document += Array(#"\""#.utf8)
        case "\\": document += Array(#"\\"#.utf8)
        case "\n": document += Array(#"\n"#.utf8)
        case "\r": document += Array(#"\r"#.utf8)
        case "\t": document += Array(#"\t"#.utf8)
        case _ where scalar.value < 0x20:
            let hex = Array("0123456789abcdef".utf8)
            document += Array(#"\u00"#.utf8) + [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xF)]]
        default: document += Array(String(scalar).utf8)
        }
    }
    document += Array(#""}"#.utf8)
    document.withUnsafeBytes { buffer in
        let outcome = Fuzz.scan(buffer, with: Fuzz.scanner(.json))
        // The only parse error is a refused layer: gzip inside (base64 of) the value that breaks
        // after a valid header is recognised, so it is an error, never text.
        Fuzz.check(outcome.errors.allSatisfy { $0.kind != .parse || $0.reason.hasPrefix("gzip data that cannot be opened") },
                   "an escaped string is always valid JSON")
    }
    return 0
}
