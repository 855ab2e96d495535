// The JSON reader on any bytes, read whole and streamed in small chunks: only JSONSyntaxError is
// thrown, at an offset inside the input; both reads report the same tokens and the same error; an
// accepted text is one well-nested value; JSONValue.parse accepts exactly what the reader accepts.
import FuzzSupport
import AuditInputs

private func read(_ window: ByteWindow) -> (events: [JSONEvent], error: JSONSyntaxError?) {
    var reader = JSONReader(window: window)
    var recorder = JSONRecorder()
    do {
        try reader.readText(&recorder)
        return (recorder.events, nil)
    } catch let error as JSONSyntaxError {
        return (recorder.events, error)
    } catch {
        Fuzz.check(false, "the JSON reader throws only JSONSyntaxError")
        return ([], nil)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.buffer(data, size)
    let whole = read(ByteWindow(whole: bytes))
    let streamed = read(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)))
    Fuzz.check(whole.events == streamed.events, "the same tokens whole and streamed")
    Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
    if let error = whole.error {
        Fuzz.check(error.offset >= 0 && error.offset <= size, "the error offset is in the input")
        _ = error.reason.message
    } else {
        JSONRecorder(events: whole.events).checkWellFormed(size: size, maxDepth: JSONReader.defaultMaxDepth)
    }
    let parsed = (try? JSONValue.parse(bytes)) != nil
    Fuzz.check(parsed == (whole.error == nil), "JSONValue.parse accepts what the reader accepts")
    return 0
}
