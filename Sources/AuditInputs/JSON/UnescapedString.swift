#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long string value unescaped a window at a time (see `JSONReader.longStringBytes`), in
/// memory grown with `realloc`: the C library moves a large block's pages instead of copying
/// them, so the string costs its length and not, while it grows, an old and a new copy (an
/// `Array` doubling from 64 to 128 MiB holds both).
final class UnescapedString {
    private var storage: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private(set) var count = 0

    deinit {
        free(storage)
    }

    /// Appends what the validated string content `raw` (whole characters and escapes) denotes.
    func append(unescaping raw: UnsafeBufferPointer<UInt8>) {
        guard !raw.isEmpty else { return }
        if count + raw.count > capacity {
            let grown = max(count + raw.count, capacity + capacity / 2)
            guard let moved = realloc(storage, grown) else { fatalError("out of memory unescaping a string of \(grown) bytes") }
            storage = moved.assumingMemoryBound(to: UInt8.self)
            capacity = grown
        }
        count += JSONString.unescape(raw, toCopyAt: storage! + count)
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage, count: count))
    }
}
