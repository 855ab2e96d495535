// The DataStore preferences reader, whole and streamed: only DataStoreError is thrown, at an
// offset inside the input; entries lie inside the input in increasing order, each key and value
// inside its entry; both reads give the same entries and error. A file the reader accepts is
// detected as DataStore by content (when its first tag is written in one byte), and each string, set or bytes entry written again by the
// redactor's writer reads back as the same entry. Then a whole scan with the format forced to
// datastore.
import FuzzSupport
@testable import HabiterAudit

private struct Recorder: DataStoreVisitor {
    let size: Int
    var entries: [DataStoreEntry] = []

    mutating func entry(_ entry: DataStoreEntry) throws {
        let previousEnd = entries.last?.range.upperBound ?? 0
        Fuzz.check(entry.range.lowerBound == previousEnd && entry.range.upperBound <= size, "entries follow each other inside the input")
        Fuzz.check(entry.range.contains(entry.keyOffset) || entry.keyOffset == entry.range.upperBound, "the key lies in its entry")
        Fuzz.check(entry.valueOffset >= entry.range.lowerBound && entry.valueOffset <= entry.range.upperBound, "the value lies in its entry")
        entries.append(entry)
    }
}

private func read(_ window: ByteWindow, size: Int) -> (entries: [DataStoreEntry], error: DataStoreError?) {
    var reader = DataStoreReader(window: window)
    var recorder = Recorder(size: size)
    do {
        try reader.read(&recorder)
        return (recorder.entries, nil)
    } catch let error as DataStoreError {
        Fuzz.check(error.offset >= 0 && error.offset <= size, "the error offset is in the input")
        _ = error.reason.message
        return (recorder.entries, error)
    } catch {
        Fuzz.check(false, "the DataStore reader throws only DataStoreError")
        return ([], nil)
    }
}

/// The entry written again as the redactor writes it, when its value is one the redactor rewrites.
private func rewritten(_ entry: DataStoreEntry) -> [UInt8]? {
    switch entry.value {
    case .string(let text): return DataStoreWriter.entry(key: entry.key, value: DataStoreWriter.stringValue(text.bytes))
    case .stringSet(let members): return DataStoreWriter.entry(key: entry.key, value: DataStoreWriter.stringSetValue(members.map(\.bytes)))
    case .bytes(let bytes): return DataStoreWriter.entry(key: entry.key, value: DataStoreWriter.bytesValue(bytes.bytes))
    case .boolean, .float, .integer, .long, .double: return nil
    }
}

/// The value without its offsets, to compare an entry with its rewritten copy.
private func payload(_ value: DataStoreValue) -> [[UInt8]] {
    switch value {
    case .string(let text), .bytes(let text): return [text.bytes]
    case .stringSet(let members): return members.map(\.bytes)
    case .boolean, .float, .integer, .long, .double: return []
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDataStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.buffer(data, size)
    let whole = read(ByteWindow(whole: bytes), size: size)
    let streamed = read(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: size)
    Fuzz.check(whole.entries == streamed.entries, "the same entries whole and streamed")
    Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
    if whole.error == nil, size > 0, bytes[0] == 0x0A {
        Fuzz.check(DataStoreReader.looksLikePreferenceMap(bytes.bindMemory(to: UInt8.self)), "a file the reader accepts is detected")
    }
    for entry in whole.entries {
        guard let copy = rewritten(entry) else { continue }
        let again = copy.withUnsafeBytes { read(ByteWindow(whole: $0), size: copy.count) }
        Fuzz.check(again.error == nil && again.entries.count == 1, "a rewritten entry reads")
        Fuzz.check(again.entries.first?.key == entry.key && again.entries.first.map { payload($0.value) } == payload(entry.value),
                   "a rewritten entry reads back as the same key and value")
    }
    Fuzz.scan(bytes, with: Fuzz.scanner(.datastore))
    return 0
}
