/// A JSON value to write, with object members in the order given, so that every report is
/// byte-identical for identical input.
public indirect enum JSONOutput: Equatable, Sendable {
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    public static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.rendered() == b.rendered() }

    /// An object without the members whose value is nil.
    public static func members(_ pairs: [(String, JSONOutput?)]) -> JSONOutput {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The text, indented by two spaces per level, ending with a newline.
    public func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSONOutput.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: indent + 2)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, value) in elements.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                value.write(to: &out, indent: indent + 2)
                out += i + 1 < elements.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .string(let s): JSONOutput.writeString(s, to: &out)
        case .int(let i): out += String(i)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
