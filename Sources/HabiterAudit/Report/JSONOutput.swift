/// A JSON value to write, with object members in the order given, so that every report is
/// byte-identical for identical input.
public indirect enum JSONOutput: Equatable, Sendable {
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
    private func write(to out: inout [UInt8], indent: Int?) {
        let inner = indent.map { $0 + 2 }
        let open = indent == nil ? "" : "\n"
        func newline(last: Bool) { out += (indent == nil ? (last ? "" : ", ") : (last ? "\n" : ",\n")).utf8 }
        func pad(_ n: Int?) { if let n { out += repeatElement(0x20, count: n) } }
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}".utf8; return }
            out += ("{" + open).utf8
            for (i, (key, value)) in members.enumerated() {
                pad(inner)
                JSONOutput.writeString(key, to: &out)
                out += ": ".utf8
                value.write(to: &out, indent: inner)
                newline(last: i + 1 == members.count)
            }
            pad(indent)
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            if elements.isEmpty { out += "[]".utf8; return }
            out += ("[" + open).utf8
            for (i, value) in elements.enumerated() {
                pad(inner)
                value.write(to: &out, indent: inner)
                newline(last: i + 1 == elements.count)
            }
            pad(indent)
            out.append(UInt8(ascii: "]"))
        case .string(let s): JSONOutput.writeString(s, to: &out)
        case .int(let i): out += String(i).utf8
        case .number(let text): out += text.utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .null: out += "null".utf8
        }
    }

    /// Appends `s` as a JSON string: quotes, backslashes and control characters escaped, the
    /// rest copied as UTF-8.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole.
            var start = 0
            for (i, b) in bytes.enumerated() where b < 0x20 || b == 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                switch b {
                case UInt8(ascii: "\""): out += "\\\"".utf8
                case UInt8(ascii: "\\"): out += "\\\\".utf8
                case 0x0A: out += "\\n".utf8
                case 0x0D: out += "\\r".utf8
                case 0x09: out += "\\t".utf8
                default: out += ("\\u" + String(b, radix: 16).leftPadded(to: 4)).utf8
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
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
