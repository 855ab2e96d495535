/// Arrays made through the standard library's growth path, whose storage type is known where
/// it is compiled.
///
/// `Array(unsafeUninitializedCapacity:initializingWith:)` and `Array(repeating:count:)` both
/// allocate through `Array._allocateBufferUninitialized`, which the standard library keeps out
/// of line and generic: each call looks up `_ContiguousArrayStorage<Element>`'s metadata in the
/// runtime's cache (some 620 instructions), and the cache counts its readers in memory that the
/// workers of a `--jobs` scan write from two cores. `reserveCapacity` allocates through code
/// specialised for the element, which reads the metadata from a variable once it is made.
extension Array {
    /// `count` copies of `value`, as `Array(repeating:count:)` makes them.
    @inlinable
    public init(filling value: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        append(contentsOf: repeatElement(value, count: count))
    }
}

extension Array where Element == UInt8 {
    /// Bytes written by `body` into room for `capacity` of them, as
    /// `Array(unsafeUninitializedCapacity:initializingWith:)` makes them: `body` initializes a
    /// prefix of the buffer and returns its length.
    @inlinable
    public init(uninitializedCapacity capacity: Int, initializingWith body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        self.init()
        reserveCapacity(capacity)
        withoutActuallyEscaping(body) { body in
            append(contentsOf: SpareCapacityWriter(capacity: capacity, write: body))
        }
    }
}

/// A sequence that writes its elements straight into the room `Array.append(contentsOf:)`
/// offers it (`_copyContents`), so that an array can be filled in place after
/// `reserveCapacity`. It promises no elements (`underestimatedCount` 0), so the array takes
/// however many are written.
@usableFromInline
struct SpareCapacityWriter: Sequence {
    @usableFromInline let capacity: Int
    @usableFromInline let write: (UnsafeMutableBufferPointer<UInt8>) -> Int

    @inlinable
    init(capacity: Int, write: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        self.capacity = capacity
        self.write = write
    }

    @inlinable
    var underestimatedCount: Int { 0 }

    @inlinable
    func makeIterator() -> EmptyCollection<UInt8>.Iterator { EmptyCollection<UInt8>.Iterator() }

    @inlinable
    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<UInt8>) -> (EmptyCollection<UInt8>.Iterator, Int) {
        let room = UnsafeMutableBufferPointer(rebasing: buffer[..<Swift.min(capacity, buffer.count)])
        let written = write(room)
        precondition(written >= 0 && written <= room.count, "SpareCapacityWriter: \(written) bytes written into room for \(room.count)")
        return (EmptyCollection<UInt8>.Iterator(), written)
    }
}
