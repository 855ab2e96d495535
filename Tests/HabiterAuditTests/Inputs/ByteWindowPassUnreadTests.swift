@testable import AuditInputs
import Foundation
import Testing

/// A worker of a shared input reads its window a chunk at a time (`ByteWindow.alignReads`) and
/// passes what another worker visits without reading it (`passUnread`), where its source is a
/// regular file; the bytes and positions it reads after are the file's.
struct ByteWindowPassUnreadTests {
    /// Lines of different lengths, so that a position counted wrong shows.
    static let text: [UInt8] = Array((0..<12_000).map { "line \($0) " + String(repeating: "x", count: $0 % 23) + "\n" }.joined().utf8)

    /// A window over a new file holding `bytes`, as the loader opens a regular file.
    static func fileWindow(_ bytes: [UInt8], chunkSize: Int = 4_096) throws -> (window: ByteWindow, path: String) {
        let path = TestSupport.temporaryDirectory().appendingPathComponent("window.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        return (ByteWindow(descriptor: descriptor, expectedSize: bytes.count, chunkSize: chunkSize), path)
    }

    /// The line cursor another window over the same bytes has at `offset`.
    static func cursor(at offset: Int, in bytes: [UInt8]) -> LineCursor {
        let other = ByteWindow(copying: bytes)
        return other.cursor(at: offset)!
    }

    @Test(arguments: [1_000, 4_096, 10_007])
    func readsEndOnUnitsAndAUnitBeginsWithASixteenth(unit: Int) {
        let source = RecordingSource(Self.text)
        let window = ByteWindow(source: source, chunkSize: 64 << 10)
        #expect(window.ensure(0, keeping: 0))
        window.alignReads(to: unit)
        #expect(window.bytesRead(from: 0) == Self.text)
        let reads = source.reads.dropFirst().filter { $0.start < Self.text.count }
        #expect(reads.count > Self.text.count / unit)
        for read in reads {
            let toNextUnit = unit - read.start % unit
            #expect(read.asked == (toNextUnit == unit ? unit / 16 : toNextUnit), "a read from \(read.start)")
        }
    }

    @Test func aRegularFileIsPassedUnreadAndReadOnWithItsLines() throws {
        let (window, _) = try Self.fileWindow(Self.text)
        window.alignReads(to: 4_096)
        #expect(window.ensure(5_000, keeping: 0))
        let end = window.end
        let target = 150_001
        window.adoptCursor(Self.cursor(at: target, in: Self.text))
        #expect(window.passUnread(to: target))
        #expect(window.passedUnread == target - end)
        #expect(window.start == target)
        let whole = ByteWindow(copying: Self.text)
        for offset in [target, target + 1, target + 4_095, target + 4_096, target + 50_000, Self.text.count - 1] {
            #expect(window.ensure(offset, keeping: target))
            #expect(window[offset] == Self.text[offset])
            #expect(window.position(of: offset) == whole.position(of: offset), "offset \(offset)")
        }
        #expect(window.bytesRead(from: target) == Array(Self.text[target...]))
        #expect(window.failure == nil)
    }

    @Test func whatCannotBePassedUnreadIsLeftAsItWas() throws {
        let target = 150_001
        // A stream: its bytes can only be read.
        let stream = ByteWindow(source: RecordingSource(Self.text), chunkSize: 4_096)
        // A window whose cursor lags behind the target: the lines between are not counted.
        let lagging = ByteWindow(source: RecordingSource(Self.text, skips: true), chunkSize: 4_096)
        // A pinned window keeps its bytes.
        let pinned = ByteWindow(source: RecordingSource(Self.text, skips: true), chunkSize: 4_096)
        for (name, window) in [("stream", stream), ("lagging", lagging), ("pinned", pinned)] {
            #expect(window.ensure(100, keeping: 0))
            if name != "lagging" { window.adoptCursor(Self.cursor(at: target, in: Self.text)) }
            if name == "pinned" { window.pin(at: 10) }
            let (start, end) = (window.start, window.end)
            #expect(!window.passUnread(to: target), "\(name)")
            #expect(window.start == start && window.end == end && window.passedUnread == 0, "\(name)")
            #expect(window.bytesRead(from: start) == Array(Self.text[start...]), "\(name)")
        }
        // Nor what is visible already.
        let (window, _) = try Self.fileWindow(Self.text)
        #expect(window.ensure(100, keeping: 0))
        window.adoptCursor(Self.cursor(at: 50, in: Self.text))
        #expect(!window.passUnread(to: 50))
    }

    @Test func aFileThatShrankIsAReadFailure() throws {
        let (window, path) = try Self.fileWindow(Self.text)
        #expect(window.ensure(100, keeping: 0))
        #expect(truncate(path, 100_000) == 0)
        let target = 150_001
        window.adoptCursor(Self.cursor(at: target, in: Self.text))
        #expect(window.passUnread(to: target))
        #expect(!window.ensure(target, keeping: target))
        #expect(window.failure == "the file changed size while it was read")
    }
}
