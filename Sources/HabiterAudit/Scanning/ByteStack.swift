/// Bytes kept back to back, pushed and popped at the end: the keys on a JSON path. The buffer
/// only grows, so a pop writes nothing and a push is one copy (for keys this short, Array's
/// generic append and range removal cost several times the copy).
struct ByteStack {
    private var buffer: [UInt8] = []
    /// The bytes in use: `buffer[0..<count]`.
    private(set) var count = 0

    /// Appends `bytes` at the end.
    mutating func push(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if needed > buffer.count {
            buffer.append(contentsOf: repeatElement(0, count: max(needed - buffer.count, buffer.count)))
        }
        let start = count
        buffer.withUnsafeMutableBufferPointer { storage in
            (storage.baseAddress! + start).update(from: source, count: bytes.count)
        }
        count = needed
    }

    /// Drops the bytes from `start` on.
    mutating func truncate(to start: Int) {
        count = start
    }

    /// Calls `body` with bytes in use, in place.
    func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }
}
