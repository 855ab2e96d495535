// The HTTP message decoder and the raw HTTP reader behind it: a layer is a value whose first
// line is a status line or a request line with its version, and which goes on past it; read, every
// text part and field the reader hands over stands inside the value (a text part is the bytes at
// its range), exchanges are numbered in order, and a read that throws leaves the value to be
// scanned as text.
import FuzzSupport
import AuditCore
@testable import AuditInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPLayer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = Fuzz.buffer(data, size)
    let bytes = value.bindMemory(to: UInt8.self)
    let firstLine = bytes.firstIndex(of: 0x0A).map { UnsafeBufferPointer(rebasing: bytes[..<$0]) }
    let layer = Fuzz.decodeLayer(HTTPLayerDecoder(), value)
    Fuzz.check((layer != nil) == (firstLine.map(HTTPLayerDecoder.isStartLine) ?? false), "a layer exactly when the value starts with a start line and goes on")
    guard let layer else { return 0 }
    Fuzz.check(layer.replacesValue && layer.bytes.isEmpty, "read where it stands, in place of the value")
    let window = ByteWindow(whole: value)
    var reader = HTTPMessageReader(window: window, start: 0)
    var visitor = Visitor(value: bytes)
    do {
        while try reader.nextExchange(&visitor) {
            window.unpin()
            if reader.truncation != nil { break }
        }
    } catch {
        // Refused: the scan reports it at the string and scans the value as text.
    }
    return 0
}

private struct Visitor: HTTPMessageVisitor {
    let value: UnsafeBufferPointer<UInt8>
    var lastExchange = -1

    mutating func text(_ text: HTTPText, _ bytes: UnsafeRawBufferPointer) throws {
        Fuzz.check(text.range.lowerBound >= 0 && text.range.upperBound <= value.count, "a text part inside the value")
        Fuzz.check(value[text.range].elementsEqual(bytes), "a text part is the bytes at its range")
    }

    mutating func field(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws {
        Fuzz.check(field.nameRange.upperBound <= field.valueRange.lowerBound || field.list == .variables, "a name before its value")
        Fuzz.check(field.valueRange.upperBound <= self.value.count && field.nameRange.lowerBound >= 0, "a field inside the value")
    }

    mutating func exchange(_ exchange: HTTPExchange) throws {
        Fuzz.check(exchange.index == lastExchange + 1, "exchanges in order")
        lastExchange = exchange.index
    }
}
