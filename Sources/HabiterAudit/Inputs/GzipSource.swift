internal import CZlib

/// Inflates a gzip stream read from another source (`inflate`, zlib), so that a `.gz` capture
/// is scanned like the capture itself, streaming. Concatenated gzip members are one stream.
/// Fails, rather than feeding readers garbage, on corrupt or truncated data and on a
/// decompression ratio above `maxRatio` (a gzip bomb).
final class GzipSource: ByteSource {
    /// Output beyond this many times the input read so far is a bomb, not a capture.
    static let defaultMaxRatio = 200

    private var inner: any ByteSource
    private var stream = z_stream()
    private let input: UnsafeMutableRawPointer
    private let inputCapacity = 256 * 1024
    private var innerEnded = false
    private var finished = false
    /// Between two members: the input may end here.
    private var atMemberBoundary = false
    private var totalIn = 0
    private var totalOut = 0
    private let maxRatio: Int

    init(inner: any ByteSource, maxRatio: Int = GzipSource.defaultMaxRatio) {
        self.inner = inner
        self.maxRatio = maxRatio
        input = .allocate(byteCount: inputCapacity, alignment: 16)
        // windowBits 15 + 16: gzip framing only.
        _ = inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        if finished { return .end }
        while true {
            if stream.avail_in == 0 && !innerEnded {
                switch inner.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity)) {
                case .bytes(let n):
                    stream.next_in = input.assumingMemoryBound(to: Bytef.self)
                    stream.avail_in = uInt(n)
                    totalIn += n
                case .end:
                    innerEnded = true
                    if atMemberBoundary {
                        finished = true
                        return .end
                    }
                case .failure(let reason):
                    return .failure(reason)
                }
            }
            // zlib counts in 32 bits; a window grown past 4 GiB by one huge token is filled in parts.
            let room = min(buffer.count, Int(uInt.max))
            stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(room)
            let rc = inflate(&stream, Z_NO_FLUSH)
            let produced = room - Int(stream.avail_out)
            totalOut += produced
            if totalOut > maxRatio * max(totalIn, 4096) {
                return .failure("gzip bomb: the data decompresses to more than \(maxRatio)× its size")
            }
            switch rc {
            case Z_STREAM_END:
                if stream.avail_in > 0 || !innerEnded {
                    // Another member may follow.
                    inflateReset(&stream)
                    atMemberBoundary = true
                } else {
                    finished = true
                }
            case Z_OK:
                atMemberBoundary = false
            case Z_BUF_ERROR where produced == 0 && innerEnded && stream.avail_in == 0:
                return .failure("truncated gzip stream")
            case Z_BUF_ERROR:
                break
            default:
                return .failure("corrupt gzip data")
            }
            if produced > 0 { return .bytes(produced) }
            if finished { return .end }
            if innerEnded && stream.avail_in == 0 {
                // The input ended inside a member.
                return .failure("truncated gzip stream")
            }
        }
    }
}
