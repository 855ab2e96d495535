@testable import AuditInputs
import Foundation
import Testing

/// The window's first read is short (`ByteWindow.firstReadLength`): enough to tell the format,
/// so that a second worker need not wait for a whole chunk.
struct ByteWindowFirstReadTests {
    /// A HAR larger than a chunk: its first key is past nothing but whitespace.
    static let har: [UInt8] = {
        var text = "{\"log\": {\"version\": \"1.2\", \"entries\": ["
        text += Array(repeating: "{\"startedDateTime\": \"2026-12-04T10:00:00.000Z\"}", count: 200_000).joined(separator: ",")
        text += "]}}"
        return Array(text.utf8)
    }()

    @Test func theFormatIsToldFromOneShortRead() throws {
        let source = RecordingSource(Self.har)
        let window = ByteWindow(source: source, chunkSize: 4 << 20)
        guard case .success(.format(.har)) = FormatDetector.detect(window) else {
            Issue.record("not detected as HAR")
            return
        }
        #expect(source.reads.map(\.asked) == [ByteWindow.firstReadLength])
        #expect(ByteWindow.firstReadLength > FormatDetector.sniffLength)
    }

    @Test func theReadsAfterTheFirstFillTheChunkAndLoseNoByte() throws {
        let source = RecordingSource(Self.har)
        let chunkSize = 4 << 20
        let window = ByteWindow(source: source, chunkSize: chunkSize)
        _ = FormatDetector.detect(window)
        // A reader that starts at the first byte needs the one after the first read.
        #expect(window.ensure(ByteWindow.firstReadLength, keeping: 0))
        #expect(window.bytesRead(from: 0) == Self.har)
        let asked = source.reads.map(\.asked)
        #expect(asked.count >= 3)
        #expect(asked[0] == ByteWindow.firstReadLength)
        // The second read fills the rest of the first chunk's buffer, not a buffer of its own.
        #expect(asked[1] == chunkSize - ByteWindow.firstReadLength)
        #expect(asked.dropFirst(2).allSatisfy { $0 <= chunkSize })
    }

    @Test func aSmallChunkReadsNoMoreThanItHolds() throws {
        let source = RecordingSource(Self.har)
        let window = ByteWindow(source: source, chunkSize: 4096)
        #expect(window.ensure(0, keeping: 0))
        #expect(source.reads.map(\.asked) == [4096])
    }
}
