/// Inflates a gzip stream read from another source (`inflate`, zlib), so that a `.gz` capture
/// is scanned like the capture itself, streaming. Concatenated gzip members are one stream.
/// Fails, rather than feeding readers garbage, on corrupt or truncated data and on a
/// decompression ratio above `maxRatio` (a gzip bomb).
final class GzipSource: ByteSource {
    /// Output beyond this many times the input read so far is a bomb, not a capture.
    static let defaultMaxRatio = 200

    private var inner: any ByteSource
    private let inflater = Zlib.Inflater(.gzip)
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
    }

    deinit {
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        if finished { return .end }
        if let code = inflater.setupFailure { return .failure("zlib failed (error \(code))") }
        while true {
            if inflater.pendingInput == 0 && !innerEnded {
                switch inner.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity)) {
                case .bytes(let n):
                    inflater.setInput(input, count: n)
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
            let (status, produced) = inflater.inflate(into: buffer)
            totalOut += produced
            if totalOut > maxRatio * max(totalIn, 4096) {
                return .failure("gzip bomb: the data decompresses to more than \(maxRatio)× its size")
            }
            switch status {
            case .streamEnd:
                if inflater.pendingInput > 0 || !innerEnded {
                    // Another member may follow.
                    guard inflater.reset() else { return .failure("zlib failed to start the next gzip member") }
                    atMemberBoundary = true
                } else {
                    finished = true
                }
            case .progress:
                atMemberBoundary = false
            case .noProgress where produced == 0 && innerEnded && inflater.pendingInput == 0:
                return .failure("truncated gzip stream")
            case .noProgress:
                break
            case .corrupt, .failure:
                return .failure("corrupt gzip data")
            }
            if produced > 0 { return .bytes(produced) }
            if finished { return .end }
            if innerEnded && inflater.pendingInput == 0 {
                // The input ended inside a member.
                return .failure("truncated gzip stream")
            }
        }
    }
}
