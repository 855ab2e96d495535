extension Array {
    /// Sorts the array as `sort(by:)` does (stably), without copying an element: the order is
    /// worked out on the elements' indices, and each element then moved once into its place.
    /// The standard library's sort copies the elements it shifts, retaining and releasing all
    /// they hold; for the findings of a large input, each with some fifteen strings and arrays
    /// by then cold in the cache, that was some 1 % of a HAR's scan (`perf`).
    public mutating func sortByIndex(_ areInIncreasingOrder: (Element, Element) -> Bool) {
        guard count > 1 else { return }
        withUnsafeMutableBufferPointer { elements in
            let base = elements.baseAddress!
            var order = Array<Int>(0..<elements.count)
            order.sort { areInIncreasingOrder(base[$0], base[$1]) }
            // Element `order[i]` goes to `i`: each cycle of the permutation, one element at a
            // time into the place the one before it left; a place filled is marked by its own index.
            order.withUnsafeMutableBufferPointer { order in
                for start in order.indices where order[start] != start {
                    let first = (base + start).move()
                    var hole = start
                    while order[hole] != start {
                        let source = order[hole]
                        (base + hole).moveInitialize(from: base + source, count: 1)
                        order[hole] = hole
                        hole = source
                    }
                    (base + hole).initialize(to: first)
                    order[hole] = hole
                }
            }
        }
    }
}
