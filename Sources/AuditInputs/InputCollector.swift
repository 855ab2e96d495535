import AuditCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a directory walk leaves out.
public struct WalkOptions: Sendable {
    /// Read `.gitignore`, `.ignore` and `.git/info/exclude` as git and ripgrep do (`--no-ignore`
    /// turns it off).
    public var useIgnoreFiles = true
    /// Paths under a walked directory that are left out (`--exclude`, the configuration's
    /// `paths.exclude`), relative to the directory given.
    public var exclude: [PathPattern] = []
    /// When not empty, only the files under a walked directory that match one of these are
    /// scanned (`--include`, `paths.include`).
    public var include: [PathPattern] = []

    public init(useIgnoreFiles: Bool = true, exclude: [PathPattern] = [], include: [PathPattern] = []) {
        self.useIgnoreFiles = useIgnoreFiles
        self.exclude = exclude
        self.include = include
    }

    /// Whether a path under a walked directory (relative to it) is left out by `exclude` or
    /// `include`.
    func leavesOut(_ relative: String, isDirectory: Bool) -> Bool {
        if PathPattern.lastVerdict(exclude, relative, isDirectory: isDirectory) == true { return true }
        return !isDirectory && !include.isEmpty && !include.contains { $0.matches(relative, isDirectory: false) }
    }
}

/// Expands the paths of a command line into inputs: files as given (always, whatever ignores
/// them), directories walked recursively in byte order of names (so the order never depends on
/// the file system), `-` for standard input. `.git` directories are not entered, nor what the
/// ignore files and `WalkOptions` leave out. Symbolic links are followed; a directory reached
/// twice is walked once, and a link back to a directory being walked (a loop) is an error. In a
/// walk, FIFOs, sockets and devices are errors (reading one could block or never end); named on
/// the command line they are read, like `<(zcat capture.har.gz)`.
public enum InputCollector {
    public static func collect(_ paths: [String], walk options: WalkOptions = WalkOptions()) -> (items: [InputItem], errors: [InputError]) {
        var items: [InputItem] = []
        var errors: [InputError] = []
        for path in paths {
            if path == "-" {
                items.append(.standardInput)
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(path), reason: "cannot open: \(String(cString: strerror(errno)))"))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, options: options, into: &items, errors: &errors)
            } else {
                items.append(.file(path))
            }
        }
        return (items, errors)
    }

    private static func walk(_ root: String, options: WalkOptions, into items: inout [InputItem], errors: inout [InputError]) {
        /// Directories walked so far, by identity, with the path they were walked under.
        var walked: [DirectoryIdentity: String] = [:]
        /// A directory to walk: its path, its path relative to the root, and the ignore files
        /// in force above it.
        var pending = [(directory: root, relative: "", ignores: options.useIgnoreFiles ? IgnoreStack.at(root: root) : nil)]
        while let (directory, relativeDirectory, ignoresAbove) = pending.popLast() {
            let ignores = ignoresAbove?.entering(directory, relative: relativeDirectory)
            var info = stat()
            if stat(directory, &info) == 0 {
                let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
                if let first = walked[identity] {
                    if directory.hasPrefix(first.hasSuffix("/") ? first : first + "/") {
                        errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(directory),
                                                 reason: "symbolic link loop: leads back to \(InputItem.normalizedName(first))"))
                    }
                    continue  // otherwise already walked under its first path
                }
                walked[identity] = directory
            }
            guard let handle = opendir(directory) else {
                errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(directory), reason: "cannot read the directory: \(String(cString: strerror(errno)))"))
                continue
            }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name == "." || name == ".." { continue }
                names.append(name)
            }
            closedir(handle)
            var subdirectories: [(directory: String, relative: String, ignores: IgnoreStack?)] = []
            // In byte order, each name's bytes taken once (not twice for every comparison).
            let ordered = names.map { (bytes: Array($0.utf8), name: $0) }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            for name in ordered.map(\.name) {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                let relative = relativeDirectory.isEmpty ? name : relativeDirectory + "/" + name
                var info = stat()
                // A dangling link or a link loop fails here, and is reported when it is opened.
                guard stat(path, &info) == 0 || lstat(path, &info) == 0 else {
                    errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(path), reason: "cannot open: \(String(cString: strerror(errno)))"))
                    continue
                }
                let isDirectory = info.st_mode & S_IFMT == S_IFDIR
                if ignores?.ignores(relative, isDirectory: isDirectory) == true || options.leavesOut(relative, isDirectory: isDirectory) {
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if name != ".git" { subdirectories.append((path, relative, ignores)) }
                case S_IFREG, S_IFLNK:
                    items.append(.file(path))
                default:
                    errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(path),
                                             reason: "not a regular file (a FIFO, socket or device): not read in a directory walk; name it to read it"))
                }
            }
            // Depth-first, in name order: push in reverse so the first name is walked first.
            pending.append(contentsOf: subdirectories.reversed())
        }
    }

    private struct DirectoryIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }
}
