import AuditCore
import AuditDetection
import AuditInputs
import AuditReport
import Foundation

/// A project's `.habiter-audit.json`: where the sync API lives, extra and disabled rules, and the
/// allowlist. Strict: an unknown key, a wrong type or an allowlist entry without a reason is an
/// error naming the file, line and column.
public struct Configuration: Sendable, Equatable {
    public static let fileName = ".habiter-audit.json"

    /// The file it was read from (absolute).
    public var file: String
    /// Request paths of the sync API (`ScanOptions.syncPathMarkers`); nil keeps the default.
    public var syncPaths: [String]?
    /// Rule directories, absolute (written relative to the file).
    public var ruleDirectories: [String]
    public var disabledRules: Set<String>
    public var allowlist: Allowlist
    /// The gate (`failOn`: `--fail-on` values, which the command line's own apply on top of).
    public var failOn: GatePolicy?
    /// Paths left out of directory walks (`paths.exclude`) and, when not empty, the only files
    /// scanned in them (`paths.include`): gitignore-style globs relative to the walked directory.
    public var excludePaths: [String] = []
    public var includePaths: [String] = []

    static let keys: Set<String> = ["$comment", "syncPaths", "rules", "disabledRules", "allowlist", "failOn", "paths"]
    static let pathKeys: Set<String> = ["exclude", "include", "$comment"]
    static let entryKeys: Set<String> = ["rule", "path", "key", "fingerprint", "reason", "expires", "$comment"]

    /// The configuration for inputs at `path`: the nearest `.habiter-audit.json` in its
    /// directory or above; nil when there is none.
    public static func discover(from path: String, currentDirectory: String) -> String? {
        var directory = path == "-" ? currentDirectory : (path.hasPrefix("/") ? path : currentDirectory + "/" + path)
        var isDirectory: ObjCBool = false
        if !(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue) {
            directory = (directory as NSString).deletingLastPathComponent
        }
        directory = (directory as NSString).standardizingPath
        while true {
            let candidate = (directory as NSString).appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory || parent.isEmpty { return nil }
            directory = parent
        }
    }

    /// Reads and checks the configuration file at `path`.
    public static func load(_ path: String, currentDirectory: String) throws(FileFormatError) -> Configuration {
        let absolute = ((path.hasPrefix("/") ? path : currentDirectory + "/" + path) as NSString).standardizingPath
        let bytes: [UInt8]
        switch SystemFile.read(absolute) {
        case .success(let read): bytes = read
        case .failure(let failure): throw FileFormatError(file: path, reason: "cannot read the configuration file: \(failure)")
        }
        return try parse(bytes, file: path, directory: (absolute as NSString).deletingLastPathComponent)
    }

    static func parse(_ text: [UInt8], file: String, directory: String) throws(FileFormatError) -> Configuration {
        func fail(_ offset: Int, _ reason: String) -> FileFormatError {
            let position = text.withUnsafeBytes { ByteWindow.position(of: offset, in: $0) }
            return FileFormatError(file: file, line: position.line, column: position.column, reason: reason)
        }
        let root: JSONValue.Node
        do {
            root = try JSONValue.parse(text)
        } catch let error as JSONSyntaxError {
            throw fail(error.offset, "not valid JSON: \(error.reason.message)")
        } catch {
            throw FileFormatError(file: file, reason: "not valid JSON")
        }
        guard let members = root.value.objectMembers else { throw fail(root.offset, "the configuration is a JSON object") }
        var configuration = Configuration(file: file, syncPaths: nil, ruleDirectories: [], disabledRules: [],
                                          allowlist: Allowlist(entries: [], directory: directory))
        func strings(_ member: JSONValue.Member) throws(FileFormatError) -> [String] {
            guard let elements = member.value.value.arrayElements else { throw fail(member.value.offset, "'\(member.key)' must be an array of strings") }
            var result: [String] = []
            for e in elements {
                guard let s = e.value.stringValue, !s.isEmpty else { throw fail(e.offset, "'\(member.key)' must be an array of non-empty strings") }
                result.append(s)
            }
            return result
        }
        for member in members {
            switch member.key {
            case "$comment": break
            case "syncPaths": configuration.syncPaths = try strings(member)
            case "rules": configuration.ruleDirectories = try strings(member).map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 }
            case "disabledRules": configuration.disabledRules = Set(try strings(member))
            case "failOn":
                var gate = GatePolicy()
                for value in try strings(member) {
                    do { try gate.apply(value) } catch { throw fail(member.value.offset, "'failOn': '\(value)': \(error.reason)") }
                }
                configuration.failOn = gate
            case "paths":
                guard let pathMembers = member.value.value.objectMembers else {
                    throw fail(member.value.offset, "'paths' must be an object with 'exclude' and 'include' arrays")
                }
                for pathMember in pathMembers {
                    switch pathMember.key {
                    case "$comment": break
                    case "exclude": configuration.excludePaths = try strings(pathMember)
                    case "include": configuration.includePaths = try strings(pathMember)
                    default:
                        throw fail(pathMember.keyOffset, "unknown key 'paths.\(pathMember.key)' (allowed: \(pathKeys.sorted().joined(separator: ", ")))")
                    }
                }
            case "allowlist":
                guard let elements = member.value.value.arrayElements else { throw fail(member.value.offset, "'allowlist' must be an array of entries") }
                for (i, element) in elements.enumerated() {
                    configuration.allowlist.entries.append(try entry(element, number: i + 1, fail: fail))
                }
            default:
                throw fail(member.keyOffset, "unknown configuration key '\(member.key)' (allowed: \(keys.sorted().joined(separator: ", ")))")
            }
        }
        return configuration
    }

    private static func entry(_ node: JSONValue.Node, number: Int, fail: (Int, String) -> FileFormatError) throws(FileFormatError) -> AllowlistEntry {
        guard let members = node.value.objectMembers else { throw fail(node.offset, "allowlist entry \(number) must be an object") }
        var entry = AllowlistEntry(number: number, rule: nil, path: nil, key: nil, fingerprint: nil, reason: "", expires: nil)
        for member in members {
            guard entryKeys.contains(member.key) else {
                throw fail(member.keyOffset, "allowlist entry \(number): unknown key '\(member.key)' (allowed: \(entryKeys.sorted().joined(separator: ", ")))")
            }
            if member.key == "$comment" { continue }
            guard let value = member.value.value.stringValue, !value.isEmpty else {
                throw fail(member.value.offset, "allowlist entry \(number): '\(member.key)' must be a non-empty string")
            }
            switch member.key {
            case "rule": entry.rule = Glob(value)
            case "path": entry.path = Glob(value)
            case "key": entry.key = value
            case "fingerprint": entry.fingerprint = value
            case "reason": entry.reason = value
            default:
                let bytes = Array(value.utf8)
                guard bytes.withUnsafeBufferPointer({ EntityId.isCalendarDate($0[...]) }) else {
                    throw fail(member.value.offset, "allowlist entry \(number): 'expires' must be a date YYYY-MM-DD")
                }
                entry.expires = value
            }
        }
        if entry.reason.isEmpty { throw fail(node.offset, "allowlist entry \(number) needs a 'reason'") }
        if entry.rule == nil && entry.path == nil && entry.key == nil && entry.fingerprint == nil {
            throw fail(node.offset, "allowlist entry \(number) needs at least one of rule, path, key or fingerprint")
        }
        return entry
    }
}
