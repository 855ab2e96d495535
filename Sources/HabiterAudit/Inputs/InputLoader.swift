#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input completely into memory.
///
/// Regular files are read with the size `fstat` reports and checked again afterwards: a file that
/// changes while it is read is an error, not a partial scan. (A memory mapping would turn a file
/// that shrinks under us into SIGBUS, a crash; reading costs one copy at memory speed.)
public enum InputLoader {
    public static func load(_ item: InputItem) -> Result<InputBytes, InputError> {
        switch item.source {
        case .standardInput:
            return readStream(0, name: item.name)
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return .failure(readError(item.name, "cannot open")) }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { return .failure(readError(item.name, "cannot stat")) }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { return .failure(InputError(kind: .read, artifact: item.name, reason: "is a directory")) }
            // Blocking reads from here on (O_NONBLOCK only kept open() from waiting on a FIFO).
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            if type != S_IFREG { return readStream(fd, name: item.name) }
            return readFile(fd, size: Int(info.st_size), name: item.name)
        }
    }

    private static func readError(_ name: String, _ what: String) -> InputError {
        InputError(kind: .read, artifact: name, reason: "\(what): \(String(cString: strerror(errno)))")
    }

    private static func readFile(_ fd: Int32, size: Int, name: String) -> Result<InputBytes, InputError> {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
        var done = 0
        while done < size {
            let n = read(fd, memory + done, min(size - done, 1 << 30))
            if n < 0 {
                if errno == EINTR { continue }
                memory.deallocate()
                return .failure(readError(name, "read failed"))
            }
            if n == 0 { break }
            done += n
        }
        var probe: UInt8 = 0
        let extra = read(fd, &probe, 1)
        if done != size || extra > 0 {
            memory.deallocate()
            return .failure(InputError(kind: .read, artifact: name, reason: "the file changed size while it was read"))
        }
        return .success(InputBytes(adopting: memory, count: size))
    }

    private static func readStream(_ fd: Int32, name: String) -> Result<InputBytes, InputError> {
        var capacity = 1 << 20
        var memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var count = 0
        while true {
            if count == capacity {
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: memory, byteCount: count)
                memory.deallocate()
                memory = bigger
                capacity *= 2
            }
            let n = read(fd, memory + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                memory.deallocate()
                return .failure(readError(name, "read failed"))
            }
            if n == 0 { break }
            count += n
        }
        return .success(InputBytes(adopting: memory, count: count))
    }
}
