// The DataStore preferences reader, whole and streamed: only DataStoreError is thrown, at an
// offset inside the input; entries lie inside the input in increasing order, each key and value
// inside its entry; both reads give the same entries and error. A file the reader accepts is
// detected as DataStore by content (when its first tag is written in one byte), and each entry
// written again by the redactor's writer reads back as the same entry. Then a whole scan with
// the format forced to datastore.
//
// An input whose first byte is 0x01 to 0x04 is a recipe instead (a store starts with 0x0A): the
// second byte picks a hostile varint (`Fuzz.hostileVarints`) written, as the first byte says, as
// the length of the map entry, of its key, of its `Value`, or of a string in it; the other
// lengths fit the rest of the input, which is the key and the string.
import FuzzSupport
@testable import AuditInputs
@testable import AuditRedact

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

/// The entry written again as the redactor writes it (any value: a secret key is rewritten).
private func rewritten(_ entry: DataStoreEntry) -> [UInt8] {
    DataStoreWriter.entry(key: entry.key, value: DataStoreWriter.value(entry.value))
}

/// The value without its offsets, to compare an entry with its rewritten copy.
private func payload(_ value: DataStoreValue) -> [[UInt8]] {
    switch value {
    case .string(let text), .bytes(let text): return [text.bytes]
    case .stringSet(let members): return members.map(\.bytes)
    case .boolean(let flag): return [[flag ? 1 : 0]]
    case .float(let bits): return [Fuzz.varint(UInt64(bits))]
    case .integer(let number): return [Fuzz.varint(UInt64(bitPattern: Int64(number)))]
    case .long(let number): return [Fuzz.varint(UInt64(bitPattern: number))]
    case .double(let bits): return [Fuzz.varint(bits)]
    }
}

/// The store a recipe input stands for, or the input itself.
private func store(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    guard bytes.count >= 2, (1...4).contains(bytes[0]) else { return Array(bytes) }
    let hostile = Fuzz.hostileVarints[Int(bytes[1]) % Fuzz.hostileVarints.count]
    let rest = Array(bytes[2...])
    let key = Array(rest.prefix(rest.count / 2)), text = Array(rest.dropFirst(rest.count / 2))
    func length(_ place: UInt8, _ count: Int) -> [UInt8] { Fuzz.varint(bytes[0] == place ? hostile : UInt64(count)) }
    let string = [0x2A] + length(4, text.count) + text
    let value = [0x12] + length(3, string.count) + string
    let content = [0x0A] + length(2, key.count) + key + value
    return [0x0A] + length(1, content.count) + content
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDataStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let recipe = store(Fuzz.buffer(data, size))
    recipe.withUnsafeBytes { fuzz($0) }
    return 0
}

private func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let size = bytes.count
    let whole = read(ByteWindow(whole: bytes), size: size)
    let streamed = read(Fuzz.streamingWindow(bytes, chunkSize: Fuzz.chunkSize(for: bytes)), size: size)
    Fuzz.check(whole.entries == streamed.entries, "the same entries whole and streamed")
    Fuzz.check(whole.error == streamed.error, "the same error whole and streamed")
    if whole.error == nil, size > 0, bytes[0] == 0x0A {
        Fuzz.check(DataStoreReader.looksLikePreferenceMap(bytes.bindMemory(to: UInt8.self)), "a file the reader accepts is detected")
    }
    for entry in whole.entries {
        let copy = rewritten(entry)
        let again = copy.withUnsafeBytes { read(ByteWindow(whole: $0), size: copy.count) }
        Fuzz.check(again.error == nil && again.entries.count == 1, "a rewritten entry reads")
        Fuzz.check(again.entries.first?.key == entry.key && again.entries.first.map { payload($0.value) } == payload(entry.value),
                   "a rewritten entry reads back as the same key and value")
    }
    Fuzz.scan(bytes, with: Fuzz.scanner(.datastore))
}
