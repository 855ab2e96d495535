#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ignore files in force at one directory of a walk, as git and ripgrep read them: the
/// repository's `.git/info/exclude`, then `.gitignore` and `.ignore` of every directory from the
/// repository's root down (`.ignore` after `.gitignore`); a later pattern that matches decides.
/// Paths are relative to the walk's root; the files of directories above it (inside the same
/// repository) see them under the root's own path.
struct IgnoreStack {
    /// The patterns of one file, and where they are read from.
    private struct Layer {
        /// The file's directory relative to the walk's root ("" for the root), when it is the root
        /// or below it.
        var base: String?
        /// The walk's root relative to the file's directory, when the file is above the root.
        var rootFromBase: String?
        var patterns: [PathPattern]

        func path(of relative: String) -> String? {
            if let rootFromBase { return rootFromBase.isEmpty ? relative : rootFromBase + "/" + relative }
            guard let base else { return nil }
            if base.isEmpty { return relative }
            return relative.hasPrefix(base + "/") ? String(relative.dropFirst(base.count + 1)) : nil
        }
    }

    private var layers: [Layer] = []

    static let fileNames = [".gitignore", ".ignore"]

    /// The stack at the walk's root `root`: what the enclosing git repository (if any) says for
    /// the root and what lies above it. The root's own files are read by `entering`.
    static func at(root: String) -> IgnoreStack {
        guard let absolute = realPath(root) else { return IgnoreStack() }
        // The directories from the root up to the first that holds `.git`: outside a
        // repository, nothing above the root counts.
        var chain = [absolute]
        while !exists(chain[chain.count - 1] + "/.git") {
            guard let parent = parentDirectory(chain[chain.count - 1]) else { return IgnoreStack() }
            chain.append(parent)
        }
        let repository = chain[chain.count - 1]
        var stack = IgnoreStack()
        if let patterns = read(repository + "/.git/info/exclude") {
            stack.layers.append(Layer(base: nil, rootFromBase: relative(absolute, under: repository), patterns: patterns))
        }
        for directory in chain.dropFirst().reversed() {
            for name in fileNames {
                if let patterns = read(directory + "/" + name) {
                    stack.layers.append(Layer(base: nil, rootFromBase: relative(absolute, under: directory), patterns: patterns))
                }
            }
        }
        return stack
    }

    /// The stack inside `directory` (its path on disk), `relative` to the walk's root.
    func entering(_ directory: String, relative: String) -> IgnoreStack {
        var stack = self
        for name in IgnoreStack.fileNames {
            if let patterns = IgnoreStack.read(directory + "/" + name) {
                stack.layers.append(Layer(base: relative, rootFromBase: nil, patterns: patterns))
            }
        }
        return stack
    }

    /// Whether the last pattern that matches `relative` (a path under the walk's root) ignores it.
    func ignores(_ relative: String, isDirectory: Bool) -> Bool {
        var ignored = false
        for layer in layers {
            guard let path = layer.path(of: relative),
                  let verdict = PathPattern.lastVerdict(layer.patterns, path, isDirectory: isDirectory) else { continue }
            ignored = verdict
        }
        return ignored
    }

    /// The patterns of an ignore file; nil when there is none. A file that exists but cannot be
    /// read ignores nothing: more is scanned, never less.
    private static func read(_ path: String) -> [PathPattern]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { PathPattern(line: String($0)) }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func parentDirectory(_ path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` relative to its ancestor `directory` ("" for the directory itself).
    private static func relative(_ path: String, under directory: String) -> String {
        if path == directory { return "" }
        let prefix = directory == "/" ? "/" : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
