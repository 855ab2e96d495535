/// Bytes held in memory that something else keeps alive (`owner`): a ZIP member's data.
final class BufferSource: ByteSource {
    private let bytes: UnsafeRawBufferPointer
    private let owner: AnyObject
    private var taken = 0

    init(_ bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        self.bytes = bytes
        self.owner = owner
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        guard taken < bytes.count else { return .end }
        let n = min(buffer.count, bytes.count - taken)
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[taken..<taken + n]))
        taken += n
        return .bytes(n)
    }
}

/// `count` bytes of another window from absolute offset `from` on (all the rest when nil), read
/// as that window slides: a tar member's content streamed out of the archive, an Android
/// backup's tar out of the backup.
final class WindowSliceSource: ByteSource {
    private let parent: ByteWindow
    private var position: Int
    private let end: Int
    /// Whether the slice is the rest of the parent, which may end anywhere.
    private let isRest: Bool

    init(_ parent: ByteWindow, from start: Int, count: Int?) {
        self.parent = parent
        position = start
        end = count.map { start + $0 } ?? Int.max
        isRest = count == nil
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        guard position < end else { return .end }
        while parent.end <= position {
            guard parent.extend(keeping: position) else {
                if isRest && parent.failure == nil { return .end }
                return .failure(parent.failure ?? "the archive ends inside this member")
            }
        }
        let n = min(buffer.count, end - position, parent.end - position)
        buffer.copyMemory(from: UnsafeRawBufferPointer(start: parent.base + (position - parent.start), count: n))
        position += n
        return .bytes(n)
    }
}

/// Checks what a member's content came to against what its archive recorded: its size, and its
/// CRC-32 when there is one (ZIP). A mismatch is the member's read failure at its end, after its
/// bytes were read: the archive or the decompressor is wrong about them.
final class CheckedMemberSource: ByteSource {
    private var inner: any ByteSource
    private let expectedSize: Int
    private let expectedCRC: UInt32?
    private var size = 0
    private var crc: UInt32 = 0

    init(_ inner: any ByteSource, size: Int, crc: UInt32?) {
        self.inner = inner
        expectedSize = size
        expectedCRC = crc
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        let result = inner.read(into: buffer)
        switch result {
        case .bytes(let n):
            size += n
            if size > expectedSize { return .failure("the member holds more than the \(expectedSize) bytes its archive records") }
            if expectedCRC != nil { crc = Zlib.crc32(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), continuing: crc) }
        case .end:
            if size != expectedSize { return .failure("the member holds \(size) bytes where its archive records \(expectedSize)") }
            if let expectedCRC, crc != expectedCRC { return .failure("the member's CRC-32 does not match the one its archive records") }
        case .failure:
            break
        }
        return result
    }
}
