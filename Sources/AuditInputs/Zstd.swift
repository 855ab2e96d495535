internal import CZstd

/// Zstandard (RFC 8878, HTTP's `zstd` coding), behind one wrapper (STYLE.md: a C library stays
/// behind one): the frame magic, bounded decompression and compression. No other file imports
/// CZstd.
public enum Zstd {
    /// The first bytes of a zstd frame (RFC 8878 §3.1.1).
    public static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    /// The largest window a frame may ask for: 8 MiB, what RFC 8878 §3.1.1.1.2 has a decoder of
    /// HTTP's `zstd` coding accept, so a frame's header cannot make the decoder allocate more.
    static let windowLogMax: Int32 = 23

    /// Whether `bytes` start with the frame magic and a frame header descriptor whose reserved
    /// bit is clear: what a random token that starts `KLUv/` (base64 of the magic) seldom has.
    public static func hasMagic<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.makeIterator()
        for byte in magic where i.next() != byte { return false }
        guard let descriptor = i.next() else { return false }
        return descriptor & 0x08 == 0
    }

    /// Decompresses zstd frames, one after another as a stream may hold them, bounded as
    /// `Inflation` bounds deflate data: it stops as soon as the output would pass `maxOutput`
    /// bytes or `maxRatio` times the input. Bytes after the last frame that start no frame are
    /// corrupt data.
    public static func decompress(_ bytes: UnsafeRawBufferPointer, maxOutput: Int, maxRatio: Int) -> Result<[UInt8], DecompressionError> {
        StreamDecompression.decode(bytes, with: Decompressor(), maxOutput: maxOutput, maxRatio: maxRatio)
    }

    /// A streaming decompressor of zstd frames, one after the other (a whole input read a chunk
    /// at a time, `DecompressingSource`), with the window bounded as `decompress` bounds it.
    final class Decompressor {
        private let context: OpaquePointer?
        private var input = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
        /// Nil when the decompressor is ready, else why the library could not set it up.
        let setupFailure: String?

        init() {
            context = ZSTD_createDCtx()
            if let context {
                let set = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Zstd.windowLogMax)
                setupFailure = ZSTD_isError(set) != 0 ? String(cString: ZSTD_getErrorName(set)) : nil
            } else {
                setupFailure = "out of memory"
            }
        }

        deinit {
            ZSTD_freeDCtx(context)
        }

        /// Input given and not consumed yet.
        var pendingInput: Int { input.size - input.pos }

        /// Gives the decompressor `count` bytes at `bytes`, which must stay valid until they are
        /// consumed.
        func setInput(_ bytes: UnsafeRawPointer, count: Int) {
            input = ZSTD_inBuffer(src: bytes, size: count, pos: 0)
        }

        /// Decompresses pending input into `output`: how many bytes it wrote, and whether a frame
        /// ended there (decoded whole and flushed), or the library's description of corrupt data.
        func decompress(into output: UnsafeMutableRawBufferPointer) -> Result<(produced: Int, frameEnded: Bool), DecompressionError> {
            var out = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let code = ZSTD_decompressStream(context, &out, &input)
            if ZSTD_isError(code) != 0 { return .failure(.corrupt(detail: String(cString: ZSTD_getErrorName(code)))) }
            return .success((out.pos, code == 0))
        }
    }

    /// `content` as one zstd frame at the library's default level, or nil when it fails.
    public static func compress(_ content: UnsafeRawBufferPointer) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(content.count))
        let size = output.withUnsafeMutableBytes { buffer in
            ZSTD_compress(buffer.baseAddress, buffer.count, content.baseAddress, content.count, ZSTD_CLEVEL_DEFAULT)
        }
        guard ZSTD_isError(size) == 0 else { return nil }
        output.removeSubrange(size...)
        return output
    }
}
