/// The credentials in a URL's userinfo: `postgres://app:s3cret@db.example.internal:5432/habits`
/// gives (`username`, `app`) and (`password`, `s3cret`), percent-decoded (`+` stays a plus:
/// userinfo is not form-encoded). Any scheme: https, postgres, mysql, mongodb+srv, redis, amqp,
/// and JDBC's `jdbc:mysql://`.
///
/// Strict because every string is offered: the value must start with the scheme and `://`
/// (prose that mentions a URL is left to the pattern rules), hold no blanks or control
/// characters, and have a `:` and a non-empty password before the `@` that ends the userinfo.
/// That `@` is the last of the candidates before the first `@` that belongs to a path or query:
///
/// - As RFC 3986 reads it: the authority ends at the first `/`, `?` or `#`, and its last `@`
///   ends the userinfo when a host follows it (so a raw `@` in a password is kept, as most URL
///   libraries do). The username is what comes before the first `:` and may be an e-mail
///   address (`smtp://mailer@example.com:…@smtp…`).
/// - As people type URLs in notes, with reserved characters raw in the password
///   (`https://jonas:Kz8!tq#x@nas.local:5006/`): a later `@` ends the userinfo when a plausible
///   host follows it (`hostPortListEnd`: a hostname whose last label is not all digits, an IPv4
///   address or a bracketed IPv6 literal, an optional `:port` of 1–5 digits, comma-separated
///   as in MongoDB's host lists) and then the end of the value, `/`, `?` or `#`. Then the
///   username, before the first `:`, holds no `/`, `?`, `#`, `@`, `[` or `]`, and what lies
///   between that `:` and the first `/`, `?` or `#` is not 1–5 digits alone (that is a port:
///   `https://host:8443/share?to=a@nas.local`). The password may hold `#`, `?`, `/`, `@`,
///   `!`, `:` and the rest as written.
/// - An `@` right after a `/` (`/@jonas`), or right after a query parameter's `name=value`
///   (`?email=a@b.com`, `&to=a@b.com` once a `?` has been seen; name and value 1–64 bytes of
///   anything but `/?#&=@"'<>`), belongs to the path or query: neither it nor any later `@`
///   ends the userinfo, and a password never holds such text.
///
/// The last candidate wins, so `https://jonas:Kz8@tq#x@nas.local:5006/` gives `Kz8@tq#x`. The
/// reading is ambiguous when a URL with userinfo has `word@host` later in its path
/// (`https://u:pw@host/users/a@b.com`): the password is then read up to that `@`, which
/// reports and redacts more than the password, never less. Not opened: a password that ends in
/// `/` or in `?name=value`, or that is 1–5 digits before a raw `/`, `?` or `#`. The pattern
/// rules `secret.basic-auth-url` and `secret.database-url` apply the same reading to URLs in
/// prose. The URL is still scanned as text.
public struct UserinfoLayerDecoder: LayerDecoder {
    public var name: String { "userinfo" }
    public var gate: LayerGate { LayerGate(minimumLength: 8, firstBytes: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", requiredByte: UInt8(ascii: "@")) }

    public init() {}

    /// Schemes longer than this are not schemes (bounds the scan of text that starts like one).
    static let maxSchemeLength = 40
    /// The longest name and value of a query parameter whose `@` is recognised as the query's.
    static let maxQueryPartLength = 64

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let parts = Self.credentials(in: value) else { return nil }
        let pairs = [
            DecodedPair(name: Array("username".utf8), value: LayerBytes.percentDecode(value[parts.username], plusAsSpace: false)),
            DecodedPair(name: Array("password".utf8), value: LayerBytes.percentDecode(value[parts.password], plusAsSpace: false)),
        ]
        return DecodedLayer(bytes: [], content: .pairs(PairList(pairs)), replacesValue: false)
    }

    /// Where the username and the password are written in `value` (as written, still
    /// percent-encoded), or nil when the value is not a URL with a password in its userinfo.
    /// The decoder's pairs and the redactor's edits both come from these ranges.
    public static func credentials(in value: UnsafeRawBufferPointer) -> (username: Range<Int>, password: Range<Int>)? {
        guard let first = value.first, isLetter(first) else { return nil }
        // Scheme: letters, digits, `+`, `-`, `.`, and `:` for JDBC's nested schemes, then `://`.
        var i = 1
        var authorityStart = -1
        while i < value.count && i <= maxSchemeLength {
            let b = value[i]
            if b == UInt8(ascii: ":") {
                if i + 2 < value.count && value[i + 1] == UInt8(ascii: "/") && value[i + 2] == UInt8(ascii: "/") {
                    authorityStart = i + 3
                    break
                }
            } else if !(isLetter(b) || isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")) {
                return nil
            }
            i += 1
        }
        guard authorityStart > 0 else { return nil }
        // The RFC 3986 authority: up to the first `/`, `?` or `#`; its last `@` and first `:`.
        var authorityEnd = value.count
        var lastAt = -1
        var firstAt = -1
        var firstColon = -1
        for j in authorityStart..<value.count {
            let b = value[j]
            if b <= 0x20 || b == 0x7F { return nil }
            if isPathStart(b) {
                authorityEnd = j
                break
            }
            if b == UInt8(ascii: "@") {
                lastAt = j
                if firstAt < 0 { firstAt = j }
            } else if b == UInt8(ascii: ":") && firstColon < 0 {
                firstColon = j
            }
        }
        for j in authorityEnd..<value.count where value[j] <= 0x20 || value[j] == 0x7F { return nil }
        var best: (colon: Int, at: Int)?
        if lastAt > authorityStart && lastAt + 1 < authorityEnd {
            let colon = value[authorityStart..<lastAt].firstIndex(of: UInt8(ascii: ":"))
            if let colon, colon + 1 < lastAt { best = (colon, lastAt) }
        }
        // A password with a raw `/`, `?` or `#`: later `@`s followed by a host.
        guard authorityEnd < value.count, firstColon >= 0, firstAt < 0 || firstColon < firstAt,
              !value[authorityStart..<firstColon].contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }),
              !isPort(value[(firstColon + 1)..<authorityEnd]) else {
            return best.map { (authorityStart..<$0.colon, ($0.colon + 1)..<$0.at) }
        }
        let firstQuestion = value[authorityEnd...].firstIndex(of: UInt8(ascii: "?")) ?? value.count
        var j = authorityEnd + 1
        while j < value.count {
            guard value[j] == UInt8(ascii: "@") else {
                j += 1
                continue
            }
            if belongsToPathOrQuery(value, at: j, firstQuestion: firstQuestion) { break }
            if let end = hostPortListEnd(value, from: j + 1), end == value.count || isPathStart(value[end]) {
                best = (firstColon, j)
            }
            j += 1
        }
        return best.map { (authorityStart..<$0.colon, ($0.colon + 1)..<$0.at) }
    }

    /// Whether the `@` at `at` starts a path segment (`/@jonas`) or follows a query parameter's
    /// `name=value` (`?email=a@b.com`; after `&` only once the query has begun at `firstQuestion`).
    static func belongsToPathOrQuery(_ value: UnsafeRawBufferPointer, at: Int, firstQuestion: Int) -> Bool {
        if value[at - 1] == UInt8(ascii: "/") { return true }
        var j = at - 1
        while j >= 0 && isQueryPartByte(value[j]) { j -= 1 }
        guard (1...maxQueryPartLength).contains(at - 1 - j), j >= 0, value[j] == UInt8(ascii: "=") else { return false }
        let equals = j
        j -= 1
        while j >= 0 && isQueryPartByte(value[j]) { j -= 1 }
        guard (1...maxQueryPartLength).contains(equals - 1 - j), j >= 0 else { return false }
        return value[j] == UInt8(ascii: "?") || (value[j] == UInt8(ascii: "&") && j > firstQuestion)
    }

    /// The end of the hosts at `start`: one or more `host[:port]`, comma-separated. A host is a
    /// bracketed IPv6 literal (with a `%` zone), four dot-separated groups of 1–3 digits, or
    /// dot-separated labels of letters, digits, `-` and `_` whose last label is not all digits.
    /// Nil when no host starts there.
    static func hostPortListEnd(_ value: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard var end = hostPortEnd(value, from: start) else { return nil }
        while end < value.count && value[end] == UInt8(ascii: ","), let next = hostPortEnd(value, from: end + 1) {
            end = next
        }
        return end
    }

    static func hostPortEnd(_ value: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < value.count else { return nil }
        var i = start
        if value[i] == UInt8(ascii: "[") {
            i += 1
            while i < value.count && (isHexDigit(value[i]) || value[i] == UInt8(ascii: ":") || value[i] == UInt8(ascii: ".")) { i += 1 }
            guard i > start + 1, i < value.count else { return nil }
            if value[i] == UInt8(ascii: "%") {
                let zone = i + 1
                i = zone
                while i < value.count && (isLabelByte(value[i]) || value[i] == UInt8(ascii: ".") || value[i] == UInt8(ascii: "~")) { i += 1 }
                guard i > zone, i < value.count else { return nil }
            }
            guard value[i] == UInt8(ascii: "]") else { return nil }
            i += 1
        } else {
            var labels = 0
            var digitGroups = true
            var lastHasNonDigit = false
            while true {
                let label = i
                var nonDigit = false
                while i < value.count && isLabelByte(value[i]) {
                    if !isDigit(value[i]) { nonDigit = true }
                    i += 1
                }
                guard i > label else { return nil }
                labels += 1
                lastHasNonDigit = nonDigit
                if nonDigit || i - label > 3 { digitGroups = false }
                // A dot continues the host only when a label follows (`nas.local.` ends at the dot).
                guard i + 1 < value.count, value[i] == UInt8(ascii: "."), isLabelByte(value[i + 1]) else { break }
                i += 1
            }
            guard lastHasNonDigit || (digitGroups && labels == 4) else { return nil }
        }
        // An optional port: 1–5 digits.
        if i < value.count && value[i] == UInt8(ascii: ":") {
            var j = i + 1
            while j < value.count && isDigit(value[j]) { j += 1 }
            if (1...5).contains(j - i - 1) { i = j }
        }
        return i
    }

    /// 1–5 ASCII digits and nothing else.
    static func isPort(_ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        (1...5).contains(bytes.count) && bytes.allSatisfy(isDigit)
    }

    @inline(__always)
    static func isPathStart(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#")
    }

    @inline(__always)
    static func isQueryPartByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "@"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            return false
        default:
            return b > 0x20 && b != 0x7F
        }
    }

    @inline(__always)
    static func isLabelByte(_ b: UInt8) -> Bool {
        isLetter(b) || isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }

    @inline(__always)
    static func isLetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    @inline(__always)
    static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f"))
    }
}
