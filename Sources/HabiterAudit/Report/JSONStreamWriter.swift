/// Writes pretty JSON straight into bytes, laid out exactly as `JSONOutput.rendered()` lays out
/// the same value, for the long arrays of a report: a finding is written member by member instead
/// of being built as a tree, written, and freed.
struct JSONStreamWriter {
    private(set) var bytes: [UInt8] = []
    /// The number of elements written so far in each open container, outermost first.
    private var counts: [Int] = []
    /// A new line and the indentation of each depth, made once: `indentations[d]` is "\n" and
    /// 2 × d spaces.
    private var indentations: [[UInt8]] = []

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
        if counts.removeLast() > 0 { newLine(depth: counts.count) }
        bytes.append(UInt8(ascii: bracket))
    }

    /// Begins the next element of the innermost container (as `JSONOutput.beginElement` does).
    mutating func element() {
        if counts[counts.count - 1] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[counts.count - 1] += 1
        newLine(depth: counts.count)
    }

    /// A new line indented to `depth`.
    private mutating func newLine(depth: Int) {
        while indentations.count <= depth {
            indentations.append([0x0A] + [UInt8](repeating: 0x20, count: 2 * indentations.count))
        }
        bytes.append(contentsOf: indentations[depth])
    }

    /// Begins the member `key` of the innermost object; its value comes next. The key is one
    /// of the report's own, which need no escaping. Put together on the stack and appended at
    /// once: a report writes some twenty keys a finding.
    mutating func key(_ key: StaticString) {
        let depth = counts.count
        let comma = counts[depth - 1] > 0
        counts[depth - 1] += 1
        let keyCount = key.utf8CodeUnitCount
        let total = (comma ? 1 : 0) + 1 + 2 * depth + keyCount + 4
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { out in
            var n = 0
            if comma {
                out[n] = UInt8(ascii: ",")
                n += 1
            }
            out[n] = 0x0A
            n += 1
            for _ in 0..<2 * depth {
                out[n] = 0x20
                n += 1
            }
            out[n] = UInt8(ascii: "\"")
            n += 1
            for i in 0..<keyCount {
                out[n] = key.utf8Start[i]
                n += 1
            }
            out[n] = UInt8(ascii: "\"")
            out[n + 1] = UInt8(ascii: ":")
            out[n + 2] = 0x20
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
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
