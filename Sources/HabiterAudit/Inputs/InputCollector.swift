#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands the paths of a command line into inputs: files as given, directories walked
/// recursively in byte order of names (so the order never depends on the file system), `-` for
/// standard input. `.git` directories are not entered; symbolic links to directories are not
/// followed (no cycles), symbolic links to files are scanned.
public enum InputCollector {
    public static func collect(_ paths: [String]) -> (items: [InputItem], errors: [InputError]) {
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
                walk(path, into: &items, errors: &errors)
            } else {
                items.append(.file(path))
            }
        }
        return (items, errors)
    }

    private static func walk(_ root: String, into items: inout [InputItem], errors: inout [InputError]) {
        var pending = [root]
        while let directory = pending.popLast() {
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
            var subdirectories: [String] = []
            for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    errors.append(InputError(kind: .read, artifact: InputItem.normalizedName(path), reason: "cannot open: \(String(cString: strerror(errno)))"))
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if name != ".git" { subdirectories.append(path) }
                case S_IFLNK:
                    var target = stat()
                    if stat(path, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR { continue }
                    items.append(.file(path))
                default:
                    items.append(.file(path))
                }
            }
            // Depth-first, in name order: push in reverse so the first name is walked first.
            pending.append(contentsOf: subdirectories.reversed())
        }
    }
}
