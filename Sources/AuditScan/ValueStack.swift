/// A stack of plain values in one allocation, changed in place: the open containers of a JSON
/// scan, and the bytes of the keys on its path. A Swift array checks its buffer's uniqueness on
/// every change and pops through a generic path; on deeply nested input that was a third of the
/// scan's instructions. A class, so that the owner's mutations reach the buffer without a
/// copy-on-write check: a copy of the owner shares the stack, so owners are used in place, never
/// copied.
final class ValueStack<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The elements in use: `base[0..<count]`, bottom first.
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes the innermost element and returns it.
    @discardableResult
    func pop() -> Element {
        precondition(count > 0, "pop from an empty stack")
        count -= 1
        return base[count]
    }

    /// The innermost element, read and changed in place.
    var top: Element {
        unsafeAddress { UnsafePointer(topAddress) }
        unsafeMutableAddress { topAddress }
    }

    /// The innermost element's address, for several reads and changes of it in a row (each
    /// access through `top` checks the count and works the address out again): valid until
    /// the next push, which may move the elements.
    var topAddress: UnsafeMutablePointer<Element> {
        precondition(count > 0, "top of an empty stack")
        return base + (count - 1)
    }

    /// The element at `index`, counted from the bottom.
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < count, "index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < count, "index out of range")
            return base + index
        }
    }

    /// Pushes `elements` in order, with one copy (the keys of a JSON path, back to back).
    func push(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        while count + elements.count > capacity { grow() }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Drops the elements from `start` on.
    func truncate(to start: Int) {
        precondition(start >= 0 && start <= count, "truncation out of range")
        count = start
    }

    /// Calls `body` with the elements of `range`, in place.
    func withElements<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of range")
        return body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
