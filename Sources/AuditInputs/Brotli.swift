internal import CBrotli

/// Brotli (RFC 7932, HTTP's `br` coding), behind one wrapper (STYLE.md: a C library stays behind
/// one): bounded decompression and compression. No other file imports CBrotli.
public enum Brotli {
    /// Decompresses one Brotli stream, bounded as `Inflation` bounds deflate data: it stops as
    /// soon as the output would pass `maxOutput` bytes or `maxRatio` times the input. Bytes after
    /// the end of the stream are corrupt data (a Brotli stream has no members to concatenate).
    public static func decompress(_ bytes: UnsafeRawBufferPointer, maxOutput: Int, maxRatio: Int) -> Result<[UInt8], DecompressionError> {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return .failure(.library("out of memory")) }
        defer { BrotliDecoderDestroyInstance(state) }
        let bound = DecompressionLimit(inputCount: bytes.count, maxOutput: maxOutput, maxRatio: maxRatio)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var availableIn = bytes.count
        var nextIn = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        while true {
            let (result, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                var availableOut = buffer.count
                var nextOut = buffer.baseAddress
                let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                return (result, buffer.count - availableOut)
            }
            if produced > bound.bytes - output.count { return .failure(bound.error) }
            output.append(contentsOf: chunk[0..<produced])
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS:
                return availableIn == 0 ? .success(output) : .failure(.corrupt(detail: "bytes after the end of the stream"))
            case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                continue
            case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                return .failure(.truncated)
            default:
                let code = BrotliDecoderGetErrorCode(state)
                // The `_ERROR_ALLOC_` codes, -21 to -30: the library, not the data.
                if (BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES.rawValue...BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES.rawValue).contains(code.rawValue) {
                    return .failure(.library("out of memory"))
                }
                return .failure(.corrupt(detail: BrotliDecoderErrorString(code).map { String(cString: $0) }))
            }
        }
    }

    /// `content` compressed at quality 6 (what servers use for responses made on the fly; the
    /// default, 11, is for files compressed once), or nil when the library fails.
    public static func compress(_ content: UnsafeRawBufferPointer) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(content.count)
        guard size > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: size)
        let done = output.withUnsafeMutableBufferPointer { buffer in
            BrotliEncoderCompress(6, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, content.count,
                                  content.baseAddress?.assumingMemoryBound(to: UInt8.self), &size, buffer.baseAddress)
        }
        guard done == BROTLI_TRUE else { return nil }
        output.removeSubrange(size...)
        return output
    }
}
