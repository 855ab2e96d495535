/// A reference to an object that something else keeps alive for as long as this one is used:
/// a call through it neither retains nor releases the object. Loaded from a class's property
/// (`rules.patterns`), a reference is retained for the call and released after it, an atomic
/// operation each; on the paths that run for every key and value those pairs were a measured
/// part of the time (BENCHMARKS.md, "Retains on the hot paths"). The owner must outlive every
/// call: keep the strong reference beside this one, in the same object.
public struct Unretained<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline let reference: Unmanaged<Object>

    public init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// `body` called with the object, which is not retained for the call.
    @inlinable @inline(__always)
    public func call<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }
}
