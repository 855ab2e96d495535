// The SharedPreferences XML reader, whole and streamed: only PrefsXMLError is thrown, at an offset
// inside the input; entry offsets lie inside the input and resolve to positions during the visit
// (as the scanner does); both reads give the same entries and error. Then a whole scan with the
// format forced to prefs-xml.
import FuzzSupport
import HabiterAudit

private struct Recorder: PrefsXMLVisitor {
    let window: ByteWindow
    let size: Int
    var entries: [PrefsEntry] = []
    var positions: [SourcePosition] = []

    mutating func entry(_ entry: PrefsEntry) throws {
        for offset in offsets(of: entry).sorted() {
            Fuzz.check(offset >= 0 && offset <= size, "prefs entry offsets are in the input")
            let p = window.position(of: offset)
            Fuzz.check(p.line >= 1 && p.column >= 1 && p.byteOffset == offset, "an entry offset resolves to its position")
            positions.append(p)
        }
        entries.append(entry)
    }
}

private func read(_ window: ByteWindow, size: Int) -> (entries: [PrefsEntry], positions: [SourcePosition], error: PrefsXMLError?) {
    var reader = PrefsXMLReader(window: window)
    var recorder = Recorder(window: window, size: size)
    do {
        try reader.read(&recorder)
        return (recorder.entries, recorder.positions, nil)
    } catch let error as PrefsXMLError {
        Fuzz.check(error.offset >= 0 && error.offset <= size, "the error offset is in the input")
        _ = error.reason.message
        return (recorder.entries, recorder.positions, error)
    } catch {
        Fuzz.check(false, "the prefs reader throws only PrefsXMLError")
        return ([], [], nil)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrefsXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.buffer(data, size)
    let whole = read(ByteWindow(whole: bytes), size: size)
    let streamed = read(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: size)
    Fuzz.check(whole.entries == streamed.entries, "the same entries whole and streamed")
    Fuzz.check(whole.positions == streamed.positions, "the same positions whole and streamed")
    Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
    Fuzz.scan(bytes, with: Fuzz.scanner(.prefsXML))
    return 0
}
