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
    /// of the report's own, which need no escaping.
    mutating func key(_ key: StaticString) {
        element()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
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
