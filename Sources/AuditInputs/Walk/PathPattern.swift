/// One pattern in gitignore syntax, as `.gitignore`, `.ignore`, `.git/info/exclude`, `--exclude`
/// and `--include` write it: `*` within a path segment, `**` across segments, `?`, `[a-z]` and
/// `[!a-z]`, `\` escaping the next character; a leading `!` negates, a trailing `/` matches
/// directories only, and a pattern with a `/` before its end is anchored to its base directory
/// (else it matches the last segment of a path at any depth).
public struct PathPattern: Sendable, Equatable {
    public let negated: Bool
    public let directoryOnly: Bool
    /// Matched against the whole path relative to the base, not only its last segment.
    let anchored: Bool
    let glob: [UInt8]

    /// The pattern of one line of an ignore file; nil for a blank line or a comment.
    public init?(line: String) {
        var text = Array(line.utf8)
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        // Trailing blanks are dropped unless escaped.
        while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            if text.count >= 2 && text[text.count - 2] == UInt8(ascii: "\\") { break }
            text.removeLast()
        }
        guard let first = text.first, first != UInt8(ascii: "#") else { return nil }
        negated = first == UInt8(ascii: "!")
        if negated { text.removeFirst() }
        if text.first == UInt8(ascii: "\\"), let next = text.dropFirst().first, next == UInt8(ascii: "#") || next == UInt8(ascii: "!") {
            text.removeFirst()
        }
        directoryOnly = text.last == UInt8(ascii: "/")
        if directoryOnly { text.removeLast() }
        guard !text.isEmpty else { return nil }
        anchored = text.dropLast().contains(UInt8(ascii: "/"))
        if text.first == UInt8(ascii: "/") { text.removeFirst() }
        glob = text
    }

    /// Whether the pattern matches `path` (relative to the pattern's base, `/`-separated, no
    /// leading `/`), a directory or not.
    public func matches(_ path: String, isDirectory: Bool) -> Bool {
        if directoryOnly && !isDirectory { return false }
        let bytes = Array(path.utf8)
        if anchored { return PathPattern.wildmatch(glob[...], bytes[...]) }
        let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[($0 + 1)...] } ?? bytes[...]
        return PathPattern.wildmatch(glob[...], name)
    }

    /// What the last of `patterns` that matches `path` says, as in an ignore file: true when it
    /// leaves the path out, false when it brings it back (`!…`), nil when none matches.
    static func lastVerdict(_ patterns: [PathPattern], _ path: String, isDirectory: Bool) -> Bool? {
        patterns.last { $0.matches(path, isDirectory: isDirectory) }.map { !$0.negated }
    }

    /// Glob matching with git's `**` rules: `**/` at the start or `/**/` inside also match no
    /// directory, `/**` at the end matches everything below.
    static func wildmatch(_ p: ArraySlice<UInt8>, _ t: ArraySlice<UInt8>) -> Bool {
        var p = p, t = t
        while let c = p.first {
            switch c {
            case UInt8(ascii: "*"):
                let doubled = p.dropFirst().first == UInt8(ascii: "*")
                let rest = p.dropFirst(doubled ? 2 : 1)
                if doubled && rest.first == UInt8(ascii: "/") && wildmatch(rest.dropFirst(), t) { return true }
                var i = t.startIndex
                while true {
                    if wildmatch(rest, t[i...]) { return true }
                    guard i < t.endIndex, doubled || t[i] != UInt8(ascii: "/") else { return false }
                    i += 1
                }
            case UInt8(ascii: "?"):
                guard let d = t.first, d != UInt8(ascii: "/") else { return false }
            case UInt8(ascii: "["):
                guard let d = t.first, d != UInt8(ascii: "/"), let (matched, end) = bracket(p, d) else {
                    // An unclosed `[` is a literal.
                    guard t.first == c else { return false }
                    break
                }
                guard matched else { return false }
                p = p[end...]
                t = t.dropFirst()
                continue
            case UInt8(ascii: "\\") where p.count > 1:
                p = p.dropFirst()
                guard t.first == p.first else { return false }
            default:
                guard t.first == c else { return false }
            }
            p = p.dropFirst()
            t = t.dropFirst()
        }
        return t.isEmpty
    }

    /// A `[…]` class at the start of `p`: whether `byte` is in it, and where the pattern goes on;
    /// nil when the class is not closed.
    private static func bracket(_ p: ArraySlice<UInt8>, _ byte: UInt8) -> (Bool, Int)? {
        var i = p.startIndex + 1
        let negate = i < p.endIndex && (p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^"))
        if negate { i += 1 }
        var matched = false
        var first = true
        while i < p.endIndex {
            if p[i] == UInt8(ascii: "]") && !first { return (matched != negate, i + 1) }
            first = false
            var low = p[i]
            if low == UInt8(ascii: "\\") && i + 1 < p.endIndex { i += 1; low = p[i] }
            if i + 2 < p.endIndex && p[i + 1] == UInt8(ascii: "-") && p[i + 2] != UInt8(ascii: "]") {
                if low <= p[i + 2] && (low...p[i + 2]).contains(byte) { matched = true }
                i += 3
            } else {
                if low == byte { matched = true }
                i += 1
            }
        }
        return nil
    }
}
