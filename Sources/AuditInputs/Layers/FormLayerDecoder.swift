/// An `application/x-www-form-urlencoded` body held in a string, as HTTP logs and HAR files keep
/// token requests: `grant_type=refresh_token&refresh_token=…&client_id=habiter` gives its pairs,
/// percent-decoded with `+` as a space. Each value is judged by its name and scanned with the
/// pattern rules on its own; the text itself is scanned too (a format that spans pairs, such as
/// an Azure SAS token `sv=…&sig=…`; a base64 secret whose `+` the form decoding turns into a
/// space), and a secret found both ways is reported once, on its pair.
///
/// Strict, because free text must not be taken for a form (its value would then not be scanned as
/// text): printable ASCII only, no spaces or line breaks, no quotes, braces, backslashes or
/// angle brackets; every `&`-separated part is `name=value` with a non-empty name of URL-safe
/// characters (unreserved, `%`, `+`, `[`, `]`) and a value that does not start with `=`; a lone
/// `name=value` needs a plausible parameter name (letters, digits, `_`, `-`, `.`, `[`, `]`, at
/// least one letter) and a non-empty value. A base64 text with its `=` padding is therefore not
/// a form, and a URL (`scheme://`, `/path?…`, `?…`) is left to the query decoder.
public struct FormLayerDecoder: LayerDecoder {
    public var name: String { "form" }
    public var gate: LayerGate { LayerGate(minimumLength: 3, firstBytes: nil, requiredByte: UInt8(ascii: "=")) }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first, Self.nameCharacter(first) else { return nil }
        // What the pass below rejects at the end of the first part, found first with `memchr`:
        // no `=`, an `&` before the first `=`, a value starting with `=` (two `=` of base64
        // padding), or a lone part with an empty value (one `=` of padding, last). A padded
        // base64 body of a capture was read whole as a name before it was rejected.
        guard let equalsSign = memchr(value.baseAddress!, Int32(UInt8(ascii: "=")), value.count) else { return nil }
        let firstEquals = UnsafeRawPointer(equalsSign) - value.baseAddress!
        if firstEquals == value.count - 1 || value[firstEquals + 1] == UInt8(ascii: "=")
            || memchr(value.baseAddress!, Int32(UInt8(ascii: "&")), firstEquals) != nil {
            return nil
        }
        // One pass over the bytes: characters, parts and their names, before any allocation.
        var parts = 0
        var partStart = 0
        var equals = -1  // the first `=` of the current part
        var plainNames = true
        for i in 0...value.count {
            if i == value.count || value[i] == UInt8(ascii: "&") {
                // A part: a non-empty name, an `=`, a value not starting with `=`.
                guard equals > partStart else { return nil }
                if equals + 1 < i && value[equals + 1] == UInt8(ascii: "=") { return nil }
                parts += 1
                if parts == 1 {
                    plainNames = Self.plausibleName(value, partStart..<equals) && equals + 1 < i
                }
                partStart = i + 1
                equals = -1
                continue
            }
            let b = value[i]
            if equals < 0 {
                if b == UInt8(ascii: "=") {
                    equals = i
                } else if !Self.nameCharacter(b) {
                    return nil
                }
            } else if !Self.valueCharacter(b) {
                return nil
            }
        }
        if parts == 1 && !plainNames { return nil }
        // Not a URL: a scheme's `://` cannot be in a name, but `a=1&next=https://…` is a form.
        // A lone `NAME=value` is as likely an environment assignment as a form: its value keeps
        // its `+` (base64 secrets have them).
        let pairs = PairList(encodedIn: 0..<value.count, separator: UInt8(ascii: "&"), plusAsSpace: parts > 1)
        return DecodedLayer(bytes: [], content: .pairs(pairs), replacesValue: false)
    }

    /// Characters of a parameter name: unreserved, `%` escapes, `+` for a space, `[` `]` for
    /// arrays (`scope[]`).
    @inline(__always)
    static func nameCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"), UInt8(ascii: "+"),
             UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    /// Characters of a value: what a sloppy encoder leaves unescaped (`redirect_uri=https://…`,
    /// base64 padding) but nothing that marks prose or code: no blanks, quotes, braces,
    /// backslashes, angle brackets, `#`, `|`, `^` or backquote, and ASCII only.
    @inline(__always)
    public static func valueCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"), UInt8(ascii: "+"),
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "?"),
             UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"):
            return true
        default:
            return false
        }
    }

    /// A lone pair's name: letters, digits, `_`, `-`, `.`, `[`, `]`, with at least one letter.
    static func plausibleName(_ value: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        var letter = false
        for i in range {
            let b = value[i]
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): letter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "["), UInt8(ascii: "]"):
                continue
            default: return false
            }
        }
        return letter
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
