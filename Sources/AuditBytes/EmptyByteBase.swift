/// A valid one-byte address standing in for the base of an empty buffer, whose
/// `baseAddress` is nil.
public nonisolated(unsafe) let emptyByteBase: UnsafePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return UnsafePointer(p)
}()
