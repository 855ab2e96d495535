import AuditBytes

/// What an input's name says about its format. A file named as one of the structured formats
/// claims it: if it does not parse, that is an error (fail closed), never a text scan. A name
/// that claims nothing leaves the format to the content, and to the text scan when the content
/// is none of them.
public enum FormatClaim: Equatable, Sendable {
    /// The name claims nothing (`README.md`, `main.dart`, `AndroidManifest.xml`).
    case none
    /// `*.json`, `*.ndjson`, `*.jsonl`, `*.har`, `*.http`, and standard input: one of the
    /// structured formats, which the content decides.
    case structured
    /// JSON with comments by convention (`tsconfig.json`, `.vscode/*.json`, `*.jsonc`).
    case jsonc

    /// The claim of an input named `name` (`-` is standard input: what is piped in is meant to be
    /// read as data). `.gz` is looked through.
    public init(name: String) {
        if name == "-" {
            self = .structured
            return
        }
        // An ASCII name, the usual one, is judged on its bytes; the same answers (an ASCII
        // character is one byte, and none of the names below holds a CR or an LF, the one pair
        // of ASCII bytes that is one character) without the lower-cased copy, the split and the
        // substring searches of `String`, some 27,000 instructions a file: nearly a fifth of a
        // small JSON file's scan (BENCHMARKS.md, "A directory of small files").
        let bytes = Array(name.utf8)
        self = bytes.allSatisfy { $0 < 0x80 } ? FormatClaim(asciiPath: bytes.map(ASCIICase.lower)) : FormatClaim(characters: name)
    }

    /// The claim of a name, by its characters.
    init(characters name: String) {
        var path = name.lowercased()
        if path.hasSuffix(".gz") { path.removeLast(3) }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if path.hasSuffix(".jsonc") || FormatClaim.isJSONCConfig(file: file, path: path) {
            self = .jsonc
        } else if [".json", ".ndjson", ".jsonl", ".har", ".http"].contains(where: path.hasSuffix) {
            self = .structured
        } else {
            self = .none
        }
    }

    /// The claim of an ASCII name by its bytes, `lowered`: the same steps as `init(characters:)`.
    init(asciiPath lowered: [UInt8]) {
        var path = lowered[...]
        if path.hasSuffix(Bytes.gz) { path = path.dropLast(3) }
        // The last component that is not empty, as `split` gives it; the whole path if none is.
        let slash = UInt8(ascii: "/")
        let end = (path.lastIndex { $0 != slash } ?? path.startIndex - 1) + 1
        let start = path[..<end].lastIndex(of: slash).map { $0 + 1 } ?? path.startIndex
        let file = end > path.startIndex ? path[start..<end] : path
        if path.hasSuffix(Bytes.jsonc) || FormatClaim.isJSONCConfig(file: file, path: path) {
            self = .jsonc
        } else if Bytes.structuredSuffixes.contains(where: path.hasSuffix) {
            self = .structured
        } else {
            self = .none
        }
    }

    /// The names of `init(characters:)` and `isJSONCConfig`, as bytes.
    private enum Bytes {
        static let gz = Array(".gz".utf8), jsonc = Array(".jsonc".utf8), json = Array(".json".utf8)
        static let structuredSuffixes = [".json", ".ndjson", ".jsonl", ".har", ".http"].map { Array($0.utf8) }
        static let configPrefixes = ["tsconfig.", "jsconfig."].map { Array($0.utf8) }
        static let configFiles = ["devcontainer.json", ".devcontainer.json", ".eslintrc.json"].map { Array($0.utf8) }
        static let configDirectories = ["/.vscode/", "/.devcontainer/"]
    }

    /// Configuration files whose tools read them as JSON with comments: TypeScript's and
    /// JavaScript's project files, VS Code's settings, dev containers, ESLint's legacy JSON.
    private static func isJSONCConfig(file: String, path: String) -> Bool {
        guard file.hasSuffix(".json") else { return false }
        return file.hasPrefix("tsconfig.") || file.hasPrefix("jsconfig.")
            || ["devcontainer.json", ".devcontainer.json", ".eslintrc.json"].contains(file)
            || ["/.vscode/", "/.devcontainer/"].contains { ("/" + path).contains($0) }
    }

    private static func isJSONCConfig(file: ArraySlice<UInt8>, path: ArraySlice<UInt8>) -> Bool {
        guard file.hasSuffix(Bytes.json) else { return false }
        return Bytes.configPrefixes.contains(where: file.hasPrefix) || Bytes.configFiles.contains { file.elementsEqual($0) }
            || Bytes.configDirectories.contains { ([UInt8(ascii: "/")] + path).containsBytes($0) }
    }
}

private extension ArraySlice<UInt8> {
    func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(endIndex - suffix.count)...].elementsEqual(suffix)
    }

    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self[..<(startIndex + prefix.count)].elementsEqual(prefix)
    }
}
