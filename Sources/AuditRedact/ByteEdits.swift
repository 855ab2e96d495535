/// Replacements of byte ranges in one buffer, applied together: the redactors collect them while
/// a reader walks the buffer and rebuild it once, so that bytes outside the edits are copied
/// as they are.
struct ByteEdits {
    private(set) var edits: [(range: Range<Int>, bytes: [UInt8])] = []

    var isEmpty: Bool { edits.isEmpty }

    /// Replaces `range` with `bytes` (no-op when they are already equal is the caller's business).
    mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
        edits.append((range, bytes))
    }

    /// `buffer` with the edits applied, in any order. An edit that overlaps an earlier one is
    /// skipped (the verification scan reports whatever that leaves behind).
    func applied<C: Collection>(to buffer: C) -> [UInt8] where C.Element == UInt8, C.Index == Int {
        let sorted = edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var output: [UInt8] = []
        output.reserveCapacity(buffer.count + sorted.reduce(0) { $0 + $1.bytes.count - $1.range.count })
        var position = buffer.startIndex
        for edit in sorted {
            guard edit.range.lowerBound >= position, edit.range.upperBound <= buffer.endIndex else { continue }
            output.append(contentsOf: buffer[position..<edit.range.lowerBound])
            output.append(contentsOf: edit.bytes)
            position = edit.range.upperBound
        }
        output.append(contentsOf: buffer[position..<buffer.endIndex])
        return output
    }
}
