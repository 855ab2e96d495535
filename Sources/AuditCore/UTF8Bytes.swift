extension String {
    /// Whether every byte of the string's UTF-8 satisfies `predicate`, read from its contiguous
    /// bytes where it has them. Through `String.UTF8View` a byte costs several times as much, and
    /// the reports check every text they show (`DisplayText`, the HTML escape, GitHub's encoding).
    @inlinable
    public func utf8AllSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }
}
