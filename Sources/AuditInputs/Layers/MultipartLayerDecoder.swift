#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `multipart/form-data` body held in a string (RFC 7578), as HAR files and raw HTTP captures
/// keep a browser's form posts and uploads: each part is a field named by its
/// `Content-Disposition: form-data; name="…"`, and its body is judged by that name and scanned
/// like a form field's value (a file's content is offered to the decoders: JSON opens as JSON).
/// The text itself is scanned too. A password in a multipart form was otherwise read as loose
/// text, where the same field of an `x-www-form-urlencoded` form is judged by its name.
///
/// Strict, because text that starts with `--` (a command line's flags, an SQL comment) must not
/// be taken for a body: the first line must be a delimiter (`--` and a boundary of 1 to 70 of
/// RFC 2046's characters, then a line break), and the first part's headers must hold a
/// `Content-Disposition` of type `form-data`. A body is read in the value, part by part, as the
/// scan reads its pairs (`MultipartParts`), so a body of a million parts costs the memory of one.
/// Once recognised, every part is read: a body cut short (no closing delimiter, a part's headers
/// without their end) has its last part run to the end of the value, so nothing is skipped.
public struct MultipartLayerDecoder: LayerDecoder {
    public var name: String { "multipart" }
    /// `--`, a boundary of one byte, a line break, a `Content-Disposition: form-data` header and
    /// the blank line after it: 44 bytes at least.
    public var gate: LayerGate { LayerGate(minimumLength: 44, firstBytes: "-") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let parts = Self.parts(of: value) else { return nil }
        return DecodedLayer(bytes: [], content: .pairs(PairList(multipartWithBoundary: parts.boundary)), replacesValue: false)
    }

    /// The parts of `value` when it is a `multipart/form-data` body as `decode` recognises one
    /// (the scan's pairs and the redactor read the same parts), nil otherwise.
    public static func parts(of value: UnsafeRawBufferPointer) -> MultipartParts? {
        guard let boundary = MultipartParts.boundary(of: value) else { return nil }
        let parts = MultipartParts(value, boundary: boundary)
        var first = parts
        guard first.next()?.isFormData == true else { return nil }
        return parts
    }
}

/// One part of a multipart body: the ranges, in the value, of the name its
/// `Content-Disposition` gives (empty when it gives none) and of its body.
public struct MultipartPart: Sendable {
    public var name: Range<Int>
    public var body: Range<Int>
    /// The disposition is `form-data`.
    public var isFormData: Bool
}

/// The parts of a multipart body in a value, in order, read from the value one at a time. The
/// redactor reads them as the scan does, to rewrite a part's body where it stands.
public struct MultipartParts: IteratorProtocol, Sequence {
    let value: UnsafeRawBufferPointer
    /// The boundary's bytes in the value (after the first line's `--`).
    let boundary: Range<Int>
    /// Where the next part's headers begin; `value.count + 1` once the body has ended.
    private var nextStart: Int

    /// The parts of the body in `value` whose first line is the delimiter of `boundary`
    /// (`boundary(of:)`).
    public init(_ value: UnsafeRawBufferPointer, boundary: Range<Int>) {
        self.value = value
        self.boundary = boundary
        nextStart = MultipartParts.lineEnd(in: value, from: boundary.upperBound).map { $0 + 1 } ?? value.count + 1
    }

    /// The boundary of the delimiter that `value` starts with: `--`, 1 to 70 boundary
    /// characters (RFC 2046: letters, digits, `'()+_,-./:=?` and a space, not last), optional
    /// blanks, then CRLF or LF. Nil when the first line is no delimiter.
    public static func boundary(of value: UnsafeRawBufferPointer) -> Range<Int>? {
        guard value.count >= 4, value[0] == UInt8(ascii: "-"), value[1] == UInt8(ascii: "-") else { return nil }
        var end = 2
        while end < value.count, end - 2 <= 70, isBoundaryCharacter(value[end]) { end += 1 }
        guard lineEnd(in: value, from: end) != nil else { return nil }
        // Blanks after the boundary are transport padding, not part of it.
        while end > 2 && value[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard end > 2, end - 2 <= 70 else { return nil }
        return 2..<end
    }

    public mutating func next() -> MultipartPart? {
        guard nextStart <= value.count else { return nil }
        var part = MultipartPart(name: nextStart..<nextStart, body: value.count..<value.count, isFormData: false)
        // The headers, line by line, to the blank line.
        var line = nextStart
        var bodyStart: Int?
        while line < value.count {
            guard let end = MultipartParts.firstLineFeed(in: value, from: line) else { break }
            let text = line..<(end > line && value[end - 1] == 0x0D ? end - 1 : end)
            if text.isEmpty {
                bodyStart = end + 1
                break
            }
            readDisposition(text, into: &part)
            line = end + 1
        }
        guard let bodyStart else {
            // The headers run to the end: a part cut off before its body.
            nextStart = value.count + 1
            return part
        }
        // The body, to the next delimiter (a line break, `--` and the boundary, then `--` for
        // the last or a line break), or to the end of the value when none follows.
        var search = bodyStart - 1
        while let lf = MultipartParts.firstLineFeed(in: value, from: search) {
            if let after = delimiterEnd(atLineFeed: lf) {
                part.body = bodyStart..<Swift.max(bodyStart, lf > 0 && value[lf - 1] == 0x0D ? lf - 1 : lf)
                nextStart = after
                return part
            }
            search = lf + 1
        }
        part.body = bodyStart..<value.count
        nextStart = value.count + 1
        return part
    }

    /// Where the part after the delimiter that starts at the line feed `lf` begins
    /// (`value.count + 1` after the closing one), or nil when no delimiter starts there.
    private func delimiterEnd(atLineFeed lf: Int) -> Int? {
        var i = lf + 1
        guard value.count - i >= 2 + boundary.count, value[i] == UInt8(ascii: "-"), value[i + 1] == UInt8(ascii: "-") else { return nil }
        i += 2
        for b in boundary where value[i + b - boundary.lowerBound] != value[b] { return nil }
        i += boundary.count
        if value.count - i >= 2 && value[i] == UInt8(ascii: "-") && value[i + 1] == UInt8(ascii: "-") { return value.count + 1 }
        guard let end = MultipartParts.lineEnd(in: value, from: i) else { return i == value.count ? value.count + 1 : nil }
        return end + 1
    }

    /// Reads a `Content-Disposition` header line (any other line is left alone): its type and
    /// its `name` parameter, quoted or a token.
    private func readDisposition(_ line: Range<Int>, into part: inout MultipartPart) {
        let header = "content-disposition:".utf8.count
        guard line.count > header, LayerBytes.hasPrefixIgnoringCase(UnsafeRawBufferPointer(rebasing: value[line]), "content-disposition:") else { return }
        var parameters = (line.lowerBound + header)..<line.upperBound
        var first = true
        while let parameter = nextParameter(in: &parameters) {
            if first {
                part.isFormData = UnsafeRawBufferPointer(rebasing: value[parameter]).equalsIgnoringASCIICase("form-data")
                first = false
                continue
            }
            guard let equals = value[parameter].firstIndex(of: UInt8(ascii: "=")),
                  UnsafeRawBufferPointer(rebasing: value[parameter.lowerBound..<equals]).equalsIgnoringASCIICase("name") else { continue }
            var name = (equals + 1)..<parameter.upperBound
            if name.count >= 2 && value[name.lowerBound] == 0x22 && value[name.upperBound - 1] == 0x22 {
                name = (name.lowerBound + 1)..<(name.upperBound - 1)
            }
            part.name = name
        }
    }

    /// The next `;`-separated parameter of `rest`, blanks trimmed; a quoted string's `;` and
    /// escaped quotes are its own.
    private func nextParameter(in rest: inout Range<Int>) -> Range<Int>? {
        var start = rest.lowerBound
        while start < rest.upperBound && (value[start] == 0x20 || value[start] == 0x09) { start += 1 }
        guard start < rest.upperBound else { return nil }
        var i = start
        var quoted = false
        while i < rest.upperBound {
            let b = value[i]
            if quoted && b == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if b == 0x22 { quoted.toggle() }
            if !quoted && b == UInt8(ascii: ";") { break }
            i += 1
        }
        let end = Swift.min(i, rest.upperBound)
        rest = Swift.min(end + 1, rest.upperBound)..<rest.upperBound
        var trimmed = end
        while trimmed > start && (value[trimmed - 1] == 0x20 || value[trimmed - 1] == 0x09) { trimmed -= 1 }
        return start..<trimmed
    }

    /// The line feed that ends the line at `start` when only blanks (and a CR) stand before
    /// it, nil otherwise.
    private static func lineEnd(in value: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i < value.count && (value[i] == 0x20 || value[i] == 0x09) { i += 1 }
        if i < value.count && value[i] == 0x0D { i += 1 }
        return i < value.count && value[i] == 0x0A ? i : nil
    }

    /// The first line feed at or after `start`.
    private static func firstLineFeed(in value: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < value.count, let found = memchr(value.baseAddress! + start, 0x0A, value.count - start) else { return nil }
        return UnsafeRawPointer(found) - value.baseAddress!
    }

    private static func isBoundaryCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"), UInt8(ascii: ","),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"),
             UInt8(ascii: " "):
            return true
        default:
            return false
        }
    }

}
