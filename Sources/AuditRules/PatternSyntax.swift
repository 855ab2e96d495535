/// A PCRE2 pattern read as far as `KeywordReach` needs it: which characters a part may match,
/// how many bytes it may take, where it repeats. Syntax this reader does not know (`\K`, verbs,
/// extended mode, callouts) makes it give up; the caller then knows nothing of the pattern,
/// which is always safe.
indirect enum PatternNode: Equatable {
    /// One literal character, as its UTF-8 bytes; `caseless` when `(?i)` may apply to it.
    case character([UInt8], caseless: Bool)
    /// One character of a class, `\d`, `.` and the like: at most `maxBytes` bytes; `members`,
    /// lowercased, when it is a handful of ASCII characters.
    case characterSet(maxBytes: Int, members: [UInt8]?)
    /// Zero width: `^`, `$`, `\b`, lookarounds, a conditional's condition, inline options.
    case assertion
    /// A backreference or subroutine call: any width, any text.
    case reference
    /// Alternatives, each a sequence (a group, a conditional's branches, the whole pattern).
    case alternatives([[PatternNode]])
    /// `node` repeated `min` to `max` times (nil: no upper bound).
    case repeated(PatternNode, min: Int, max: Int?)
}

/// The pattern holds syntax `PatternSyntax` does not read.
struct UnsupportedPatternSyntax: Error {}

/// Reads a pattern compiled with `PCRE2_UTF` (no `PCRE2_UCP`, no `PCRE2_EXTENDED`).
struct PatternSyntax {
    private let bytes: [UInt8]
    private var i = 0
    /// Set once any `(?i` is read, and never unset: treating more of the pattern as caseless only
    /// widens what a part may match.
    private var caseless = false

    /// The pattern as alternatives of sequences.
    static func parse(_ pattern: String) throws(UnsupportedPatternSyntax) -> PatternNode {
        var reader = PatternSyntax(bytes: Array(pattern.utf8))
        let node = try reader.alternatives()
        guard reader.i == reader.bytes.count else { throw UnsupportedPatternSyntax() }
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var atEnd: Bool { i >= bytes.count }
    private func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    private mutating func expect(_ byte: UInt8) throws(UnsupportedPatternSyntax) {
        guard peek() == byte else { throw UnsupportedPatternSyntax() }
        i += 1
    }

    private mutating func alternatives() throws(UnsupportedPatternSyntax) -> PatternNode {
        var branches = [try sequence()]
        while peek() == UInt8(ascii: "|") {
            i += 1
            branches.append(try sequence())
        }
        return .alternatives(branches)
    }

    private mutating func sequence() throws(UnsupportedPatternSyntax) -> [PatternNode] {
        var items: [PatternNode] = []
        while let b = peek(), b != UInt8(ascii: "|"), b != UInt8(ascii: ")") {
            let atoms = try atom()
            guard let last = atoms.last else { continue }
            items.append(contentsOf: atoms.dropLast())
            if let (min, max) = try quantifier() {
                if last == .assertion { throw UnsupportedPatternSyntax() }
                items.append(.repeated(last, min: min, max: max))
            } else {
                items.append(last)
            }
        }
        return items
    }

    /// The next atom; several for `\Q…\E` (a quantifier after it repeats only its last character),
    /// none for `\E` alone.
    private mutating func atom() throws(UnsupportedPatternSyntax) -> [PatternNode] {
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "("):
            i += 1
            return [try group()]
        case UInt8(ascii: "["):
            i += 1
            return [try characterClass()]
        case UInt8(ascii: "\\"):
            i += 1
            return try escape()
        case UInt8(ascii: "."):
            i += 1
            return [.characterSet(maxBytes: 4, members: nil)]
        case UInt8(ascii: "^"), UInt8(ascii: "$"):
            i += 1
            return [.assertion]
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            throw UnsupportedPatternSyntax()
        case UInt8(ascii: "{"):
            if try quantifierBounds(at: i) != nil { throw UnsupportedPatternSyntax() }
            i += 1
            return [.character([b], caseless: false)]
        default:
            return [literal(character())]
        }
    }

    /// The UTF-8 sequence of one character at `i`.
    private mutating func character() -> [UInt8] {
        let start = i
        i += 1
        while let b = peek(), b & 0xC0 == 0x80 { i += 1 }
        return Array(bytes[start..<i])
    }

    private func literal(_ character: [UInt8]) -> PatternNode {
        .character(character, caseless: caseless && (character.count > 1 || isASCIILetter(character[0])))
    }

    private func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

    /// `?`, `*`, `+` or `{n}`, `{n,}`, `{n,m}`, with its lazy or possessive mark.
    private mutating func quantifier() throws(UnsupportedPatternSyntax) -> (Int, Int?)? {
        guard let b = peek() else { return nil }
        let bounds: (Int, Int?)
        switch b {
        case UInt8(ascii: "?"): bounds = (0, 1); i += 1
        case UInt8(ascii: "*"): bounds = (0, nil); i += 1
        case UInt8(ascii: "+"): bounds = (1, nil); i += 1
        case UInt8(ascii: "{"):
            guard let (found, end) = try quantifierBounds(at: i) else { return nil }
            bounds = found
            i = end
        default:
            return nil
        }
        if let mark = peek(), mark == UInt8(ascii: "?") || mark == UInt8(ascii: "+") { i += 1 }
        return bounds
    }

    /// `{n}`, `{n,}` or `{n,m}` at `start`, and the index after it; nil when the brace is a
    /// literal. Forms whose meaning changed between PCRE2 versions (`{,m}`, blanks inside) are
    /// refused as unsupported rather than guessed.
    private func quantifierBounds(at start: Int) throws(UnsupportedPatternSyntax) -> ((Int, Int?), Int)? {
        var end = start + 1
        while end < bytes.count, bytes[end] &- 0x30 < 10 || bytes[end] == UInt8(ascii: ",") || bytes[end] == UInt8(ascii: " ") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "}") else { return nil }
        let parts = bytes[(start + 1)..<end].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard parts.count <= 2, let min = number(parts[0]) else { throw UnsupportedPatternSyntax() }
        if parts.count == 1 { return ((min, min), end + 1) }
        if parts[1].isEmpty { return ((min, nil), end + 1) }
        guard let max = number(parts[1]), max >= min else { throw UnsupportedPatternSyntax() }
        return ((min, max), end + 1)
    }

    /// After `(`.
    private mutating func group() throws(UnsupportedPatternSyntax) -> PatternNode {
        guard peek() == UInt8(ascii: "?") else {
            if peek() == UInt8(ascii: "*") { throw UnsupportedPatternSyntax() }
            return try closedGroup()
        }
        i += 1
        guard let b = peek() else { throw UnsupportedPatternSyntax() }
        switch b {
        case UInt8(ascii: ":"), UInt8(ascii: "|"), UInt8(ascii: ">"):
            i += 1
            return try closedGroup()
        case UInt8(ascii: "="), UInt8(ascii: "!"):
            i += 1
            _ = try closedGroup()
            return .assertion
        case UInt8(ascii: "<") where peek(1) == UInt8(ascii: "=") || peek(1) == UInt8(ascii: "!"):
            i += 2
            _ = try closedGroup()
            return .assertion
        case UInt8(ascii: "<"), UInt8(ascii: "'"):
            i += 1
            try skipName(until: b == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'"))
            return try closedGroup()
        case UInt8(ascii: "P"):
            i += 1
            if peek() == UInt8(ascii: "<") {
                i += 1
                try skipName(until: UInt8(ascii: ">"))
                return try closedGroup()
            }
            if peek() == UInt8(ascii: "=") {
                i += 1
                try skipName(until: UInt8(ascii: ")"))
                return .reference
            }
            if peek() == UInt8(ascii: ">") { return try call() }
            throw UnsupportedPatternSyntax()
        case UInt8(ascii: "#"):
            while let c = peek(), c != UInt8(ascii: ")") { i += 1 }
            try expect(UInt8(ascii: ")"))
            return .assertion
        case UInt8(ascii: "("):
            return try conditional()
        case UInt8(ascii: "&"), UInt8(ascii: "R"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try call()
        case UInt8(ascii: "+") where peek(1).map { $0 &- 0x30 < 10 } ?? false, UInt8(ascii: "-") where peek(1).map { $0 &- 0x30 < 10 } ?? false:
            return try call()
        default:
            return try options()
        }
    }

    /// A subroutine call, `(?&name)`, `(?1)`, `(?-1)`, `(?R)`, after `(?`: it matches what the
    /// group it calls matches, which is taken as anything.
    private mutating func call() throws(UnsupportedPatternSyntax) -> PatternNode {
        while let c = peek(), c != UInt8(ascii: ")") { i += 1 }
        try expect(UInt8(ascii: ")"))
        return .reference
    }

    /// The rest of a group after its opening: alternatives, then `)`.
    private mutating func closedGroup() throws(UnsupportedPatternSyntax) -> PatternNode {
        let node = try alternatives()
        try expect(UInt8(ascii: ")"))
        return node
    }

    /// A group name up to `terminator`, which is consumed.
    private mutating func skipName(until terminator: UInt8) throws(UnsupportedPatternSyntax) {
        let start = i
        while let c = peek(), c == UInt8(ascii: "_") || isASCIILetter(c) || c &- 0x30 < 10 { i += 1 }
        guard i > start else { throw UnsupportedPatternSyntax() }
        try expect(terminator)
    }

    /// `(?(condition)yes|no)`, after `(?`: the condition is zero width, the branches alternatives
    /// (a missing no-branch matches the empty string).
    private mutating func conditional() throws(UnsupportedPatternSyntax) -> PatternNode {
        i += 1
        if peek() == UInt8(ascii: "?") {
            // An assertion as condition: read as the group it is.
            guard try group() == .assertion else { throw UnsupportedPatternSyntax() }
        } else {
            let start = i
            while let c = peek(), c != UInt8(ascii: ")") { i += 1 }
            let condition = String(decoding: bytes[start..<i], as: UTF8.self)
            if condition.isEmpty { throw UnsupportedPatternSyntax() }
            try expect(UInt8(ascii: ")"))
            // A DEFINE group never matches here: it holds the groups that calls match.
            if condition == "DEFINE" {
                _ = try closedGroup()
                return .assertion
            }
        }
        guard case .alternatives(var branches) = try closedGroup(), branches.count <= 2 else { throw UnsupportedPatternSyntax() }
        if branches.count == 1 { branches.append([]) }
        return .alternatives(branches)
    }

    /// Inline options after `(?`: `(?i)` for the rest, `(?i:…)` for a group. Extended mode and
    /// anything that is no option letter are refused.
    private mutating func options() throws(UnsupportedPatternSyntax) -> PatternNode {
        var unsetting = false
        while let c = peek(), c != UInt8(ascii: ")"), c != UInt8(ascii: ":") {
            switch c {
            case UInt8(ascii: "-"): unsetting = true
            case UInt8(ascii: "^"): unsetting = false
            case UInt8(ascii: "i"): if !unsetting { caseless = true }
            case UInt8(ascii: "m"), UInt8(ascii: "n"), UInt8(ascii: "s"), UInt8(ascii: "J"), UInt8(ascii: "U"): break
            default: throw UnsupportedPatternSyntax()
            }
            i += 1
        }
        guard let end = peek() else { throw UnsupportedPatternSyntax() }
        i += 1
        return end == UInt8(ascii: ":") ? try closedGroup() : .assertion
    }

    /// After `\` outside a class.
    private mutating func escape() throws(UnsupportedPatternSyntax) -> [PatternNode] {
        guard let b = peek() else { throw UnsupportedPatternSyntax() }
        i += 1
        // `\N{U+…}` names one character; it is not read here.
        if b == UInt8(ascii: "N") && peek() == UInt8(ascii: "{") { throw UnsupportedPatternSyntax() }
        if let width = Self.characterTypeWidth(b) { return [.characterSet(maxBytes: width, members: nil)] }
        switch b {
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            try skipPropertyName()
            return [.characterSet(maxBytes: 4, members: nil)]
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "G"):
            return [.assertion]
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            while let c = peek(), c &- 0x30 < 10 { i += 1 }
            return [.reference]
        case UInt8(ascii: "k"):
            guard let open = peek() else { throw UnsupportedPatternSyntax() }
            let close: UInt8
            switch open {
            case UInt8(ascii: "<"): close = UInt8(ascii: ">")
            case UInt8(ascii: "'"): close = UInt8(ascii: "'")
            case UInt8(ascii: "{"): close = UInt8(ascii: "}")
            default: throw UnsupportedPatternSyntax()
            }
            i += 1
            try skipName(until: close)
            return [.reference]
        case UInt8(ascii: "g"):
            // `\g<name>` and `\g'name'` are subroutine calls: anything, as backreferences are.
            if let open = peek(), open == UInt8(ascii: "<") || open == UInt8(ascii: "'") {
                i += 1
                if peek() == UInt8(ascii: "-") || peek() == UInt8(ascii: "+") { i += 1 }
                try skipName(until: open == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'"))
                return [.reference]
            }
            if peek() == UInt8(ascii: "{") {
                i += 1
                if peek() == UInt8(ascii: "-") { i += 1 }
                try skipName(until: UInt8(ascii: "}"))
                return [.reference]
            }
            if peek() == UInt8(ascii: "-") { i += 1 }
            guard let c = peek(), c &- 0x30 < 10 else { throw UnsupportedPatternSyntax() }
            while let c = peek(), c &- 0x30 < 10 { i += 1 }
            return [.reference]
        case UInt8(ascii: "Q"):
            var atoms: [PatternNode] = []
            while !atEnd, !(bytes[i] == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "E")) {
                atoms.append(literal(character()))
            }
            if !atEnd { i += 2 }
            return atoms
        case UInt8(ascii: "E"):
            return []
        default:
            return [literal(try escapedCharacter(b))]
        }
    }

    /// The most bytes a character-type escape matches: one for `\d`, `\w` and `\s` (ASCII
    /// without `PCRE2_UCP`), up to four for their negations and `\h`, `\v`, `\N`, `\R`; nil for
    /// any other letter.
    private static func characterTypeWidth(_ letter: UInt8) -> Int? {
        switch letter {
        case UInt8(ascii: "d"), UInt8(ascii: "w"), UInt8(ascii: "s"): return 1
        case UInt8(ascii: "D"), UInt8(ascii: "W"), UInt8(ascii: "S"), UInt8(ascii: "h"), UInt8(ascii: "H"),
             UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "N"), UInt8(ascii: "R"):
            return 4
        default: return nil
        }
    }

    /// The character an escape names (after the `\` and `b`, its first letter): `\x41`,
    /// `\x{263A}`, `\o{101}`, `\0`, `\cA`, `\n`, or a punctuation character standing for itself.
    private mutating func escapedCharacter(_ b: UInt8) throws(UnsupportedPatternSyntax) -> [UInt8] {
        switch b {
        case UInt8(ascii: "a"): return [0x07]
        case UInt8(ascii: "e"): return [0x1B]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "0"):
            var value: UInt32 = 0
            var digits = 0
            while digits < 2, let c = peek(), c &- 0x30 < 8 { value = value * 8 + UInt32(c - 0x30); i += 1; digits += 1 }
            return try utf8(value)
        case UInt8(ascii: "o"):
            return try utf8(bracedNumber(radix: 8))
        case UInt8(ascii: "x"):
            if peek() == UInt8(ascii: "{") { return try utf8(bracedNumber(radix: 16)) }
            var value: UInt32 = 0
            var digits = 0
            while digits < 2, let c = peek(), let digit = hexDigit(c) { value = value * 16 + digit; i += 1; digits += 1 }
            return try utf8(value)
        case UInt8(ascii: "c"):
            guard let c = peek(), c < 0x80 else { throw UnsupportedPatternSyntax() }
            i += 1
            return [(c >= 0x61 && c <= 0x7A ? c - 0x20 : c) ^ 0x40]
        default:
            // Letters and digits not handled above are PCRE2 errors or meanings not read here.
            if b < 0x80 && (isASCIILetter(b) || b &- 0x30 < 10) { throw UnsupportedPatternSyntax() }
            i -= 1
            return character()
        }
    }

    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - 0x57)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - 0x37)
        default: return nil
        }
    }

    /// `{…}` after `\x` or `\o`.
    private mutating func bracedNumber(radix: UInt32) throws(UnsupportedPatternSyntax) -> UInt32 {
        try expect(UInt8(ascii: "{"))
        var value: UInt32 = 0
        var digits = 0
        while let c = peek(), let digit = hexDigit(c), digit < radix {
            value = value &* radix &+ digit
            i += 1
            digits += 1
            if digits > 8 { throw UnsupportedPatternSyntax() }
        }
        guard digits > 0 else { throw UnsupportedPatternSyntax() }
        try expect(UInt8(ascii: "}"))
        return value
    }

    private func utf8(_ value: UInt32) throws(UnsupportedPatternSyntax) -> [UInt8] {
        guard let scalar = Unicode.Scalar(value) else { throw UnsupportedPatternSyntax() }
        return Array(String(Character(scalar)).utf8)
    }

    /// `L`, `{L}`, `{^Lu}` after `\p` or `\P`.
    private mutating func skipPropertyName() throws(UnsupportedPatternSyntax) {
        guard let c = peek() else { throw UnsupportedPatternSyntax() }
        i += 1
        guard c == UInt8(ascii: "{") else { return }
        while let d = peek(), d != UInt8(ascii: "}") { i += 1 }
        try expect(UInt8(ascii: "}"))
    }

    /// After `[`: one character of the class. A class of ASCII characters, ranges, `\d`, `\w`,
    /// `\s` and POSIX names takes one byte (`(?i)` lets an ASCII letter match no other byte
    /// length except `K` and `ſ`, which `KeywordReach` leaves to its caller); anything else may
    /// take up to four.
    private mutating func characterClass() throws(UnsupportedPatternSyntax) -> PatternNode {
        var negated = false
        if peek() == UInt8(ascii: "^") { negated = true; i += 1 }
        var wide = negated
        var members: Set<UInt8>? = []
        var first = true
        func add(_ low: [UInt8], _ high: [UInt8]) {
            guard low.count == 1, high.count == 1, low[0] < 0x80, high[0] < 0x80, low[0] <= high[0] else {
                wide = true
                members = nil
                return
            }
            if Int(high[0]) - Int(low[0]) >= 8 { members = nil }
            for b in low[0]...high[0] { members?.insert(isASCIILetter(b) ? b | 0x20 : b) }
        }
        while true {
            guard let b = peek() else { throw UnsupportedPatternSyntax() }
            if b == UInt8(ascii: "]") && !first { i += 1; break }
            first = false
            if b == UInt8(ascii: "[") && peek(1) == UInt8(ascii: ":") {
                i += 2
                if peek() == UInt8(ascii: "^") { wide = true }
                while let c = peek(), c != UInt8(ascii: ":") { i += 1 }
                try expect(UInt8(ascii: ":"))
                try expect(UInt8(ascii: "]"))
                members = nil
                continue
            }
            let low: [UInt8]
            if b == UInt8(ascii: "\\") {
                i += 1
                guard let e = peek() else { throw UnsupportedPatternSyntax() }
                i += 1
                if let width = Self.characterTypeWidth(e) {
                    if width > 1 { wide = true }
                    members = nil
                    continue
                }
                switch e {
                case UInt8(ascii: "p"), UInt8(ascii: "P"):
                    try skipPropertyName()
                    wide = true
                    members = nil
                    continue
                case UInt8(ascii: "b"):
                    low = [0x08]
                case UInt8(ascii: "Q"), UInt8(ascii: "E"):
                    throw UnsupportedPatternSyntax()
                default:
                    low = try escapedCharacter(e)
                }
            } else {
                low = character()
            }
            // A range, unless the `-` is the class's last character.
            if peek() == UInt8(ascii: "-"), let next = peek(1), next != UInt8(ascii: "]") {
                i += 1
                let high: [UInt8]
                if next == UInt8(ascii: "\\") {
                    i += 1
                    guard let e = peek() else { throw UnsupportedPatternSyntax() }
                    i += 1
                    high = try escapedCharacter(e)
                } else if next == UInt8(ascii: "[") {
                    throw UnsupportedPatternSyntax()
                } else {
                    high = character()
                }
                add(low, high)
            } else {
                add(low, low)
            }
        }
        if let set = members, !negated, !wide, !set.isEmpty {
            return .characterSet(maxBytes: 1, members: set.sorted())
        }
        return .characterSet(maxBytes: wide ? 4 : 1, members: nil)
    }
}
