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
        while name.contains("//") { name = name.replacingOccurrences(of: "//", with: "/") }
        return name.isEmpty ? "." : name
    }
}

import AuditCore
import Foundation
