import AuditBytes

/// What a text value is, for the rules that read prose and assignments (`Rule.codePolicy`). A
/// browser capture holds the page's JavaScript bundles, stylesheets and HTML: in them
/// `this.password=r[4]||n` is code and `.fa-map-pin:before{…}` is a selector, not a credential.
/// Decided by the declared media type where there is one (a HAR body's `mimeType`, a
/// `Content-Type`), else by the value's first bytes; asked only of values in which such a rule
/// matched, so clean values never pay for it.
public enum TextKind: Sendable, Equatable {
    /// Prose, a log line, a configuration: anything not below.
    case text
    /// JavaScript (and TypeScript, JSON-with-code source maps' sources).
    case code
    /// CSS.
    case stylesheet
    /// HTML, XHTML, SVG or other XML markup: prose rules read its text nodes only.
    case markup

    /// The kind a media type declares (`text/javascript; charset=utf-8`, `image/svg+xml`), or nil
    /// for one that says nothing about it (`application/json`, `text/plain`,
    /// `application/octet-stream`).
    public init?(mediaType: String) {
        var text = mediaType
        guard let kind = text.withUTF8({ TextKind(mediaType: $0) }) else { return nil }
        self = kind
    }

    /// The same, on the media type's bytes, without making a string (a capture declares one for
    /// every body).
    public init?(mediaType bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0, end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        // Only `text/…`, `application/…`, `image/svg+xml` and `module` can declare a kind.
        guard end - start >= 6, end - start <= 24 else { return nil }
        // Compared with each essence in place, ASCII letters in either case: a lowercased
        // `String` compared with fifteen took some 2,900 instructions a body. (No essence holds a
        // `k`, the one letter a non-ASCII character lowercases to: KELVIN SIGN.)
        let essence = UnsafeBufferPointer(rebasing: bytes[start..<end])
        func isOne(of names: StaticString...) -> Bool {
            names.contains { essence.count == $0.utf8CodeUnitCount && essence.hasPrefixIgnoringASCIICase($0) }
        }
        if isOne(of: "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
                 "application/ecmascript", "text/jsx", "text/typescript", "application/typescript", "module") {
            self = .code
        } else if isOne(of: "text/css") {
            self = .stylesheet
        } else if isOne(of: "text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml") {
            self = .markup
        } else {
            return nil
        }
    }

    /// The kind a file's name declares by its extension (`main.dart` is code, `README.md` text,
    /// `index.html` markup), or nil for a name that says nothing (then the content is sniffed).
    /// Shell scripts, `.env` and configuration files are text: an unquoted value is a literal there.
    public init?(fileName: String) {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        if file.hasPrefix(".env") {
            self = .text
            return
        }
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
        switch file[file.index(after: dot)...] {
        case "dart", "swift", "kt", "kts", "java", "scala", "groovy", "gradle", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx",
             "go", "rs", "py", "rb", "php", "c", "h", "cc", "cpp", "hpp", "m", "mm", "cs":
            self = .code
        case "css", "scss", "sass", "less":
            self = .stylesheet
        case "html", "htm", "xhtml", "svg", "xml", "vue":
            self = .markup
        case "md", "markdown", "txt", "rst", "adoc", "yaml", "yml", "toml", "ini", "cfg", "conf", "properties", "env",
             "sh", "bash", "zsh", "ps1", "bat", "cmd", "csv", "log":
            self = .text
        default:
            return nil
        }
    }

    /// How many leading bytes the sniffer reads: a bundle or stylesheet shows what it is early.
    static let sniffedBytes = 4096

    /// The kind of `value` by its content: markup when it opens with a tag, a stylesheet when
    /// its first rule is a selector or at-rule block, code when it opens as a script does or
    /// reads like one (statements, functions, braces); else text.
    public static func sniff(_ value: UnsafeRawBufferPointer) -> TextKind {
        let bytes = UnsafeRawBufferPointer(rebasing: value.prefix(sniffedBytes))
        var i = skipSpaceAndComments(bytes, from: 0)
        guard i < bytes.count else { return .text }
        if bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count, isTagStart(bytes[i + 1]), bytes.contains(UInt8(ascii: ">")) {
            return .markup
        }
        for opening in Self.codeOpenings where startsWith(bytes, opening, at: i) { return .code }
        for opening in Self.stylesheetOpenings where startsWith(bytes, opening, at: i) { return .stylesheet }
        if looksLikeSelectorBlock(bytes, from: i) { return .stylesheet }
        i = 0
        var punctuation = 0
        var keywords = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"):
                punctuation += 1
            case UInt8(ascii: "f") where startsWith(bytes, "function", at: i),
                 UInt8(ascii: "r") where startsWith(bytes, "return", at: i),
                 UInt8(ascii: "=") where startsWith(bytes, "=>", at: i),
                 UInt8(ascii: "v") where startsWith(bytes, "var ", at: i),
                 UInt8(ascii: "c") where startsWith(bytes, "const ", at: i) || startsWith(bytes, "class ", at: i),
                 UInt8(ascii: "v") where startsWith(bytes, "void ", at: i):
                keywords += 1
            default:
                break
            }
            i += 1
        }
        // Minified code is dense with statement punctuation; prose and data are not.
        return keywords >= 2 && punctuation * 20 >= bytes.count ? .code : .text
    }

    private static let codeOpenings: [StaticString] = [
        "!function", "(function", "(()=>", "(() =>", "\"use strict\"", "'use strict'", "var ", "let ", "const ",
        "function ", "import ", "export ", "window.", "self.", "(self.", "(window.", "define(", "require(",
        "//# sourceMappingURL", "(globalThis", "globalThis.",
        // Dart, TypeScript, Kotlin, Java, Swift sources (a source map's `sourcesContent`).
        "class ", "abstract class ", "final ", "void ", "package ", "interface ", "@override", "library ", "part of ",
    ]
    private static let stylesheetOpenings: [StaticString] = ["@charset", "@import", "@media", "@font-face", "@keyframes", "@layer", ":root"]

    private static func startsWith(_ bytes: UnsafeRawBufferPointer, _ text: StaticString, at i: Int) -> Bool {
        i <= bytes.count && UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[i...]).hasPrefix(text)
    }

    /// Past leading white space and `/* … */` or `//` comments (a bundle's licence banner).
    private static func skipSpaceAndComments(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xEF || b == 0xBB || b == 0xBF {
                i += 1
            } else if startsWith(bytes, "/*", at: i) {
                guard let end = firstIndex(of: "*/", in: bytes, from: i + 2) else { return bytes.count }
                i = end + 2
            } else if startsWith(bytes, "//", at: i) && !startsWith(bytes, "//#", at: i) {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
            } else {
                break
            }
        }
        return i
    }

    private static func firstIndex(of text: StaticString, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if startsWith(bytes, text, at: i) { return i }
            i += 1
        }
        return nil
    }

    private static func isTagStart(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "!") || b == UInt8(ascii: "?")
    }

    /// `.fa{display:inline-block}`, `#app > div, body{margin:0}`: a selector (no statement
    /// punctuation) up to `{`, then `property:value` before `}`.
    private static func looksLikeSelectorBlock(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        let first = bytes[start]
        guard first == UInt8(ascii: ".") || first == UInt8(ascii: "#") || first == UInt8(ascii: "*") || first == UInt8(ascii: "[")
                || isTagStart(first) else { return false }
        var i = start
        while i < bytes.count && i < start + 512 {
            switch bytes[i] {
            case UInt8(ascii: "{"):
                var j = i + 1
                var sawColon = false
                while j < bytes.count && j < i + 512 {
                    let b = bytes[j]
                    if b == UInt8(ascii: ":") { sawColon = true }
                    if b == UInt8(ascii: "}") { return sawColon }
                    if b == UInt8(ascii: "{") || b == UInt8(ascii: "(") && !sawColon { return false }
                    j += 1
                }
                return false
            case UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "("), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x0A:
                return false
            default:
                i += 1
            }
        }
        return false
    }

    /// Whether the bytes `range` of markup `value` are in a text node: outside every tag, and
    /// not inside a `<script>` or `<style>` element (whose content is code).
    public static func isInTextNode(_ range: Range<Int>, of value: UnsafeRawBufferPointer) -> Bool {
        var inTag = false
        var rawElementEnd: StaticString?
        var i = 0
        while i < range.lowerBound {
            let b = value[i]
            if let end = rawElementEnd {
                if b == UInt8(ascii: "<"), startsWithIgnoringCase(value, end, at: i) { rawElementEnd = nil; inTag = true }
            } else if b == UInt8(ascii: "<") {
                inTag = true
                if startsWithIgnoringCase(value, "<script", at: i) { rawElementEnd = "</script" }
                else if startsWithIgnoringCase(value, "<style", at: i) { rawElementEnd = "</style" }
            } else if b == UInt8(ascii: ">") {
                inTag = false
            }
            i += 1
        }
        // Inside a raw element: after its start tag closed.
        return !inTag && rawElementEnd == nil
    }

    private static func startsWithIgnoringCase(_ value: UnsafeRawBufferPointer, _ text: StaticString, at i: Int) -> Bool {
        i <= value.count && UnsafeBufferPointer(rebasing: value.assumingMemoryBound(to: UInt8.self)[i...]).hasPrefixIgnoringASCIICase(text)
    }
}
