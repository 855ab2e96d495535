import AuditCore

/// Why the format of an input cannot be determined (or the input is refused at once).
public struct FormatError: Error, Equatable, Sendable {
    public var reason: String
    public var offset: Int
}

/// Decides an input's format from its content and what its name claims (`FormatClaim`): gzip,
/// zlib, zstd, xz or bzip2 compression and UTF-16 text (then the format of what they hold), a
/// ZIP or tar archive or an Android backup (whose members are inputs of their own), JSON
/// (a HAR capture when the root object's first key is `log`; NDJSON is told apart while
/// reading), either one wrapped in a JSONP call, Android SharedPreferences XML (a `<map>` root),
/// any other XML, a Jetpack DataStore preferences file, raw HTTP messages, mitmproxy's flow
/// files, JSONC by its name, and else text. A name that claims nothing lets the content decide,
/// and what only looks like JSON or XML at first (`"use client";`, an HTML page) is text; a
/// binary file is skipped (an HTTP message with a binary body is no binary file). A name that
/// claims a format keeps what the content shows, broken or not: the reader then reports why it
/// does not parse. DataStore's protobuf has no magic, so a file named `*.preferences_pb` claims
/// that format whatever it holds.
public enum FormatDetector {
    /// What the input starts with.
    public enum Detected: Equatable, Sendable {
        /// Compressed whole: gzip, the zlib format (`deflate`), zstd, xz or bzip2, by their headers.
        case compressed(ContentCoding)
        /// An archive (`ArchiveFormat`), whose members are scanned as inputs of their own.
        case archive(ArchiveFormat)
        /// UTF-16 text (`UTF16Text.byteOrder(of:)`), whose mark is `markLength` bytes.
        case utf16(UTF16Text.ByteOrder, markLength: Int)
        case format(InputFormat)
        /// JSON or a HAR capture (the format) inside a JSONP call; the value starts at the offset.
        case jsonp(InputFormat, valueStart: Int)
        /// An input not scanned, and why: a binary file.
        case skipped(String)
    }

    /// How far to look for the first line of an HTTP message or the first key of a HAR.
    static let sniffLength = 64 * 1024

    /// The file name suffixes of a DataStore preferences file, plain and compressed.
    static let dataStoreSuffixes = [".preferences_pb", ".preferences_pb.gz"]

    /// The format of the input in `window`, read from its first bytes (nothing is consumed);
    /// `name` is the input's name, for what it claims.
    public static func detect(_ window: ByteWindow, name: String = "") -> Result<Detected, FormatError> {
        let claim = FormatClaim(name: name)
        _ = window.ensure(sniffLength, keeping: window.start)
        var n = window.end - window.start
        var bytes = UnsafeBufferPointer(start: window.base, count: n)
        if let coding = compression(of: UnsafeRawBufferPointer(bytes)) { return .success(.compressed(coding)) }
        if let archive = ArchiveFormat.of(UnsafeRawBufferPointer(bytes)) { return .success(.archive(archive)) }
        if dataStoreSuffixes.contains(where: name.hasSuffix) || DataStoreReader.looksLikePreferenceMap(bytes) {
            return .success(.format(.datastore))
        }
        if n >= 4 && bytes[0] == UInt8(ascii: "A") && bytes[1] == UInt8(ascii: "B") && bytes[2] == UInt8(ascii: "X") && bytes[3] == 0 {
            return .failure(FormatError(reason: "Android binary XML (ABX) is not supported; export the preferences as text XML", offset: 0))
        }
        if let (order, markLength) = UTF16Text.byteOrder(of: UnsafeRawBufferPointer(bytes)) {
            return .success(.utf16(order, markLength: markLength))
        }
        // UTF-32, by its marks.
        if n >= 4 && ((bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF)
                      || (bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0 && bytes[3] == 0)) {
            if claim == .none { return .success(.skipped("UTF-32 text (UTF-8 and UTF-16 are scanned)")) }
            return .failure(FormatError(reason: "UTF-32 input is not supported; inputs must be UTF-8 or UTF-16", offset: 0))
        }
        var i = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while i < n && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        if MitmproxyFlowReader.startsFlowFile(bytes) { return .success(.format(.mitmproxy)) }
        if claim == .none, let binary = BinarySignature.kind(of: bytes) {
            // A raw HTTP message holds its bodies as they were sent: a gzip or image body is no
            // binary file.
            return .success(startsWithHTTPMessage(bytes, from: i) ? .format(.http) : .skipped(binary))
        }
        if claim == .jsonc { return .success(.format(.jsonc)) }
        guard i < n else {
            if claim == .none { return .success(.format(.text)) }
            return .failure(FormatError(reason: n == 0 ? "empty input" : "the input holds only whitespace", offset: window.start + i))
        }
        // Content that only looks structured is judged on more of it.
        var truncated = false
        let first = bytes[i]
        let looksStructured = first == UInt8(ascii: "{") ? !firstKeyIsLog(bytes, after: i)
            : first == UInt8(ascii: "<") ? !rootIsMap(bytes, from: i) && !startsWithXMLDeclaration(bytes, from: i)
            : first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") || JSONPWrapper.valueStart(in: bytes, from: i) != nil
        if claim == .none && looksStructured {
            truncated = window.ensure(StructureSniff.length, keeping: window.start)
            n = min(window.end - window.start, StructureSniff.length)
            bytes = UnsafeBufferPointer(start: window.base, count: n)
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            if firstKeyIsLog(bytes, after: i) { return .success(.format(.har)) }
            fallthrough
        case UInt8(ascii: "["), UInt8(ascii: "\""):
            if claim == .none && !StructureSniff.readsAsJSON(bytes, from: i, truncated: truncated, jsonp: false) {
                return .success(.format(.text))
            }
            return .success(.format(.json))
        case UInt8(ascii: "<"):
            if claim != .none || rootIsMap(bytes, from: i) { return .success(.format(.prefsXML)) }
            // An XML declaration claims XML.
            if startsWithXMLDeclaration(bytes, from: i) { return .success(.format(.xml)) }
            return .success(.format(StructureSniff.readsAsXML(bytes, truncated: truncated) == .notXML ? .text : .xml))
        default:
            if let valueStart = JSONPWrapper.valueStart(in: bytes, from: i),
               claim != .none || StructureSniff.readsAsJSON(bytes, from: valueStart, truncated: truncated, jsonp: true) {
                return .success(.jsonp(firstKeyIsLog(bytes, after: valueStart) ? .har : .json, valueStart: window.start + valueStart))
            }
            if startsWithHTTPMessage(bytes, from: i) { return .success(.format(.http)) }
            if claim == .none { return .success(.format(.text)) }
            return .failure(FormatError(
                reason: "the input format cannot be determined: not JSON, NDJSON, a HAR capture, SharedPreferences XML, a DataStore preferences file or an HTTP message (it starts with a \(describeByte(bytes[i])))",
                offset: window.start + i))
        }
    }

    /// How the input is compressed whole, from its first bytes: gzip, zstd, xz and bzip2 by their
    /// magic (which no UTF-8 text starts with: a frame with a bad header is then corrupt data, not
    /// a binary file), the zlib format (mitmproxy's `.zhar`) by a header whose first bytes inflate
    /// to text, which text that starts `x^` does not.
    public static func compression(of bytes: UnsafeRawBufferPointer) -> ContentCoding? {
        if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B { return .gzip }
        if bytes.starts(with: Zstd.magic) { return .zstd }
        if bytes.starts(with: Xz.magic) { return .xz }
        if Bzip2.startsStream(bytes) { return .bzip2 }
        if DeflateLayerDecoder.opens(bytes) { return .deflate }
        return nil
    }

    /// Whether the text from `start` is the first line of an HTTP message, after any `curl -v`
    /// notes (`* Trying …`) and REST-client comments, separators and variables.
    static func startsWithHTTPMessage(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var start = start
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
            if HTTPMessageReader.looksLikeHTTP(line) { return true }
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            guard line.first == UInt8(ascii: "*") || blank || HTTPMessageReader.isCommentOrVariable(line) else { return false }
            start = end + 1
        }
        return false
    }

    /// `<?xml` and a space: an XML declaration, which no other text starts with.
    static func startsWithXMLDeclaration(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        start + 6 <= bytes.count && bytes[start..<start + 5].elementsEqual("<?xml".utf8)
            && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5])
    }

    /// Whether the root element of the XML from `start` is `<map>` (after the XML declaration,
    /// comments and a DOCTYPE): a SharedPreferences export, which claims that format.
    static func rootIsMap(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        func at(_ i: Int, _ word: String) -> Bool {
            i + word.utf8.count <= bytes.count && bytes[i..<i + word.utf8.count].elementsEqual(word.utf8)
        }
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            } else if at(i, "<?") || at(i, "<!--") || at(i, "<!DOCTYPE") {
                let close = at(i, "<?") ? "?>" : at(i, "<!--") ? "-->" : ">"
                var depth = 0
                var j = i + 2
                while j < bytes.count && !(depth == 0 && at(j, close)) {
                    if close == ">" && bytes[j] == UInt8(ascii: "[") { depth += 1 }
                    if close == ">" && bytes[j] == UInt8(ascii: "]") { depth -= 1 }
                    j += 1
                }
                i = j + close.utf8.count
            } else {
                guard at(i, "<map"), i + 4 < bytes.count else { return false }
                let after = bytes[i + 4]
                return after == UInt8(ascii: ">") || after == UInt8(ascii: "/") || after == 0x20 || after == 0x0A || after == 0x0D || after == 0x09
            }
        }
        return false
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
