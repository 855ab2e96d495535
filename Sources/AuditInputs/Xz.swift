internal import CLzma

/// The .xz format (XZ Utils' `xz`, `logrotate`'s `compresscmd xz`), behind one wrapper
/// (STYLE.md: a C library stays behind one): the stream magic, a streaming decoder bounded in
/// memory, and compression. Only inputs compressed whole come in it. No other file imports CLzma.
public enum Xz {
    /// The first bytes of an .xz stream (the .xz file format, 2.1.1.1).
    public static let magic: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]

    /// The most memory the decoder may take: 80 MiB, enough for every preset of `xz` (`-9`'s 64
    /// MiB dictionary takes 65 MiB to decode), so that a stream's header cannot make the decoder
    /// allocate more (a dictionary of up to 1.5 GiB can be asked for).
    static let memoryLimit: UInt64 = 80 << 20

    /// A streaming decoder of .xz streams, one after the other (`DecompressingSource`).
    final class Decompressor {
        private let stream: UnsafeMutablePointer<lzma_stream>
        /// Nil when the decoder is ready, else why the library could not set it up.
        private(set) var setupFailure: String?

        init() {
            stream = .allocate(capacity: 1)
            stream.initialize(to: lzma_stream())
            setupFailure = Self.start(stream)
        }

        deinit {
            lzma_end(stream)
            stream.deallocate()
        }

        /// Starts a decoder for one stream on `stream`; why it could not, if it could not.
        private static func start(_ stream: UnsafeMutablePointer<lzma_stream>) -> String? {
            lzma_stream_decoder(stream, Xz.memoryLimit, 0) == LZMA_OK ? nil : "liblzma could not start a decoder"
        }

        var pendingInput: Int { stream.pointee.avail_in }

        /// Gives the decoder `count` bytes at `bytes`, which must stay valid until they are consumed.
        func setInput(_ bytes: UnsafeRawPointer, count: Int) {
            stream.pointee.next_in = bytes.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_in = count
        }

        func step(into buffer: UnsafeMutableRawBufferPointer) -> (status: StreamStatus, produced: Int) {
            stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = buffer.count
            let code = lzma_code(stream, LZMA_RUN)
            let produced = buffer.count - stream.pointee.avail_out
            switch code {
            case LZMA_OK, LZMA_BUF_ERROR: return (.progress, produced)
            case LZMA_STREAM_END: return (.streamEnd, produced)
            case LZMA_MEMLIMIT_ERROR: return (.corrupt("it needs more than \(Xz.memoryLimit >> 20) MiB of memory to decompress"), produced)
            case LZMA_FORMAT_ERROR: return (.corrupt("not an .xz stream"), produced)
            case LZMA_OPTIONS_ERROR: return (.corrupt("unsupported options"), produced)
            case LZMA_DATA_ERROR: return (.corrupt("corrupt data"), produced)
            case LZMA_MEM_ERROR: return (.corrupt("out of memory"), produced)
            default: return (.corrupt("liblzma error \(code.rawValue)"), produced)
            }
        }

        /// Readies the decoder for the next stream, the input given still pending.
        func reset() -> Bool {
            setupFailure = Self.start(stream)
            return setupFailure == nil
        }
    }

    /// `content` as one .xz stream at `xz`'s default preset (6) with a CRC64 check, or nil when
    /// it fails.
    public static func compress(_ content: UnsafeRawBufferPointer) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: lzma_stream_buffer_bound(content.count))
        var written = 0
        let code = output.withUnsafeMutableBytes { buffer in
            lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nil, content.baseAddress?.assumingMemoryBound(to: UInt8.self), content.count,
                                    buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, buffer.count)
        }
        guard code == LZMA_OK else { return nil }
        output.removeSubrange(written...)
        return output
    }
}
