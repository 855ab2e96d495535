@testable import AuditInputs
import Foundation
import Testing

/// Directory walks as ripgrep and gitleaks do them (issue 22): gitignore-syntax patterns, the
/// ignore files of the walked tree and of its repository, `--exclude` and `--include`, and a
/// file named on the command line always scanned.
@Suite struct DirectoryWalkTests {
    static func matches(_ pattern: String, _ path: String, directory: Bool = false) -> Bool {
        PathPattern(line: pattern)!.matches(path, isDirectory: directory)
    }

    @Test(arguments: [
        ("build/", "build", true, true), ("build/", "app/build", true, true), ("build/", "build", false, false),
        ("*.log", "a/b/c.log", false, true), ("*.log", "a/b/c.log.gz", false, false),
        ("/out", "out", true, true), ("/out", "src/out", true, false),
        ("doc/*.txt", "doc/a.txt", false, true), ("doc/*.txt", "doc/x/a.txt", false, false),
        ("doc/**/*.txt", "doc/x/y/a.txt", false, true), ("**/cache", "a/b/cache", true, true), ("**/cache", "cache", true, true),
        ("logs/**", "logs/a/b", false, true), ("a/**/b", "a/b", false, true),
        ("[ab].json", "a.json", false, true), ("[!ab].json", "a.json", false, false), ("[a-c]x", "bx", false, true),
        ("?.har", "x.har", false, true), ("?.har", "xy.har", false, false),
        ("\\#notes", "#notes", false, true), ("trailing\\ ", "trailing ", false, true),
    ])
    func gitignoreSyntax(_ pattern: String, _ path: String, _ directory: Bool, _ expected: Bool) {
        #expect(Self.matches(pattern, path, directory: directory) == expected, "\(pattern) on \(path)")
    }

    @Test func blankLinesAndCommentsAreNoPatterns() {
        #expect(PathPattern(line: "") == nil)
        #expect(PathPattern(line: "   ") == nil)
        #expect(PathPattern(line: "# a comment") == nil)
        #expect(PathPattern(line: "!keep.json")?.negated == true)
    }

    /// A tree: files written, directories made as needed.
    static func tree(_ files: [String: String]) -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
        }
        return root.path
    }

    static func walked(_ root: String, _ options: WalkOptions = WalkOptions()) -> [String] {
        InputCollector.collect([root], walk: options).items.map { $0.name.replacingOccurrences(of: root + "/", with: "") }
    }

    @Test func ignoreFilesOfTheTreeAreRead() {
        let root = Self.tree([
            ".gitignore": "build/\n*.log\n!keep.log\n", "lib/.ignore": "generated.json\n",
            "build/broken.json": "{", "a.log": "x", "keep.log": "x", "lib/a.json": "{}", "lib/generated.json": "{}",
            "lib/deep/build/x.json": "{}", "README.md": "#",
        ])
        #expect(Self.walked(root) == [".gitignore", "README.md", "keep.log", "lib/.ignore", "lib/a.json"])
        #expect(Self.walked(root, WalkOptions(useIgnoreFiles: false)).count == 9)
    }

    @Test func theRepositorysExcludeFileAndParentIgnoresCount() {
        let root = Self.tree([
            ".git/info/exclude": "*.secret.json\n", ".gitignore": "/app/tmp/\n",
            "app/a.json": "{}", "app/b.secret.json": "{}", "app/tmp/x.json": "{}",
        ])
        // Walked from a directory inside the repository: what the repository says above it counts.
        #expect(Self.walked(root + "/app").map { $0.replacingOccurrences(of: "app/", with: "") } == ["a.json"])
    }

    @Test func excludeAndIncludeGlobs() throws {
        let root = Self.tree(["a.json": "{}", "b.har": "{}", "fixtures/c.json": "{}", "fixtures/d.har": "{}"])
        let exclude = WalkOptions(exclude: [try #require(PathPattern(line: "fixtures/"))])
        #expect(Self.walked(root, exclude) == ["a.json", "b.har"])
        let include = WalkOptions(include: [try #require(PathPattern(line: "*.har"))])
        #expect(Self.walked(root, include) == ["b.har", "fixtures/d.har"])
    }

    /// A directory's files come in the byte order of their names (UTF-8), whatever order the
    /// file system lists them in: the same inputs, the same report.
    @Test func filesComeInTheByteOrderOfTheirNames() {
        let names = ["b.json", "B.json", "a-b.json", "a.b.json", "aa.json", "\u{E9}.json", "e\u{301}.json", "Z.json", "z.json"]
        // Written by hand: `tree`'s dictionary would take the two spellings of é for one key.
        let root = Self.tree([:])
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for name in names { #expect(FileManager.default.createFile(atPath: root + "/" + name, contents: Data("{}".utf8)), "\(name)") }
        let expected = ["B.json", "Z.json", "a-b.json", "a.b.json", "aa.json", "b.json", "e\u{301}.json", "z.json", "\u{E9}.json"]
        // Compared as bytes: `String` equality would take the two spellings of é for one.
        #expect(Self.walked(root).map { Array($0.utf8) } == expected.map { Array($0.utf8) })
    }

    /// A name as reports use it: no leading `./`, no doubled slash.
    @Test(arguments: [
        ("a/b.json", "a/b.json"), ("./a//b.json", "a/b.json"), ("a///b", "a/b"), ("./././x", "x"), ("", "."), ("./", "."),
        ("/abs//x/", "/abs/x/"), ("donn\u{E9}es//\u{E9}t\u{E9}.json", "donn\u{E9}es/\u{E9}t\u{E9}.json"), ("\u{E9}/", "\u{E9}/"),
    ])
    func namesAreNormalized(_ path: String, _ name: String) {
        #expect(Array(InputItem.normalizedName(path).utf8) == Array(name.utf8))
    }

    @Test func aFileNamedOnTheCommandLineIsAlwaysScanned() {
        let root = Self.tree([".gitignore": "*.json\n", "ignored.json": "{}"])
        #expect(Self.walked(root) == [".gitignore"])
        let named = InputCollector.collect([root + "/ignored.json"], walk: WalkOptions(exclude: [PathPattern(line: "*.json")!]))
        #expect(named.items.map(\.name) == [root + "/ignored.json"])
    }
}
