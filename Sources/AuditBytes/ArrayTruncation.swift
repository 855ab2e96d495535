extension Array {
    /// Drops the elements from `count` on, and does nothing when there are none: removing an
    /// empty range still runs `replaceSubrange`, which here made a new empty buffer each time
    /// (about 340 instructions; twice for every object of a push body the contract checks close).
    @inlinable
    public mutating func truncate(to count: Int) {
        if count < self.count { removeSubrange(count...) }
    }
}
