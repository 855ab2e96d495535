extension Array {
    /// Drops the elements from `count` on, and does nothing when there are none: removing an
    /// empty range still runs the generic `replaceSubrange`, which for the scan's stacks went on
    /// to rebuild the buffer (`consumeAndCreateNew`): about 340 instructions, twice for every
    /// object of a push body that the contract checks close.
    @inlinable
    public mutating func truncate(to count: Int) {
        if count < self.count { removeSubrange(count...) }
    }
}

extension Array {
    /// The elements from `start` on, as an array of their own; an empty one, without a slice,
    /// when there are none. A slice retains the buffer and releases it when dropped: two atomic
    /// counts for every object of a push body that the contract checks close, whose names the
    /// app's sensitive-name rule and the metadata fields almost never hold.
    @inlinable
    public func copied(from start: Int) -> [Element] {
        start < count ? Array(self[start...]) : []
    }
}
