
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestHelpers
import Testing
@testable import AuditInputs

private typealias D = DataStoreFixture

/// One entry as a line: key, value and their offsets, and the entry's byte range.
private func describe(_ e: DataStoreEntry) -> String {
    func show(_ t: PrefsText) -> String { "\(String(decoding: t.bytes, as: UTF8.self).debugDescription)@\(t.offset)" }
    let value: String
    switch e.value {
    case .boolean(let b): value = "boolean \(b)"
    case .float(let bits): value = "float \(Float(bitPattern: bits))"
    case .integer(let i): value = "integer \(i)"
    case .long(let l): value = "long \(l)"
    case .string(let t): value = "string \(show(t))"
    case .stringSet(let members): value = "set [" + members.map(show).joined(separator: ", ") + "]"
    case .double(let bits): value = "double \(Double(bitPattern: bits))"
    case .bytes(let t): value = "bytes \(t.bytes.map { String(format: "%02x", $0) }.joined())@\(t.offset)"
    }
    return "\(e.key.debugDescription)@\(e.keyOffset) = \(value) @\(e.valueOffset) \(e.range)"
}

private struct Recorder: DataStoreVisitor {
    var lines: [String] = []
    mutating func entry(_ entry: DataStoreEntry) { lines.append(describe(entry)) }
}

/// Entry lines, or the lines so far and then "error: <message> @offset".
private func outcome(_ window: ByteWindow) -> [String] {
    var reader = DataStoreReader(window: window)
    var recorder = Recorder()
    do {
        try reader.read(&recorder)
        return recorder.lines
    } catch let e as DataStoreError {
        return recorder.lines + ["error: \(e.reason.message) @\(e.offset)"]
    } catch {
        return recorder.lines + ["unexpected error type"]
    }
}

private func outcome(_ bytes: [UInt8]) -> [String] {
    bytes.withUnsafeBytes { outcome(ByteWindow(whole: $0)) }
}

/// The error of a file that must not read, or a note that it read.
private func failure(_ bytes: [UInt8]) -> String {
    outcome(bytes).last { $0.hasPrefix("error: ") } ?? "no error"
}

/// A window over a temporary file that reads `chunkSize` bytes at a time.
private func streamingWindow(over data: [UInt8], chunkSize: Int) -> ByteWindow {
    let directory = TestSupport.temporaryDirectory()
    let url = directory.appendingPathComponent("store.preferences_pb")
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(data))
    let fd = open(url.path, O_RDONLY)
    try? FileManager.default.removeItem(at: directory)  // The open descriptor keeps the file.
    return ByteWindow(descriptor: fd, expectedSize: data.count, chunkSize: chunkSize)
}

/// A map entry whose `Value` message is `value`, raw.
private func entry(_ key: String, rawValue value: [UInt8]) -> [UInt8] {
    D.lengthDelimited(1, D.lengthDelimited(1, Array(key.utf8)) + D.lengthDelimited(2, value))
}

@Suite struct DataStoreReaderTests {
    /// One entry of every `Value` type, one-character keys: offsets worked out by hand.
    static let everyType = D.file([
        ("a", .boolean(true)), ("b", .float(0.5)), ("c", .integer(-3)), ("d", .long(1_764_489_600_000)),
        ("e", .string("hi")), ("f", .stringSet(["x", "yz"])), ("g", .double(0.25)), ("h", .bytes([0x00, 0xFF])),
    ])

    @Test func everyValueTypeWithItsOffsets() {
        #expect(Self.everyType.count == 107)
        #expect(outcome(Self.everyType) == [
            #""a"@4 = boolean true @8 0..<9"#,
            #""b"@13 = float 0.5 @17 9..<21"#,
            #""c"@25 = integer -3 @29 21..<39"#,   // int32 -3: ten bytes, sign-extended
            #""d"@43 = long 1764489600000 @47 39..<53"#,
            #""e"@57 = string "hi"@62 @62 53..<64"#,
            #""f"@68 = set ["x"@75, "yz"@78] @75 64..<80"#,
            #""g"@84 = double 0.25 @88 80..<96"#,
            #""h"@100 = bytes 00ff@105 @105 96..<107"#,
        ])
    }

    @Test func theSameThroughTinyChunks() {
        let store = D.habiterStore(apiKey: "not-a-key")
        let whole = outcome(store)
        #expect(whole.count == 8)
        for data in [Self.everyType, store] {
            for chunkSize in [1, 3, 7, 64] {
                #expect(outcome(streamingWindow(over: data, chunkSize: chunkSize)) == outcome(data), "\(chunkSize)-byte chunks")
            }
        }
        // A cut file, through tiny chunks: the same error at the same offset.
        let cut = Array(store.dropLast(5))
        #expect(outcome(streamingWindow(over: cut, chunkSize: 3)) == outcome(cut))
    }

    @Test func emptyValuesAndSetsKeepAnOffset() {
        let file = D.file([("s", .string("")), ("t", .stringSet([])), ("", .string("v"))])
        #expect(outcome(file) == [
            #""s"@4 = string ""@9 @9 0..<9"#,
            #""t"@13 = set [] @18 9..<18"#,
            #"""@22 = string "v"@26 @26 18..<27"#,
        ])
    }

    @Test func fieldsInAnyOrderAndLongKeys() {
        // Value before key (another protobuf writer), and a key longer than one length byte.
        let key = String(repeating: "k", count: 300)
        let reversed = D.lengthDelimited(1, D.lengthDelimited(2, D.encoded(.boolean(false))) + D.lengthDelimited(1, Array("r".utf8)))
        let lines = outcome(reversed + D.entry(key, .long(7)))
        #expect(lines.first == #""r"@8 = boolean false @5 0..<9"#)
        #expect(lines.last?.hasSuffix("= long 7 @318 9..<319") == true)
    }

    /// Every malformed shape: its message and offset, never a crash.
    @Test(arguments: [
        ([], "empty input @0"),
        ([0x8A], "a varint runs past the end of the input @0"),
        ([0x0A, 0x85], "a varint runs past the end of the input @1"),
        ([0x0A] + [UInt8](repeating: 0xFF, count: 9) + [0x02], "a varint longer than 64 bits @1"),
        ([0x0A] + [UInt8](repeating: 0x80, count: 12), "a varint longer than 64 bits @1"),
        (Array(D.entry("k", .string("v")).dropLast()), "a length of 8 bytes runs past the end of the input (7 left) @1"),
        ([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "a length of 9223372036854775807 bytes runs past the end of the input (0 left) @1"),
        (entry("k", rawValue: [0x2A, 0x05, 0x76]), "a length of 5 bytes runs past the end of the Value (1 left) @8"),
        (D.lengthDelimited(1, [0x0A, 0x09, 0x6B]), "a length of 9 bytes runs past the end of a preferences map entry (1 left) @3"),
        (entry("k", rawValue: [0x15, 0x00, 0x00]), "a fixed-width value of 4 bytes runs past the end of the Value @8"),
        (entry("k", rawValue: [0x39, 0x00]), "a fixed-width value of 8 bytes runs past the end of the Value @8"),
        (entry("k", rawValue: [0x20, 0x80]), "a varint runs past the end of the Value @8"),
        ([0x08, 0x01], "field 1 of the PreferenceMap has wire type 0, expected 2 @0"),
        (entry("k", rawValue: [0x28, 0x01]), "field 5 of the Value has wire type 0, expected 2 @7"),
        (entry("k", rawValue: [0x0D, 0, 0, 0, 0]), "field 1 of the Value has wire type 5, expected 0 @7"),
        (D.lengthDelimited(1, [0x08, 0x01]), "field 1 of a preferences map entry has wire type 0, expected 2 @2"),
        ([0x0B], "wire type 3 (DataStore uses varint, 64-bit, length-delimited and 32-bit fields only) @0"),
        ([0x0F], "wire type 7 (DataStore uses varint, 64-bit, length-delimited and 32-bit fields only) @0"),
        ([0x02, 0x00], "field number 0 (not a valid protobuf field) @0"),
        (D.varint(1 << 35 | 2) + [0x00], "a field tag beyond 32 bits @0"),
        (D.entry("k", .long(1)) + [0x12, 0x00], "unknown field 2 in the PreferenceMap @9"),
        (D.lengthDelimited(1, D.lengthDelimited(1, [0x6B]) + D.lengthDelimited(3, [])), "unknown field 3 in a preferences map entry @5"),
        (entry("k", rawValue: D.lengthDelimited(9, [])), "unknown field 9 in the Value @7"),
        (entry("k", rawValue: D.lengthDelimited(6, D.lengthDelimited(2, [0x78]))), "unknown field 2 in the StringSet @9"),
        (entry("k", rawValue: D.lengthDelimited(6, D.tag(1, 0) + [0x01])), "field 1 of the StringSet has wire type 0, expected 2 @9"),
        (D.lengthDelimited(1, D.lengthDelimited(1, [0x6B]) + D.lengthDelimited(1, [0x6C]) + D.lengthDelimited(2, D.encoded(.long(1)))),
         "a second key in a preferences map entry @5"),
        (D.lengthDelimited(1, D.lengthDelimited(1, [0x6B]) + D.lengthDelimited(2, D.encoded(.long(1))) + D.lengthDelimited(2, D.encoded(.long(2)))),
         "a second value in a preferences map entry @9"),
        (D.lengthDelimited(1, D.lengthDelimited(2, D.encoded(.long(1)))), "a preferences map entry without its key @0"),
        (D.lengthDelimited(1, D.lengthDelimited(1, [0x6B])), "a preferences map entry without its value @0"),
        (D.lengthDelimited(1, []), "a preferences map entry without its key @0"),
        (entry("k", rawValue: []), "a Value with none of its fields set (DataStore refuses it too) @7"),
        (entry("k", rawValue: D.encoded(.string("a")) + D.encoded(.boolean(true))), "a Value with more than one of its fields set @10"),
        (D.lengthDelimited(1, D.lengthDelimited(1, [0xFF]) + D.lengthDelimited(2, D.encoded(.long(1)))), "a key that is not valid UTF-8 @4"),
        (entry("k", rawValue: D.lengthDelimited(5, [0x61, 0xC3, 0x28])), "a string that is not valid UTF-8 @9"),
        (entry("k", rawValue: D.lengthDelimited(6, D.lengthDelimited(1, [0xED, 0xA0, 0x80]))), "a string set member that is not valid UTF-8 @11"),
        (entry("k", rawValue: D.tag(3, 0) + D.varint(1 << 40)), "an int32 Value outside the 32-bit range @8"),
    ] as [([UInt8], String)])
    func malformedFilesAreErrorsAtTheirOffset(_ bytes: [UInt8], _ expected: String) {
        #expect(failure(bytes) == "error: \(expected)", "\(bytes.prefix(16))")
    }

    @Test func entriesBeforeAnErrorAreStillReported() {
        let lines = outcome(D.entry("ok", .long(1)) + [0x0A, 0x10])
        #expect(lines == [#""ok"@4 = long 1 @9 0..<10"#, "error: a length of 16 bytes runs past the end of the input (0 left) @11"])
    }

    @Test func int32LimitsAndBooleansAsProtobufReadsThem() {
        #expect(outcome(D.file([("a", .integer(Int32.min)), ("b", .integer(Int32.max))])).map { $0.components(separatedBy: " @")[0] }
                == [#""a"@4 = integer -2147483648"#, #""b"@22 = integer 2147483647"#])
        // A boolean is any varint, true when not zero (protobuf's rule).
        #expect(outcome(entry("k", rawValue: [0x08, 0x02])).first?.contains("boolean true") == true)
    }
}

/// DataStore detection: by content, conservatively (the format has no magic), and by name.
@Suite struct DataStoreDetectionTests {
    static func detect(_ bytes: [UInt8], name: String = "") -> String {
        bytes.withUnsafeBytes { buffer in
            switch FormatDetector.detect(ByteWindow(whole: buffer), name: name) {
            case .success(.compressed(let coding)): return coding.layerName
            case .success(.archive(let format)): return "archive \(format.rawValue)"
            case .success(.utf16(let order, _)): return order.name
            case .success(.format(let f)): return f.rawValue
            case .success(.jsonp(let f, _)): return "jsonp \(f.rawValue)"
            case .success(.skipped(let reason)): return "skipped: \(reason)"
            case .failure(let e): return "error: \(e.reason)"
            }
        }
    }

    @Test func aPreferenceMapIsDetectedByContent() {
        #expect(Self.detect(D.habiterStore(apiKey: "x")) == "datastore")
        #expect(Self.detect(DataStoreReaderTests.everyType) == "datastore")
        // An entry of 123 bytes: its length byte is `{`, its tags are line feeds.
        let brace = D.entry("k", .string(String(repeating: "v", count: 116)))
        #expect(brace[1] == UInt8(ascii: "{"))
        #expect(Self.detect(brace) == "datastore")
        // An entry larger than the sniffed prefix, and a file cut inside its second entry.
        #expect(Self.detect(D.entry("habiter_storage_envelope", .string(String(repeating: "{}", count: 100_000)))) == "datastore")
        #expect(Self.detect(D.entry("a", .long(1)) + Array(D.entry("b", .string("text")).dropLast(2))) == "datastore")
    }

    @Test(arguments: [
        "\n{\"a\": 1}\n",
        "\n\n[1, 2]",
        "\n<map />",
        "\nGET / HTTP/1.1\nHost: x\n",
        "\n\n\n",
    ])
    func textThatStartsWithALineFeedIsNotDataStore(_ text: String) {
        #expect(Self.detect(Array(text.utf8)) != "datastore", "\(text.debugDescription)")
    }

    @Test func nearMissesAreNotDetected() {
        let good = D.entry("k", .string("v"))
        var noValueTag = good
        noValueTag[5] = 0x1A  // field 3 instead of the value's field 2
        var badUTF8Key = good
        badUTF8Key[4] = 0xFF
        var unknownValueField = good
        unknownValueField[7] = 0x4A  // Value field 9
        for bytes in [noValueTag, badUTF8Key, unknownValueField, [0x0A], [0x0A, 0x00], good + [0x12, 0x00]] {
            #expect(Self.detect(bytes) != "datastore", "\(bytes)")
        }
    }

    @Test func aPreferencesPbNameClaimsTheFormat() {
        #expect(Self.detect(Array("{\"a\": 1}".utf8), name: "files/datastore/FlutterSharedPreferences.preferences_pb") == "datastore")
        #expect(Self.detect(Array("{\"a\": 1}".utf8), name: "x.preferences_pb.gz") == "datastore")
        #expect(Self.detect(Array("{\"a\": 1}".utf8), name: "preferences_pb.json") == "json")
        // Gzip is undone first, whatever the name.
        #expect(Self.detect([0x1F, 0x8B, 0x08, 0x00], name: "x.preferences_pb") == "gzip")
    }
}
