/// Lists of rule indices, one per prefilter literal, in raw memory, with the context rules among
/// each list's: a closure that reads them for every keyword found in a value captures pointers,
/// where capturing an array of arrays, or the pattern engine that holds one, retains and
/// releases it for every value searched (some eleven times a line of the NDJSON bench input).
/// The owner frees it (`deallocate`).
struct RuleLists {
    /// List `i` is `members[start[i]..<start[i + 1]]`.
    private let start: UnsafeMutablePointer<Int32>
    private let members: UnsafeMutablePointer<Int32>
    /// Per list, the `ContextMask` bits of its rules.
    private let contextBits: UnsafeMutablePointer<ContextMask>

    /// The lists, with `ruleContextBits[rule]` the bit of a context rule (0 for another rule).
    init(_ lists: [[Int]], ruleContextBits: [ContextMask]) {
        let masks = lists.map { list in list.reduce(ContextMask(0)) { $0 | ruleContextBits[$1] } }
        contextBits = .allocate(capacity: max(1, masks.count))
        contextBits.initialize(from: masks, count: masks.count)
        let starts = lists.reduce(into: [Int32(0)]) { starts, list in starts.append(starts.last! + Int32(list.count)) }
        start = .allocate(capacity: starts.count)
        start.initialize(from: starts, count: starts.count)
        let flat = lists.flatMap { $0.map(Int32.init) }
        members = .allocate(capacity: max(1, flat.count))
        members.initialize(from: flat, count: flat.count)
    }

    func deallocate() {
        start.deallocate()
        members.deallocate()
        contextBits.deallocate()
    }

    /// The rule indices of list `index`.
    @inline(__always)
    subscript(index: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: members + Int(start[index]), count: Int(start[index + 1] - start[index]))
    }

    /// The context rules among list `index`'s rules.
    @inline(__always)
    func contextMask(ofList index: Int) -> ContextMask { contextBits[index] }
}
