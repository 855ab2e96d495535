import AuditBytes
import AuditInputs

/// A JSON value to write, with object members in the order given, so that every report is
/// byte-identical for identical input.
public enum JSONOutput: Equatable, Sendable {
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case string(String)
    case int(Int)
    /// A number exactly as another JSON text wrote it.
    case number(String)
    case bool(Bool)
    case null

    public static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.rendered() == b.rendered() }

    /// An object without the members whose value is nil.
    public static func members(_ pairs: [(String, JSONOutput?)]) -> JSONOutput {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The text, indented by two spaces per level, ending with a newline.
    public func rendered() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, indent: 0)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// The text on one line, without a trailing newline (`[{"from": "22:00"}]`).
    public func renderedOnOneLine() -> String {
        var out: [UInt8] = []
        write(to: &out, indent: nil)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the value, pretty with `indent`, on one line when it is nil.
    func write(to out: inout [UInt8], indent: Int?) {
        let inner = indent.map { $0 + 2 }
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                JSONOutput.beginElement(i, indent: inner, in: &out)
                JSONOutput.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(0x20)
                value.write(to: &out, indent: inner)
            }
            if !members.isEmpty { JSONOutput.endContainer(indent: indent, in: &out) }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, value) in elements.enumerated() {
                JSONOutput.beginElement(i, indent: inner, in: &out)
                value.write(to: &out, indent: inner)
            }
            if !elements.isEmpty { JSONOutput.endContainer(indent: indent, in: &out) }
            out.append(UInt8(ascii: "]"))
        case .string(let s): JSONOutput.writeString(s, to: &out)
        case .int(let i): out.appendDecimal(i)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// What comes before element `index` of a container: a comma after the first, then a new line
    /// indented to `indent` (pretty) or a space (one line).
    @inline(__always)
    static func beginElement(_ index: Int, indent: Int?, in out: inout [UInt8]) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        if let indent {
            out.append(0x0A)
            appendSpaces(indent, to: &out)
        } else if index > 0 {
            out.append(0x20)
        }
    }

    /// What comes before the closing bracket of a non-empty container.
    @inline(__always)
    static func endContainer(indent: Int?, in out: inout [UInt8]) {
        guard let indent else { return }
        out.append(0x0A)
        appendSpaces(indent, to: &out)
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    private static func appendSpaces(_ count: Int, to out: inout [UInt8]) {
        var left = count
        while left > 0 {
            let run = min(left, spaces.count)
            out.append(contentsOf: spaces[0..<run])
            left -= run
        }
    }

    /// Appends `s` as a JSON string: quotes, backslashes and control characters escaped, the
    /// rest copied as UTF-8.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + maxEscapedLength(bytes.count)) { buffer in
                let base = buffer.baseAddress!
                base[0] = UInt8(ascii: "\"")
                let n = 1 + writeEscaped(bytes, into: base + 1)
                base[n] = UInt8(ascii: "\"")
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: n + 1))
            }
        }
    }

    /// The room `writeEscaped` needs for `count` bytes: each can become `\u00XX`, and the word
    /// that ends a short string is stored whole (its last seven bytes may be written past the end).
    static func maxEscapedLength(_ count: Int) -> Int { 6 * count + 8 }

    /// Writes `bytes` as the content of a JSON string, without the quotes, into `out`, which has
    /// room for `maxEscapedLength(bytes.count)`; returns the number of bytes written. Eight bytes
    /// at a time while none needs an escape, the last eight too, and a string shorter than eight
    /// as one word: a report's strings are short (a level, a rule id, a fingerprint), and a byte
    /// at a time took some eight instructions a byte.
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let source = bytes.baseAddress else { return 0 }
        let digits: StaticString = "0123456789abcdef"
        let count = bytes.count
        var n = 0
        var i = 0
        while i < count {
            let left = count &- i
            if left >= 8 {
                let w = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                if escapeMarks(w) == 0 {
                    UnsafeMutableRawPointer(out + n).storeBytes(of: w, as: UInt64.self)
                    i &+= 8
                    n &+= 8
                    continue
                }
            } else if count >= 8 {
                // The string's last eight bytes. When none needs an escape, the `8 - left` of
                // them already passed were written as they are, just before `n`: the word is
                // stored over them.
                let w = UnsafeRawPointer(source + (count &- 8)).loadUnaligned(as: UInt64.self)
                if escapeMarks(w) == 0 {
                    UnsafeMutableRawPointer(out + (n &- 8 &+ left)).storeBytes(of: w, as: UInt64.self)
                    return n &+ left
                }
            } else {
                // The rest of a string shorter than eight bytes, gathered low byte first: the
                // zero bytes above it are marked (controls), but a mark never carries downward,
                // so those of the rest's bytes are exact.
                var w: UInt64 = 0
                for k in 0..<left { w |= UInt64(source[i &+ k]) &<< (8 &* UInt64(k)) }
                if escapeMarks(w) & (SWAR.highBits &>> (8 &* UInt64(8 &- left))) == 0 {
                    UnsafeMutableRawPointer(out + n).storeBytes(of: w, as: UInt64.self)
                    return n &+ left
                }
            }
            let b = source[i]
            i &+= 1
            guard needsEscape(b) else {
                out[n] = b
                n &+= 1
                continue
            }
            out[n] = UInt8(ascii: "\\")
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[n &+ 1] = b
            case 0x0A: out[n &+ 1] = UInt8(ascii: "n")
            case 0x0D: out[n &+ 1] = UInt8(ascii: "r")
            case 0x09: out[n &+ 1] = UInt8(ascii: "t")
            default:
                out[n &+ 1] = UInt8(ascii: "u")
                out[n &+ 2] = UInt8(ascii: "0")
                out[n &+ 3] = UInt8(ascii: "0")
                out[n &+ 4] = digits.utf8Start[Int(b >> 4)]
                out[n &+ 5] = digits.utf8Start[Int(b & 15)]
                n &+= 4
            }
            n &+= 2
        }
        return n
    }

    /// The high bit set in some byte of `w` when, and only when, one of its bytes needs an escape
    /// (`SWAR`: bits above a byte that needs one may be set too).
    @inline(__always)
    private static func escapeMarks(_ w: UInt64) -> UInt64 {
        (SWAR.bytesBelow(w, 0x20) | SWAR.bytesEqual(w, 0x7F) | SWAR.bytesEqual(w, UInt8(ascii: "\"")) | SWAR.bytesEqual(w, UInt8(ascii: "\\")))
            & SWAR.highBits
    }

    /// Whether `bytes` are written as they are, within quotes.
    static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains(where: needsEscape)
    }

    @inline(__always)
    private static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }
}

extension JSONOutput {
    /// A parsed JSON value, to write it out again (numbers exactly as they were written).
    public init(_ value: JSONValue) {
        switch value {
        case .object(let members): self = .object(members.map { ($0.key, JSONOutput($0.value.value)) })
        case .array(let elements): self = .array(elements.map { JSONOutput($0.value) })
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        }
    }
}
