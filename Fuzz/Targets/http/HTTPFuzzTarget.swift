// The raw HTTP message reader (internal: built with -enable-testing) over every exchange, read
// whole and streamed: errors are HTTPSyntaxError at an offset inside the input, parts lie inside
// the input, both reads give the same parts; then a whole scan with the format forced to http.
//
// An input whose first byte is 0x01 to 0x04 is a recipe instead (no capture starts with a control
// byte): the second byte picks a hostile number (`Fuzz.hostileDecimals`, `Fuzz.hostileHex`) that
// is spliced, as the first byte says, into a Content-Length, a chunk size, both messages of an
// exchange, or a chunk after a valid one; the rest of the input is the body.
import FuzzSupport
@testable import AuditInputs

/// The message a recipe input stands for, or the input itself.
private func message(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    guard bytes.count >= 2, (1...4).contains(bytes[0]) else { return Array(bytes) }
    let rest = Array(bytes[2...])
    let decimal = Array(Fuzz.hostileDecimals[Int(bytes[1]) % Fuzz.hostileDecimals.count].utf8)
    let hex = Array(Fuzz.hostileHex[Int(bytes[1]) % Fuzz.hostileHex.count].utf8)
    let crlf: [UInt8] = [0x0D, 0x0A]
    switch bytes[0] {
    case 1:
        return Array("HTTP/1.1 200 OK\r\nContent-Length: ".utf8) + decimal + crlf + crlf + rest
    case 2:
        return Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + hex + crlf + rest
    case 3:
        let head = Array("POST /v1/push HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ".utf8) + decimal + crlf + crlf
        return head + rest + crlf + Array("HTTP/1.1 200 OK\r\nContent-Length: ".utf8) + decimal + crlf + crlf + rest
    default:
        return Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n".utf8) + hex + crlf + rest + crlf + Array("0\r\n\r\n".utf8)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = message(Fuzz.buffer(data, size))
    input.withUnsafeBytes { bytes in
        let whole = readHTTP(ByteWindow(whole: bytes), size: bytes.count)
        let streamed = readHTTP(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: bytes.count)
        Fuzz.check(whole.exchanges == streamed.exchanges, "the same exchanges whole and streamed")
        Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
        Fuzz.scan(bytes, with: Fuzz.scanner(.http))
    }
    return 0
}
