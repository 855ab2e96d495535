import Foundation

/// Files the tool reads whole for its own use (a baseline, rule files, the configuration, SARIF
/// logs to merge), with the system's reason when that fails: Foundation's
/// `FileManager.contents(atPath:)` answers nil and so "cannot read the baseline" could not say
/// why ("No such file or directory", "Permission denied").
public enum SystemFile {
    /// Why a file could not be read: the system's words (strerror), never the file's content.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The bytes of the file at `path`; a directory is a failure ("Is a directory").
    public static func read(_ path: String) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { return .failure(Failure(reason: String(cString: strerror(EISDIR)))) }
        return read(descriptor: fd)
    }

    /// The bytes of an open descriptor, read to its end.
    private static func read(descriptor fd: Int32) -> Result<[UInt8], Failure> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(reason: "read failed: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[0..<n]
        }
    }

    /// The system's reason inside an error Foundation threw for a file (its underlying POSIX
    /// error), else the error's own description.
    public static func reason(_ error: any Error) -> String {
        let underlying = (error as? CocoaError)?.underlying ?? (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
        if let posix = underlying.map({ $0 as NSError }), posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }
}
