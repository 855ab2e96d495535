import AuditCore

/// Why the format of an input cannot be determined (or the input is refused at once).
public struct FormatError: Error, Equatable, Sendable {
    public var reason: String
    public var offset: Int
}

/// Decides an input's format from its content: gzip (then the format of what it holds), JSON (a
/// HAR capture when the root object's first key is `log`; NDJSON is told apart while reading),
/// Android SharedPreferences XML, a Jetpack DataStore preferences file, or raw HTTP messages.
/// A name says nothing, except for DataStore: its protobuf has no magic, so a file named
/// `*.preferences_pb` claims the format whatever it holds (and fails to read if it is not one).
public enum FormatDetector {
    /// What the input starts with.
    public enum Detected: Equatable, Sendable {
        case gzip
        case format(InputFormat)
    }

    /// How far to look for the first line of an HTTP message or the first key of a HAR.
    static let sniffLength = 64 * 1024

    /// The file name suffixes of a DataStore preferences file, plain and compressed.
    static let dataStoreSuffixes = [".preferences_pb", ".preferences_pb.gz"]

    /// The format of the input in `window`, read from its first bytes (nothing is consumed);
    /// `name` is the input's name, which only a DataStore file's suffix makes count.
    public static func detect(_ window: ByteWindow, name: String = "") -> Result<Detected, FormatError> {
        _ = window.ensure(sniffLength, keeping: window.start)
        let n = window.end - window.start
        let bytes = UnsafeBufferPointer(start: window.base, count: n)
        if n >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B { return .success(.gzip) }
        if dataStoreSuffixes.contains(where: name.hasSuffix) || DataStoreReader.looksLikePreferenceMap(bytes) {
            return .success(.format(.datastore))
        }
        if n >= 4 && bytes[0] == UInt8(ascii: "A") && bytes[1] == UInt8(ascii: "B") && bytes[2] == UInt8(ascii: "X") && bytes[3] == 0 {
            return .failure(FormatError(reason: "Android binary XML (ABX) is not supported; export the preferences as text XML", offset: 0))
        }
        // UTF-32 first: its little-endian mark begins with UTF-16's.
        if n >= 4 && ((bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF)
                      || (bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0 && bytes[3] == 0)) {
            return .failure(FormatError(reason: "UTF-32 input is not supported; inputs must be UTF-8", offset: 0))
        }
        if n >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)) {
            return .failure(FormatError(reason: "UTF-16 input is not supported; inputs must be UTF-8", offset: 0))
        }
        var i = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while i < n && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        guard i < n else {
            return .failure(FormatError(reason: n == 0 ? "empty input" : "the input holds only whitespace", offset: window.start + i))
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            return .success(.format(firstKeyIsLog(bytes, after: i) ? .har : .json))
        case UInt8(ascii: "["), UInt8(ascii: "\""):
            return .success(.format(.json))
        case UInt8(ascii: "<"):
            return .success(.format(.prefsXML))
        default:
            // The first line of an HTTP message, after any `curl -v` notes (`* Trying …`) and
            // REST-client comments, separators and variables.
            var start = i
            while start < n {
                var end = start
                while end < n && bytes[end] != 0x0A { end += 1 }
                var line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
                if HTTPMessageReader.looksLikeHTTP(line) { return .success(.format(.http)) }
                let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
                guard line.first == UInt8(ascii: "*") || blank || HTTPMessageReader.isCommentOrVariable(line) else { break }
                start = end + 1
            }
            return .failure(FormatError(
                reason: "the input format cannot be determined: not JSON, NDJSON, a HAR capture, SharedPreferences XML, a DataStore preferences file or an HTTP message (it starts with a \(describeByte(bytes[i])))",
                offset: window.start + i))
        }
    }

    /// `{ "log": {` (whitespace allowed), with a HAR key (`"version"`, `"creator"` or
    /// `"entries"`) soon after: the start of a HAR capture, and not a log event that happens to
    /// have a `log` member.
    private static func firstKeyIsLog(_ bytes: UnsafeBufferPointer<UInt8>, after brace: Int) -> Bool {
        var i = brace + 1
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        let key = Array("\"log\"".utf8)
        guard i + key.count <= bytes.count, Array(bytes[i..<i + key.count]) == key else { return false }
        i += key.count
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        guard i < bytes.count && bytes[i] == UInt8(ascii: ":") else { return false }
        i += 1
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        guard i < bytes.count && bytes[i] == UInt8(ascii: "{") else { return false }
        let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<min(bytes.count, i + 4096)]), as: UTF8.self)
        return ["\"version\"", "\"creator\"", "\"entries\""].contains { rest.containsText($0) }
    }
}
