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
