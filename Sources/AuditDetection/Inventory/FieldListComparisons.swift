import AuditBytes
import AuditInputs

/// The answers of a worker's last few field-list comparisons (`FieldNameSet.compare`), kept
/// with their exact inputs. Sync data repeats its field lists: every create of a habit lists the
/// same fields and carries the same payload keys, and an entry's completion is patched with the
/// same few. A comparison builds a hash table of the list and looks every payload key up in it
/// (some 2,100 instructions an operation of the bench inputs); a repeat costs a copy of the
/// names and one comparison of bytes.
///
/// Exact, not a cache by hash: the inputs are kept as bytes, each name after its length and the
/// available names after a mark no length has, so two inputs share their bytes only when both
/// sides hold the same names in the same order (`FieldListComparisonsTests` holds it to
/// `FieldNameSet.compare` on lists made to collide). Inputs of more than `room` bytes are
/// compared afresh and not kept, so that the memory stays at 20 KB whatever the input.
/// One per worker (`WorkerCaches`), used by its thread alone.
public final class FieldListComparisons {
    /// How many comparisons are kept, the oldest given up first: a push body or log interleaves
    /// a few entity kinds, each with its lists.
    static let kept = 4
    /// The most bytes an input takes to be kept: an operation of the app's lists some twenty
    /// fields, under 400 bytes.
    static let room = 4096

    /// A kept comparison: its inputs' bytes (`count` of them; -1 while none is kept) and its answer.
    private struct Kept {
        var count = -1
        var answer = (setIsAvailable: false, availableAreInSet: false)
    }

    // Raw memory behind constant properties: a stored `var` of a class is checked for
    // exclusive access at run time, some 60 instructions an access.
    private let comparisons: UnsafeMutablePointer<Kept>
    /// The kept inputs' bytes, `room` for each, then the current input's.
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Where the next comparison kept goes.
    private let next: UnsafeMutablePointer<Int>

    /// Between the list's names and the available ones: a length no name in a captured tree
    /// has (a captured member is at most `ContractDrafts.maxCapturedBytes`).
    private static let availableMark = UInt32.max

    public init() {
        comparisons = .allocate(capacity: FieldListComparisons.kept)
        comparisons.initialize(repeating: Kept(), count: FieldListComparisons.kept)
        bytes = .allocate(capacity: (FieldListComparisons.kept + 1) * FieldListComparisons.room)
        next = .allocate(capacity: 1)
        next.initialize(to: 0)
    }

    deinit {
        comparisons.deallocate()
        bytes.deallocate()
        next.deallocate()
    }

    /// The current input's bytes, filled up to `room`.
    private struct Input {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0
        /// Set when the input did not fit.
        var overflowed = false

        /// `length` as four bytes, little-endian, then `text` (a name after its length).
        mutating func append(length: UInt32, _ text: UnsafeBufferPointer<UInt8>) {
            guard !overflowed, FieldListComparisons.room - count >= 4 + text.count else {
                overflowed = true
                return
            }
            UnsafeMutableRawPointer(base + count).storeBytes(of: length.littleEndian, as: UInt32.self)
            if let source = text.baseAddress { (base + count + 4).update(from: source, count: text.count) }
            count += 4 + text.count
        }

        mutating func append(name: UnsafeBufferPointer<UInt8>) {
            append(length: UInt32(truncatingIfNeeded: name.count), name)
        }
    }

    /// `FieldNameSet.compare(list, with: available)`, answered from a kept comparison of the
    /// same names when there is one.
    func compare(_ list: CapturedJSON.View, with available: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void)
        -> (setIsAvailable: Bool, availableAreInSet: Bool) {
        let room = FieldListComparisons.room
        var input = Input(base: bytes + FieldListComparisons.kept * room)
        FieldNameSet.forEachName(list) { input.append(name: $0) }
        input.append(length: FieldListComparisons.availableMark, UnsafeBufferPointer(start: nil, count: 0))
        available { input.append(name: $0) }
        if input.overflowed { return FieldNameSet.compare(list, with: available) }
        let inputs = UnsafeBufferPointer(start: input.base, count: input.count)
        for i in 0..<FieldListComparisons.kept where comparisons[i].count == inputs.count {
            if UnsafeBufferPointer(start: bytes + i * room, count: inputs.count).equals(inputs) { return comparisons[i].answer }
        }
        let answer = FieldNameSet.compare(list, with: available)
        let slot = next.pointee
        (bytes + slot * room).update(from: input.base, count: input.count)
        comparisons[slot] = Kept(count: input.count, answer: answer)
        next.pointee = (slot + 1) % FieldListComparisons.kept
        return answer
    }
}
