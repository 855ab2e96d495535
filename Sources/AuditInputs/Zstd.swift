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
        guard let context = ZSTD_createDCtx() else { return .failure(.library("out of memory")) }
        defer { ZSTD_freeDCtx(context) }
        let set = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, windowLogMax)
        if ZSTD_isError(set) != 0 { return .failure(.library(String(cString: ZSTD_getErrorName(set)))) }
        let bound = DecompressionLimit(inputCount: bytes.count, maxOutput: maxOutput, maxRatio: maxRatio)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
        // What the last call said: 0 when a frame was decoded whole and flushed.
        var pending = 1
        while input.pos < input.size || pending != 0 {
            let before = input.pos
            let (code, produced) = chunk.withUnsafeMutableBytes { buffer in
                var out = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                let code = ZSTD_decompressStream(context, &out, &input)
                return (code, out.pos)
            }
            if ZSTD_isError(code) != 0 { return .failure(.corrupt(detail: String(cString: ZSTD_getErrorName(code)))) }
            if produced > bound.bytes - output.count { return .failure(bound.error) }
            output.append(contentsOf: chunk[0..<produced])
            pending = code
            // No input left, nothing written with room to write: the frame stops mid-way.
            if pending != 0 && input.pos == input.size && input.pos == before && produced < chunk.count {
                return .failure(.truncated)
            }
        }
        return .success(output)
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
