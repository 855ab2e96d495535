/// A value in memory of its own, read and changed through a pointer. Swift checks at run time
/// that no two accesses to a class's stored `var` overlap; for the state a scan touches on every
/// value (its pending hits, the window's bounds and line cursor) those checks cost 14–21 % of a
/// scan's instructions (BENCHMARKS.md, "Exclusivity checking"). A pointer's memory is not
/// tracked, so this state is kept in boxes. Each box belongs to one scan, which runs on one
/// thread and never holds two accesses to one box at once; debug and release builds run the
/// same code.
public final class UncheckedBox<Value> {
    @usableFromInline let pointer: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Inlinable: a call per access would cost more than the exclusivity checks it replaces.
    @inlinable public var value: Value {
        _read { yield pointer.pointee }
        _modify { yield &pointer.pointee }
    }
}
