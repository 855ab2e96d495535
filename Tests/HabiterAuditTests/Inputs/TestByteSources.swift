@testable import AuditInputs

/// Bytes from an array, a few at a time as a file would give them.
final class ArraySource: ByteSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        guard offset < bytes.count else { return .end }
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return .bytes(n)
    }
}

/// An `ArraySource` that records where each read began and how much it asked for, and passes
/// bytes unread as a regular file does when `skips`.
final class RecordingSource: ByteSource {
    let source: ArraySource
    let skips: Bool
    var reads: [(start: Int, asked: Int)] = []

    init(_ bytes: [UInt8], skips: Bool = false) {
        source = ArraySource(bytes)
        self.skips = skips
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        reads.append((source.offset, buffer.count))
        return source.read(into: buffer)
    }

    func skip(_ count: Int) -> Bool {
        guard skips else { return false }
        source.offset += count
        return true
    }
}

extension ByteWindow {
    /// The bytes from `offset` (visible, or the next to read) to the end, read on through the
    /// window.
    func bytesRead(from offset: Int) -> [UInt8] {
        var seen: [UInt8] = []
        var keep = offset
        while ensure(keep, keeping: keep) || keep < end {
            seen.append(contentsOf: UnsafeBufferPointer(start: base + (keep - start), count: end - keep))
            keep = end
        }
        return seen
    }
}
