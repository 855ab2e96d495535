import AuditCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens an input as a `ByteWindow` that reads it in chunks.
///
/// Inputs are read rather than memory-mapped: a mapped file that shrinks under us turns into
/// SIGBUS, a crash; a read file that changes size is reported as an input error instead. Reading
/// in chunks also bounds memory by the largest token, for files and stdin alike.
public enum InputLoader {
    public static func open(_ item: InputItem) -> Result<ByteWindow, InputError> {
        switch item.source {
        case .standardInput:
            return .success(ByteWindow(descriptor: dup(0), expectedSize: nil))
        case .file(let path):
            // O_NONBLOCK keeps open() from waiting for a writer on a FIFO.
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return .failure(readError(item.name, "cannot open")) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return .failure(readError(item.name, "cannot stat"))
            }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                close(fd)
                return .failure(InputError(kind: .read, artifact: item.name, reason: "is a directory"))
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return .success(ByteWindow(descriptor: fd, expectedSize: type == S_IFREG ? Int(info.st_size) : nil))
        }
    }

    private static func readError(_ name: String, _ what: String) -> InputError {
        InputError(kind: .read, artifact: name, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
