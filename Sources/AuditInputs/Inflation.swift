/// Inflates deflate data in one of zlib's wrappers (`Zlib.Wrapper`), bounded: the output may
/// not pass `maxOutput` bytes nor `maxRatio` times the input, and inflating stops as soon as it
/// would, so a bomb costs at most that much memory and time. Gzip data may be several members
/// one after the other (each one inflated); bytes after the end of the data (after the last
/// member) are ignored, as gzip(1) and browsers do.
enum Inflation {
    static func inflate(_ bytes: UnsafeRawBufferPointer, _ wrapper: Zlib.Wrapper, maxOutput: Int, maxRatio: Int) -> Result<[UInt8], DecompressionError> {
        guard let base = bytes.baseAddress else { return .failure(.truncated) }
        let bound = DecompressionLimit(inputCount: bytes.count, maxOutput: maxOutput, maxRatio: maxRatio)
        let limit = bound.bytes

        let inflater = Zlib.Inflater(wrapper)
        if let code = inflater.setupFailure { return .failure(.zlib(code: code)) }
        var position = 0  // input bytes zlib has consumed
        var output: [UInt8] = []
        // The size a gzip trailer declares (of the last member, modulo 2^32), within the limit:
        // one allocation of the right size instead of doublings that overshoot it.
        if wrapper == .gzip && bytes.count >= 18 {
            let declared = Int(bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self).littleEndian)
            output.reserveCapacity(min(declared, limit))
        }
        // What zlib writes into at a time: 64 KiB, but for small data (a body of tens of bytes)
        // 16 times its size, 4 KiB at least: zeroing 64 KiB for each small body was 13 % of a
        // scan of captured calls with gzip responses (BENCHMARKS.md, "mitmproxy's flow files").
        var chunk = [UInt8](repeating: 0, count: min(64 << 10, 16 * max(256, min(bytes.count, 4 << 10))))
        while true {
            if inflater.pendingInput == 0 && position < bytes.count {
                inflater.setInput(base + position, count: min(bytes.count - position, 1 << 30))
            }
            let availableBefore = inflater.pendingInput
            let (status, produced) = chunk.withUnsafeMutableBytes { inflater.inflate(into: $0) }
            position += availableBefore - inflater.pendingInput
            if produced > limit - output.count { return .failure(bound.error) }
            output.append(contentsOf: chunk[0..<produced])
            switch status {
            case .streamEnd:
                // Another gzip member follows, or the end (trailing bytes ignored).
                guard wrapper == .gzip, bytes.count - position >= 2, bytes[position] == 0x1F, bytes[position + 1] == 0x8B else {
                    return .success(output)
                }
                guard inflater.reset() else { return .failure(.zlib(code: Zlib.streamError)) }
            case .progress:
                // zlib wants more input while there is none: the stream stops mid-way.
                if produced < chunk.count && inflater.pendingInput == 0 && position == bytes.count { return .failure(.truncated) }
            case .noProgress:
                // No progress possible with room to write: the input ran out.
                if position == bytes.count { return .failure(.truncated) }
                return .failure(.corrupt(detail: nil))
            case .corrupt(let detail):
                return .failure(.corrupt(detail: detail))
            case .failure(let code):
                return .failure(.zlib(code: code))
            }
        }
    }
}
