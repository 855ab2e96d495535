/// One input to scan: a file, or standard input.
public struct InputItem: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        case file(String)
        case standardInput
    }

    public var source: Source
    /// The name reports use: the path as given (without a leading `./`), or `-` for stdin.
    public var name: String

    public static func file(_ path: String) -> InputItem {
        InputItem(source: .file(path), name: normalizedName(path))
    }

    public static let standardInput = InputItem(source: .standardInput, name: "-")

    public static func normalizedName(_ path: String) -> String {
        var name = path
        while name.hasPrefix("./") { name.removeFirst(2) }
        while mayHoldDoubleSlash(name) && name.contains("//") { name = name.replacingOccurrences(of: "//", with: "/") }
        return name.isEmpty ? "." : name
    }

    /// Whether `name` may hold `//` as Foundation's search finds it: an ASCII name, the usual
    /// one, is answered from its bytes (the search cost some 7,000 instructions a file of a
    /// directory walk), any other is left to the search.
    private static func mayHoldDoubleSlash(_ name: String) -> Bool {
        var previous: UInt8 = 0
        for byte in name.utf8 {
            if byte >= 0x80 || (byte == UInt8(ascii: "/") && previous == byte) { return true }
            previous = byte
        }
        return false
    }
}

import AuditCore
import Foundation
