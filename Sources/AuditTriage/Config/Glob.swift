/// Path globs for allowlists: `*` matches within a path segment, `**` across segments (also
/// none: `captures/**/x.har` matches `captures/x.har`), `?` one character; the rest literally.
public struct Glob: Sendable, Equatable {
    public let pattern: String
    private let bytes: [UInt8]

    public init(_ pattern: String) {
        self.pattern = pattern
        bytes = Array(pattern.utf8)
    }

    public func matches(_ text: String) -> Bool {
        Glob.match(bytes[...], Array(text.utf8)[...])
    }

    private static func match(_ p: ArraySlice<UInt8>, _ t: ArraySlice<UInt8>) -> Bool {
        var p = p, t = t
        while let c = p.first {
            if c == UInt8(ascii: "*") {
                let doubled = p.dropFirst().first == UInt8(ascii: "*")
                var rest = p.dropFirst(doubled ? 2 : 1)
                if doubled && rest.first == UInt8(ascii: "/") {
                    // `**/` also matches no directory at all.
                    if match(rest.dropFirst(), t) { return true }
                    rest = rest[...]
                }
                var i = t.startIndex
                while true {
                    if match(rest, t[i...]) { return true }
                    guard i < t.endIndex, doubled || t[i] != UInt8(ascii: "/") else { return false }
                    i += 1
                }
            }
            guard let d = t.first, c == UInt8(ascii: "?") ? d != UInt8(ascii: "/") : c == d else { return false }
            p = p.dropFirst()
            t = t.dropFirst()
        }
        return t.isEmpty
    }
}
