/// A table of bytes read on every value by every scan thread, in memory that is never freed.
/// A `static let` array is one object: each function that hands it out retains and releases it,
/// and two threads doing so contend for its reference count (the workers of one shared file,
/// each decoding base64 with the same alphabet table; BENCHMARKS.md, "Objects the workers
/// share"). Reading this table retains nothing.
public struct ConstantByteTable: @unchecked Sendable {
    public let bytes: UnsafeBufferPointer<UInt8>

    /// A table holding `values`, for the life of the process (tables are made once, as statics).
    public init(_ values: [UInt8]) {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: values.count)
        _ = storage.initialize(from: values)
        bytes = UnsafeBufferPointer(storage)
    }
}
