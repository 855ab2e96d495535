/// The bytes of one input in an owned buffer. Readers see only `bytes`; the storage is freed on
/// deinit.
public final class InputBytes: @unchecked Sendable {
    /// The input's bytes. Valid for the lifetime of this object.
    public let bytes: UnsafeRawBufferPointer
    private let storage: Storage

    private enum Storage {
        case heap(UnsafeMutableRawPointer)
        case empty
    }

    /// Copies `data` into an owned buffer.
    public init<C: Collection>(copying data: C) where C.Element == UInt8 {
        let count = data.count
        if count == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            storage = .empty
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        let typed = memory.bindMemory(to: UInt8.self, capacity: count)
        _ = UnsafeMutableBufferPointer(start: typed, count: count).initialize(from: data)
        bytes = UnsafeRawBufferPointer(start: memory, count: count)
        storage = .heap(memory)
    }

    /// Takes ownership of a buffer allocated with `UnsafeMutableRawPointer.allocate`.
    init(adopting memory: UnsafeMutableRawPointer, count: Int) {
        bytes = UnsafeRawBufferPointer(start: memory, count: count)
        storage = .heap(memory)
    }

    deinit {
        switch storage {
        case .heap(let memory): memory.deallocate()
        case .empty: break
        }
    }
}

/// A valid one-byte address standing in for the base of an empty buffer, whose
/// `baseAddress` is nil.
nonisolated(unsafe) let emptyByteBase: UnsafePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return UnsafePointer(p)
}()
