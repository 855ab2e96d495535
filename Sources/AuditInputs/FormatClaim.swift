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

    /// Configuration files whose tools read them as JSON with comments: TypeScript's and
    /// JavaScript's project files, VS Code's settings, dev containers, ESLint's legacy JSON.
    private static func isJSONCConfig(file: String, path: String) -> Bool {
        guard file.hasSuffix(".json") else { return false }
        return file.hasPrefix("tsconfig.") || file.hasPrefix("jsconfig.")
            || ["devcontainer.json", ".devcontainer.json", ".eslintrc.json"].contains(file)
            || ["/.vscode/", "/.devcontainer/"].contains { ("/" + path).contains($0) }
    }
}
