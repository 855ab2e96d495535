import AuditBytes

/// Byte helpers the layer decoders share: percent-decoding, ASCII prefixes, and the "is this
/// decoded text rather than binary" test that keeps random tokens from opening as layers.
public enum LayerBytes {
    /// Percent-decodes `bytes` (`%41` → `A`). A `%` not followed by two hex digits is kept as it
    /// is, as browsers and WHATWG URL parsers do: a sloppy URL still yields its other values.
    /// `plusAsSpace` is for form encoding (queries and `x-www-form-urlencoded` bodies), not for
    /// userinfo.
    public static func percentDecode<C: Collection>(_ bytes: C, plusAsSpace: Bool) -> [UInt8] where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        percentDecode(bytes, plusAsSpace: plusAsSpace, appendingTo: &output)
        return output
    }

    /// `percentDecode`, appended to `output`.
    public static func percentDecode<C: Collection>(_ bytes: C, plusAsSpace: Bool, appendingTo output: inout [UInt8]) where C.Element == UInt8 {
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                let h = bytes.index(after: i)
                if h != bytes.endIndex, let high = hexValue(bytes[h]) {
                    let l = bytes.index(after: h)
                    if l != bytes.endIndex, let low = hexValue(bytes[l]) {
                        output.append(high << 4 | low)
                        i = bytes.index(after: l)
                        continue
                    }
                }
                output.append(b)
            } else if plusAsSpace && b == UInt8(ascii: "+") {
                output.append(0x20)
            } else {
                output.append(b)
            }
            i = bytes.index(after: i)
        }
    }

    /// Whether `percentDecode` could change `bytes`: they hold a `%`, or a `+` read as a space.
    public static func mayPercentDecode(_ bytes: UnsafeRawBufferPointer, plusAsSpace: Bool) -> Bool {
        bytes.containsByte(UInt8(ascii: "%")) || (plusAsSpace && bytes.containsByte(UInt8(ascii: "+")))
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// True when `value` starts with the lowercase ASCII `prefix`, ignoring ASCII case.
    static func hasPrefixIgnoringCase(_ value: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard value.count >= count else { return false }
        let p = prefix.utf8Start
        for i in 0..<count where lowercased(value[i]) != p[i] {
            return false
        }
        return true
    }

    @inline(__always)
    static func lowercased(_ c: UInt8) -> UInt8 {
        c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
    }

    /// Index just past `Scheme` plus blanks (`Bearer  <token>`), or nil when `value` does not
    /// start with the scheme word (ASCII case ignored) followed by at least one space or tab.
    public static func afterAuthScheme(_ value: UnsafeRawBufferPointer, _ scheme: StaticString) -> Int? {
        let count = scheme.utf8CodeUnitCount
        guard value.count > count, hasPrefixIgnoringCase(value, scheme),
              value[count] == 0x20 || value[count] == 0x09 else { return nil }
        var i = count
        while i < value.count, value[i] == 0x20 || value[i] == 0x09 { i += 1 }
        return i
    }

    /// `value` without trailing spaces, tabs, CR and LF.
    public static func trimmedEnd(_ value: UnsafeRawBufferPointer, from start: Int) -> Int {
        var end = value.count
        while end > start, value[end - 1] == 0x20 || value[end - 1] == 0x09 || value[end - 1] == 0x0A || value[end - 1] == 0x0D {
            end -= 1
        }
        return end
    }
}

/// Decides, byte by byte, whether decoded bytes are text: valid UTF-8 (no overlongs, no
/// surrogates), no NUL, and at least 90 % printable scalars (ASCII graphic characters, space,
/// tab, LF, CR before LF, and any non-ASCII scalar other than the C1 controls). Random bytes fail within a
/// few bytes (a stray continuation byte, an invalid lead, a control), so rejection is cheap and
/// needs no allocation. `expectedBytes` lets `feed` give up as soon as the 10 % budget of
/// non-printable scalars is spent.
///
/// Texts shorter than `shortLength` bytes (a decoded token of up to 64 base64 characters) must
/// be wholly printable: there, random bytes with a single control character pass the 10 % rule
/// about once per million tokens; wholly printable ones about once per ten million.
struct TextCheck {
    static let shortLength = 48

    private var needed = 0
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF
    private var lead: UInt8 = 0
    private(set) var scalars = 0
    private(set) var unprintable = 0
    private var pendingCR = false
    private let budgetBytes: Int

    init(expectedBytes: Int) {
        budgetBytes = expectedBytes < Self.shortLength ? 0 : expectedBytes
    }

    /// Feeds one byte; false when the bytes can no longer be text.
    @inline(__always)
    mutating func feed(_ b: UInt8) -> Bool {
        if needed == 0 {
            if pendingCR {
                // A CR is a line break only before LF (random bytes hold lone CRs).
                pendingCR = false
                if b != 0x0A && !countUnprintable() { return false }
            }
            if b < 0x80 {
                if b == 0 { return false }
                scalars += 1
                if b == 0x0D {
                    pendingCR = true
                } else if (b < 0x20 && b != 0x09 && b != 0x0A) || b == 0x7F {
                    return countUnprintable()
                }
                return true
            }
            lead = b
            switch b {
            case 0xC2...0xDF: needed = 1; low = 0x80; high = 0xBF
            case 0xE0: needed = 2; low = 0xA0; high = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: needed = 2; low = 0x80; high = 0xBF
            case 0xED: needed = 2; low = 0x80; high = 0x9F
            case 0xF0: needed = 3; low = 0x90; high = 0xBF
            case 0xF1...0xF3: needed = 3; low = 0x80; high = 0xBF
            case 0xF4: needed = 3; low = 0x80; high = 0x8F
            default: return false
            }
            return true
        }
        guard b >= low && b <= high else { return false }
        if lead == 0xC2 && b < 0xA0 && !countUnprintable() {
            // U+0080…U+009F: C1 controls.
            return false
        }
        low = 0x80
        high = 0xBF
        needed -= 1
        if needed == 0 { scalars += 1 }
        return true
    }

    /// Feeds eight bytes at once when all are printable ASCII and no character or CR is pending;
    /// false, having fed nothing, otherwise.
    @inline(__always)
    mutating func feedPrintableASCII(_ w: UInt64) -> Bool {
        guard needed == 0, !pendingCR, (w | SWAR.bytesBelow(w, 0x20) | SWAR.bytesEqual(w, 0x7F)) & SWAR.highBits == 0 else { return false }
        scalars += 8
        return true
    }

    /// Counts an unprintable scalar; false once more than 10 % of the expected bytes (so surely of
    /// the scalars) are unprintable, or any are in a short text.
    @inline(__always)
    private mutating func countUnprintable() -> Bool {
        unprintable += 1
        return unprintable * 10 <= budgetBytes
    }

    /// Whether the bytes fed so far end on a whole character.
    var atCharacterBoundary: Bool { needed == 0 }

    /// True when everything fed is text: complete UTF-8, not empty, at least 90 % printable (all
    /// of it in a short text).
    func finish() -> Bool {
        let all = unprintable + (pendingCR ? 1 : 0)
        return needed == 0 && scalars > 0 && all * 10 <= min(scalars, budgetBytes)
    }

    /// Whether `bytes` is text by the rule above.
    static func isText<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var check = TextCheck(expectedBytes: bytes.count)
        for b in bytes where !check.feed(b) { return false }
        return check.finish()
    }
}

/// Validates JSON syntax with the scan's own reader, building nothing: a decoder that says
/// `.json` only for real JSON keeps a text that merely starts with `{` from being dropped (a
/// `.json` layer that fails to parse is forgotten, its text unscanned).
struct JSONSyntaxCheck: JSONVisitor {
    mutating func objectStart(at offset: Int) {}
    mutating func objectEnd(at offset: Int) {}
    mutating func arrayStart(at offset: Int) {}
    mutating func arrayEnd(at offset: Int) {}
    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {}
    mutating func literal(_ value: JSONLiteral, at offset: Int) {}

    /// Whether `bytes` is one whole JSON text.
    static func isJSON(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var check = JSONSyntaxCheck()
            var reader = JSONReader(buffer)
            return (try? reader.readText(&check)) != nil
        }
    }

    /// The first byte that is not JSON whitespace, or nil.
    static func firstNonBlank<C: Collection>(_ bytes: C) -> UInt8? where C.Element == UInt8 {
        bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }
}
