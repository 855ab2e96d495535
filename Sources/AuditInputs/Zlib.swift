internal import CZlib

/// zlib, behind one wrapper (STYLE.md: a C library stays behind one): the streams below, and
/// CRC-32. No other file imports CZlib.
public enum Zlib {
    /// CRC-32 (ISO 3309, the gzip trailer's and GitHub's token checksum), as zlib computes it.
    /// `continuing` is the CRC of the bytes before `bytes`, for data checked as it streams.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = UInt(previous)
        var rest = bytes
        // zlib counts in 32 bits.
        repeat {
            let n = min(rest.count, Int(UInt32.max))
            crc = CZlib.crc32(crc, rest.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(n))
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        } while !rest.isEmpty
        return UInt32(truncatingIfNeeded: crc)
    }

    /// zlib's code for a stream it cannot go on with (`Z_STREAM_ERROR`).
    static let streamError = Z_STREAM_ERROR

    /// What one `inflate` or `deflate` call said.
    enum Status: Equatable {
        /// Progress; more may follow (`Z_OK`).
        case progress
        /// The end of a gzip member or of the deflate stream (`Z_STREAM_END`).
        case streamEnd
        /// No progress was possible: more input or more room is needed (`Z_BUF_ERROR`).
        case noProgress
        /// Invalid data (`Z_DATA_ERROR`, `Z_NEED_DICT`), with zlib's description.
        case corrupt(String?)
        /// zlib itself failed (out of memory, version mismatch, a misused stream).
        case failure(code: Int32)

        init(_ code: Int32, message: UnsafePointer<CChar>?) {
            switch code {
            case Z_OK: self = .progress
            case Z_STREAM_END: self = .streamEnd
            case Z_BUF_ERROR: self = .noProgress
            case Z_DATA_ERROR, Z_NEED_DICT: self = .corrupt(message.map { String(cString: $0) })
            default: self = .failure(code: code)
            }
        }
    }

    /// How deflate data is wrapped: in gzip members (RFC 1952), in the zlib format (RFC 1950,
    /// HTTP's `deflate` coding), or not at all (raw deflate, RFC 1951).
    public enum Wrapper: Sendable {
        case gzip, zlib, raw

        /// zlib's window bits for the wrapper: the largest window, and the wrapper it says.
        var windowBits: Int32 {
            switch self {
            case .gzip: 16 + 15
            case .zlib: 15
            case .raw: -15
            }
        }
    }

    /// An inflate stream of data in one wrapper.
    final class Inflater {
        private var stream = z_stream()
        /// Nil when the stream is ready, else why zlib could not set it up.
        let setupFailure: Int32?

        init(_ wrapper: Wrapper) {
            let status = inflateInit2_(&stream, wrapper.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            setupFailure = status == Z_OK ? nil : status
        }

        deinit {
            if setupFailure == nil { inflateEnd(&stream) }
        }

        /// Input given and not consumed yet.
        var pendingInput: Int { Int(stream.avail_in) }

        /// Gives the stream `count` bytes at `bytes` (at most 2^32 − 1: zlib counts in 32 bits),
        /// which must stay valid until they are consumed.
        func setInput(_ bytes: UnsafeRawPointer, count: Int) {
            stream.next_in = UnsafeMutablePointer(mutating: bytes.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(min(count, Int(uInt.max)))
        }

        /// Inflates pending input into `output` (at most 2^32 − 1 bytes of it are used); returns
        /// what zlib said and how many bytes it wrote.
        func inflate(into output: UnsafeMutableRawBufferPointer) -> (status: Status, produced: Int) {
            let room = min(output.count, Int(uInt.max))
            stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(room)
            let code = CZlib.inflate(&stream, Z_NO_FLUSH)
            return (Status(code, message: stream.msg), room - Int(stream.avail_out))
        }

        /// Readies the stream for the next member; false when zlib cannot.
        func reset() -> Bool {
            inflateReset(&stream) == Z_OK
        }
    }

    /// A deflate stream at the best compression, in a wrapper: raw for a gzip member whose
    /// header is written separately, zlib for HTTP's `deflate` coding.
    public final class Deflater {
        private var stream = z_stream()
        private var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let isReady: Bool

        public init(_ wrapper: Wrapper, level: Int32 = 9) {
            isReady = deflateInit2_(&stream, level, Z_DEFLATED, wrapper.windowBits, 8, Z_DEFAULT_STRATEGY,
                                    ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        }

        deinit {
            if isReady { deflateEnd(&stream) }
        }

        /// Compresses `input` onto `output`; `final` ends the stream. False when zlib fails.
        public func compress(_ input: UnsafeRawBufferPointer, final: Bool, onto output: inout [UInt8]) -> Bool {
            guard isReady else { return false }
            var rest = input
            while true {
                let n = min(rest.count, Int(uInt.max))
                stream.next_in = UnsafeMutablePointer(mutating: rest.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(n)
                let last = final && n == rest.count
                // Until the input is taken (and, at the end, until the stream ends).
                repeat {
                    let code = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(buffer.count)
                        return deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                    }
                    guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else { return false }
                    let produced = chunk.count - Int(stream.avail_out)
                    output.append(contentsOf: chunk[0..<produced])
                    if code == Z_STREAM_END { return true }
                    if code == Z_BUF_ERROR && produced == 0 { return !last }
                } while stream.avail_out == 0 || last
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                if rest.isEmpty { return true }
            }
        }
    }
}
