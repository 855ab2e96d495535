import AuditBytes
import AuditInputs

/// Recognises values that stand in for a secret rather than being one: masks (`********`,
/// `xxxx-xxxx`), templates (`${TOKEN}`, `{{ token }}`, `%s`, `<your-token>`, `[REDACTED:…]`),
/// values that interpolate one (`value[${accessToken}]`, also percent-encoded), references to
/// the environment (`process.env.TOKEN`, `os.environ["TOKEN"]`), instructions (`YOUR_API_KEY`,
/// `changeme`, `RANDOMSTRINGHERE`), documentation examples (`…EXAMPLE`) and status words about
/// a secret (`required`, `too_short`, `expired`).
public enum Placeholders {
    static let words: Set<String> = [
        "redacted", "changeme", "change_me", "change-me", "changeit", "placeholder", "example",
        "sample", "dummy", "test", "testing", "todo", "tbd", "fixme", "secret", "password",
        "passwd", "token", "apikey", "api_key", "api-key", "none", "null", "nil", "undefined",
        "n/a", "na", "hidden", "masked", "notset", "not-set", "not_set", "unset", "default",
        "empty", "true", "false", "yes", "no", "bearer", "basic", "string", "value", "xxx",
    ]
    /// Words that describe a secret's state (validation errors, flags), not the secret.
    static let statusWords: Set<String> = [
        "required", "invalid", "missing", "mismatch", "incorrect", "wrong", "weak", "strong",
        "expired", "reset", "changed", "updated", "valid", "unknown", "pending", "set", "ok",
        "error", "failed", "success", "enabled", "disabled", "active", "inactive", "revoked",
        "granted", "denied", "present", "absent", "rotated", "hidden", "visible", "unchanged",
    ]
    /// `words` and `statusWords` packed (see `packedWord`) and sorted: a value is looked up by
    /// binary search, without hashing a `String` (which hashes its normalized form).
    private static let packedWords: [UInt128] = words.union(statusWords).map { word in
        var word = word
        return word.withUTF8 { packedWord($0)! }
    }.sorted()
    /// The longest word listed.
    private static let longestWord = words.union(statusWords).map(\.utf8.count).max()!

    /// A word of at most 15 bytes as an integer: its bytes from the top down, then its length.
    static func packedWord(_ bytes: UnsafeBufferPointer<UInt8>, lowercased: Bool = false) -> UInt128? {
        guard bytes.count < 16 else { return nil }
        var packed: UInt128 = 0
        for byte in bytes { packed = packed << 8 | UInt128(lowercased && byte &- 0x41 < 26 ? byte | 0x20 : byte) }
        return packed << (8 * (16 - bytes.count)) | UInt128(bytes.count)
    }

    /// Whether `text`, in any letter case, is one of `words` or `statusWords`.
    static func isListedWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count <= longestWord, let word = packedWord(text, lowercased: true) else { return false }
        let table = packedWords
        var low = 0, high = table.count
        while low < high {
            let mid = (low + high) / 2
            if table[mid] < word { low = mid + 1 } else { high = mid }
        }
        return low < table.count && table[low] == word
    }

    /// Substrings that mark a documentation or test value.
    static let markers: [StaticString] = ["example", "placeholder", "redacted", "changeme", "dummy", "sample"]
    /// For each byte, the index of the marker that starts with it, or -1 (no two markers share a
    /// first byte): a value is searched for all of them in one pass.
    private static let markerByFirstByte: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, marker) in markers.enumerated() {
            let first = Int(marker.utf8Start[0])
            precondition(table[first] < 0, "markers start with distinct bytes")
            table[first] = Int8(index)
        }
        return table
    }()
    /// Leading words of an instruction to the reader.
    static let instructionPrefixes: [StaticString] = ["your", "insert", "enter", "replace", "put-", "put_", "add-your", "add_your"]

    /// True when `value` is a placeholder. Case-insensitive; surrounding whitespace ignored.
    public static func isPlaceholder(_ value: String) -> Bool {
        var bytes = Array(value.utf8)
        return bytes.withUnsafeMutableBufferPointer { isPlaceholder(UnsafeBufferPointer($0)) }
    }

    /// The same, on UTF-8 bytes (no `String` work unless the value is short).
    public static func isPlaceholder(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0, end = value.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while start < end && isSpace(value[start]) { start += 1 }
        while end > start && isSpace(value[end - 1]) { end -= 1 }
        if start == end { return true }
        let trimmed = UnsafeBufferPointer(rebasing: value[start..<end])
        // A listed word first, the commonest placeholder under a sensitive name: none has a
        // space, a `%` or a template's marks, so none is decided otherwise below.
        if isListedWord(trimmed) { return true }
        // An authorization scheme in front of a placeholder is still a placeholder.
        for scheme in ["bearer ", "basic ", "token "] as [StaticString]
        where trimmed.count > scheme.utf8CodeUnitCount && trimmed.hasPrefixIgnoringASCIICase(scheme) {
            return isPlaceholder(UnsafeBufferPointer(rebasing: trimmed[scheme.utf8CodeUnitCount...]))
        }
        if isIdentifierCode(trimmed) || isTemplate(trimmed) || interpolates(trimmed) { return true }
        // Percent-encoded (`%24%7BaccessToken%7D`): judged decoded.
        if let decoded = percentDecoded(trimmed) {
            return decoded.withUnsafeBufferPointer { isPlaceholder($0) }
        }
        // The words, markers and prefixes are lowercase: compared with a lowercased copy, on
        // the stack when it is short.
        let listed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { buffer in
            for (i, b) in trimmed.enumerated() { buffer[i] = b &- 0x41 < 26 ? b | 0x20 : b }
            return marksOrInstructs(UnsafeBufferPointer(buffer))
        }
        if listed { return true }
        // One character repeated ("aaaaaaaa"), a mask ("********", "xxxx-xxxx", "•••"), or
        // mostly x or * ("sk_live_xxxxxxxxxxxxxxxx").
        if trimmed.allSatisfy({ $0 < 0x80 }) { return isASCIIMask(trimmed) }
        return isMask(Array(String(decoding: trimmed, as: UTF8.self).unicodeScalars))
    }

    /// Whether `lower` (lowercase) holds a marker or begins or ends as an instruction or a
    /// reference to the environment does. Out of line: inlined into `isPlaceholder`, it cost
    /// each credible value some 480 instructions more.
    @inline(never)
    private static func marksOrInstructs(_ lower: UnsafeBufferPointer<UInt8>) -> Bool {
        containsMarker(lower) || instructionPrefixes.contains { lower.hasPrefix($0) }
            || environmentReferences.contains { lower.hasPrefix($0) } || isInstructionSuffix(lower)
    }

    /// Whether one of `markers` occurs in `lower` (lowercase).
    static func containsMarker(_ lower: UnsafeBufferPointer<UInt8>) -> Bool {
        markerByFirstByte.withUnsafeBufferPointer { table in
            for i in lower.indices {
                let marker = table[Int(lower[i])]
                if marker >= 0 && UnsafeBufferPointer(rebasing: lower[i...]).hasPrefix(markers[Int(marker)]) { return true }
            }
            return false
        }
    }

    /// `isMask` for ASCII text, on its bytes; also a value mostly one repeated byte, or with a
    /// run of eight x, X, * or #.
    private static func isASCIIMask(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        // One pass: all the same byte, all mask characters, how many are x, X or *, the longest
        // run of one byte and the longest run of x, X, * or #.
        var same = true, allMask = true
        var masked = 0
        var run = 0, longestRun = 0, maskRun = 0, longestMaskRun = 0
        var previous: UInt8 = 0
        for b in bytes {
            same = same && b == first
            allMask = allMask && asciiMaskCharacters & (1 << UInt128(b)) != 0
            let isMaskByte = b == UInt8(ascii: "x") || b == UInt8(ascii: "X") || b == UInt8(ascii: "*") || b == UInt8(ascii: "#")
            if isMaskByte && b != UInt8(ascii: "#") { masked += 1 }
            run = b == previous ? run + 1 : 1
            longestRun = max(longestRun, run)
            maskRun = isMaskByte && (maskRun == 0 || b == previous) ? maskRun + 1 : isMaskByte ? 1 : 0
            longestMaskRun = max(longestMaskRun, maskRun)
            previous = b
        }
        if bytes.count >= 3 && same { return true }
        if allMask { return true }
        // A provider's prefix before filler (`gsk_aaaaaaaa…`), or a value redacted in part
        // (`xoxp-5723…-####################`): no generated secret has either.
        if bytes.count >= 8 && longestRun * 10 >= bytes.count * 6 { return true }
        if longestMaskRun >= 8 { return true }
        return bytes.count >= 6 && masked * 10 >= bytes.count * 6
    }

    /// One character repeated, only mask characters, or mostly x or *.
    private static func isMask<S: Collection>(_ scalars: S) -> Bool where S.Element == Unicode.Scalar {
        guard let first = scalars.first else { return false }
        let count = scalars.count
        if count >= 3 && scalars.allSatisfy({ $0 == first }) { return true }
        if scalars.allSatisfy({ maskCharacters.contains($0) }) { return true }
        if count >= 6 {
            let masked = scalars.reduce(0) { $0 + ($1 == "x" || $1 == "X" || $1 == "*" || $1 == "\u{2022}" ? 1 : 0) }
            if masked * 10 >= count * 6 { return true }
        }
        return false
    }

    static let maskCharacters: Set<Unicode.Scalar> = ["*", "x", "X", "\u{2022}", "#", ".", "-", "_", " "]
    /// The ASCII ones of `maskCharacters`, as a bit per byte value.
    private static let asciiMaskCharacters: UInt128 = maskCharacters.reduce(0) { $1.value < 0x80 ? $0 | 1 << UInt128($1.value) : $0 }

    /// How code reads a secret from the environment; the value names the variable, not the secret.
    static let environmentReferences: [StaticString] = [
        "process.env.", "process.env[", "import.meta.env.", "os.environ[", "os.environ.get(", "os.getenv(", "getenv(",
        "system.getenv(", "env[", "env.fetch(", "deno.env.get(", "environment.getenvironmentvariable(",
    ]

    /// What an instruction to fill in ends with: `RANDOMSTRINGHERE`, `your_token_here`,
    /// `api-key-here` (a noun of a secret, then "here").
    static func isInstructionSuffix(_ lower: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lower.count >= 8, UnsafeBufferPointer(rebasing: lower[(lower.count - 4)...]).hasPrefix("here") else { return false }
        var head = UnsafeBufferPointer(rebasing: lower[..<(lower.count - 4)])
        if let last = head.last, last == UInt8(ascii: "_") || last == UInt8(ascii: "-") || last == UInt8(ascii: " ") {
            head = UnsafeBufferPointer(rebasing: head[..<(head.count - 1)])
        }
        for noun in ["key", "token", "secret", "password", "string", "value", "id", "pass", "code"] as [StaticString] {
            let n = noun.utf8CodeUnitCount
            if head.count >= n && UnsafeBufferPointer(rebasing: head[(head.count - n)...]).hasPrefix(noun) { return true }
        }
        return false
    }

    /// A value that interpolates a template expression anywhere in it (`value[${accessToken}]`,
    /// `Bearer {{token}}`, `<%= token %>`): what is sent is the expression's value, not this.
    static func interpolates(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every opening holds `{` or `%`: most values are decided by one look at their bytes.
        guard s.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "%") }) else { return false }
        func index(of needle: StaticString, from start: Int) -> Int? {
            let n = needle.utf8CodeUnitCount
            var i = start
            while i + n <= s.count {
                if UnsafeBufferPointer(rebasing: s[i...]).hasPrefix(needle) { return i }
                i += 1
            }
            return nil
        }
        func closes(_ open: StaticString, _ close: StaticString) -> Bool {
            guard let start = index(of: open, from: 0) else { return false }
            return index(of: close, from: start + open.utf8CodeUnitCount) != nil
        }
        return closes("${", "}") || closes("{{", "}}") || closes("<%", "%>")
    }

    /// The value percent-decoded, when it holds a `%XX` escape; nil otherwise.
    static func percentDecoded(_ s: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard s.contains(UInt8(ascii: "%")) else { return nil }
        // Each escape decoded is three bytes become one: shorter means something was decoded.
        let decoded = LayerBytes.percentDecode(s, plusAsSpace: false)
        return decoded.count < s.count ? decoded : nil
    }

    /// A machine-readable code of short lowercase words joined by `_`, `-` or `.`: `too_short`,
    /// `password.mismatch`. Case-sensitive, so a random token is not one.
    static func isIdentifierCode(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var sawSeparator = false
        var wordLength = 0
        for b in text {
            if b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") {
                wordLength += 1
                if wordLength > 16 { return false }
            } else if (b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")) && wordLength > 0 {
                sawSeparator = true
                wordLength = 0
            } else {
                return false
            }
        }
        return sawSeparator && wordLength > 0
    }

    /// `${VAR}`, `$VAR`, `{{ … }}`, `%s`, `%(name)s`, `<…>`, `[…]`, `{name}`.
    static func isTemplate(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        func starts(_ p: StaticString) -> Bool { s.hasPrefix(p) }
        func ends(_ p: StaticString) -> Bool {
            s.count >= p.utf8CodeUnitCount && UnsafeBufferPointer(rebasing: s[(s.count - p.utf8CodeUnitCount)...]).hasPrefix(p)
        }
        if starts("${") && ends("}") { return true }
        if starts("{{") && ends("}}") { return true }
        if starts("<") && ends(">") { return true }
        if starts("[") && ends("]") { return true }
        if (s.count == 2 && (starts("%s") || starts("%d"))) || (starts("%(") && ends(")s")) { return true }
        func isWordByte(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == UInt8(ascii: "_") || b >= 0x80 }
        if starts("{") && ends("}") && s.count > 2 && s.dropFirst().dropLast().allSatisfy(isWordByte) { return true }
        if starts("$") && s.count > 1 && s.dropFirst().allSatisfy({ $0 &- 0x41 < 26 || $0 &- 0x30 < 10 || $0 == UInt8(ascii: "_") }) {
            return true
        }
        return false
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace.
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
