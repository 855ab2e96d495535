/// Writes pretty JSON straight into bytes, laid out exactly as `JSONOutput.rendered()` lays out
/// the same value, for the long arrays of a report: a finding is written member by member instead
/// of being built as a tree, written, and freed.
struct JSONStreamWriter {
    private(set) var bytes: [UInt8] = []
    /// The number of elements written so far in each open container, outermost first.
    private var counts: [Int] = []

    /// Room for about `count` more bytes, made at once rather than by growing.
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Opens an object (`{`) or an array (`[`) where a value is due.
    mutating func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        counts.append(0)
    }

    /// Closes the innermost container with `bracket` (`}` or `]`).
    mutating func close(_ bracket: Unicode.Scalar) {
        let hadElements = counts.removeLast() > 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + 2 * counts.count) { out in
            var n = hadElements ? writeNewLine(depth: counts.count, into: out) : 0
            out[n] = UInt8(ascii: bracket)
            n += 1
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<n]))
        }
    }

    /// Begins the next element of the innermost container (as `JSONOutput.beginElement` does).
    mutating func element() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + 2 * counts.count) { out in
            let n = writeSeparator(into: out)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<n]))
        }
    }

    /// Begins the member `key` of the innermost object; its value comes next. The key is one
    /// of the report's own, which need no escaping. Put together on the stack with what comes
    /// before it and appended at once: a report writes some twenty keys a finding.
    mutating func key(_ key: StaticString) {
        let count = key.utf8CodeUnitCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + 2 * counts.count + count + 4) { out in
            var n = writeSeparator(into: out)
            out[n] = UInt8(ascii: "\"")
            for i in 0..<count { out[n + 1 + i] = key.utf8Start[i] }
            n += 1 + count
            out[n] = UInt8(ascii: "\"")
            out[n + 1] = UInt8(ascii: ":")
            out[n + 2] = 0x20
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<(n + 3)]))
        }
    }

    /// Writes what comes before the next element of the innermost container (a comma after the
    /// first, a new line, the indentation) into `out`, and counts the element; returns the
    /// number of bytes written (at most 2 + 2 × depth).
    private mutating func writeSeparator(into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let depth = counts.count
        var n = 0
        if counts[depth - 1] > 0 {
            out[0] = UInt8(ascii: ",")
            n = 1
        }
        counts[depth - 1] += 1
        return n + writeNewLine(depth: depth, into: UnsafeMutableBufferPointer(rebasing: out[n...]))
    }

    /// Writes a new line indented to `depth` into `out`; returns the number of bytes written.
    private func writeNewLine(depth: Int, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        out[0] = 0x0A
        for i in 0..<2 * depth { out[1 + i] = 0x20 }
        return 1 + 2 * depth
    }

    mutating func string(_ value: String) { JSONOutput.writeString(value, to: &bytes) }

    mutating func int(_ value: Int) { bytes.appendDecimal(value) }

    /// A string, or `null` when there is none.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// A value built as a tree, at the current depth.
    mutating func value(_ value: JSONOutput) { value.write(to: &bytes, indent: counts.count * 2) }

    /// The text: what was written, and a final newline.
    mutating func rendered() -> String {
        bytes.append(0x0A)
        return String(decoding: bytes, as: UTF8.self)
    }
}
