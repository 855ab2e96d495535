/// Decompresses an input read from another source, so that a compressed capture (`.har.gz`,
/// mitmproxy's zlib `.zhar`, `.har.zst`, a rotated `.ndjson.xz` or `.bz2`) is scanned like the
/// capture itself, streaming; and a ZIP member's data. Gzip members, zstd frames, and xz and
/// bzip2 streams one after another are one stream; after a zlib stream (or a ZIP member's
/// deflate data) nothing may follow. Fails, rather than feeding readers garbage, on corrupt or
/// truncated data and on a decompression ratio above `maxRatio` (a bomb); a zstd frame's window
/// is at most 8 MiB, an xz stream's decoder at most 80 MiB.
package final class DecompressingSource: ByteSource {
    /// Output beyond this many times the input read so far is a bomb, not a capture.
    package static let defaultMaxRatio = 200

    private var inner: any ByteSource
    /// The coding's name in messages (`gzip`, `deflate`, `zstd`, `xz`, `bzip2`).
    private let name: String
    /// Gzip members, zstd frames, xz and bzip2 streams may follow one another; a zlib stream is one.
    private let allowsMembers: Bool
    private let decompressor: any StreamDecompressor
    private let input: UnsafeMutableRawPointer
    private let inputCapacity = 256 * 1024
    private var innerEnded = false
    private var finished = false
    /// Between two members or frames: the input may end here.
    private var atMemberBoundary = false
    /// The zlib stream has ended: only the input's end may come.
    private var streamClosed = false
    private var totalIn = 0
    private var totalOut = 0
    private let maxRatio: Int
    /// Corrupt data met after bytes that were handed out first.
    private var pendingFailure: String?
    /// Decompressed bytes not handed out yet: `output[handedOut..<outputCount]`.
    private let output: UnsafeMutableRawPointer
    private let outputCapacity = 64 * 1024
    private var outputCount = 0
    private var handedOut = 0

    /// `coding` is gzip, deflate (the zlib format), zstd, xz or bzip2: the codings an input is
    /// known by.
    convenience init(inner: any ByteSource, coding: ContentCoding, maxRatio: Int = DecompressingSource.defaultMaxRatio) {
        self.init(inner: inner, decompressor: StreamDecompression.decompressor(for: coding), name: coding.layerName,
                  allowsMembers: coding != .deflate, maxRatio: maxRatio)
    }

    /// `decompressor` undoes what `inner` reads; `name` names the data in messages;
    /// `allowsMembers` lets streams follow one another (else only the end may follow the first).
    init(inner: any ByteSource, decompressor: any StreamDecompressor, name: String, allowsMembers: Bool,
         maxRatio: Int = DecompressingSource.defaultMaxRatio) {
        self.inner = inner
        self.maxRatio = maxRatio
        self.name = name
        self.allowsMembers = allowsMembers
        self.decompressor = decompressor
        input = .allocate(byteCount: inputCapacity, alignment: 16)
        output = .allocate(byteCount: outputCapacity, alignment: 16)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        if handedOut == outputCount {
            switch decompressNext() {
            case .bytes(let n): (outputCount, handedOut) = (n, 0)
            case let other: return other
            }
        }
        let n = min(buffer.count, outputCount - handedOut)
        buffer.copyMemory(from: UnsafeRawBufferPointer(start: output + handedOut, count: n))
        handedOut += n
        return .bytes(n)
    }

    /// Decompresses the next bytes into `output`, whatever the size of the reader's buffer, so
    /// that what corrupt data gives before its error does not depend on how the input is read
    /// (libbz2 does not count what it wrote in a step that meets corrupt data).
    private func decompressNext() -> ByteSourceResult {
        if let pendingFailure {
            finished = true
            self.pendingFailure = nil
            return .failure(pendingFailure)
        }
        if finished { return .end }
        if let problem = decompressor.setupProblem { return .failure("the \(name) decoder failed (\(problem))") }
        while true {
            if decompressor.pendingInput == 0 && !innerEnded {
                switch inner.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity)) {
                case .bytes(let n):
                    if streamClosed && n > 0 { return .failure("data after the end of the \(name) stream") }
                    decompressor.setInput(input, count: n)
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
            let pendingBefore = decompressor.pendingInput
            // zlib counts in 32 bits; a window grown past 4 GiB by one huge token is filled in parts.
            let (status, produced) = decompressor.step(into: UnsafeMutableRawBufferPointer(start: output, count: outputCapacity))
            totalOut += produced
            if totalOut > maxRatio * max(totalIn, 4096) {
                return .failure("\(name) bomb: the data decompresses to more than \(maxRatio)× its size")
            }
            switch status {
            case .streamEnd where decompressor.pendingInput == 0 && innerEnded:
                finished = true
            case .streamEnd:
                // Another member or frame may follow, or (after a zlib stream) only the end.
                if !allowsMembers {
                    if decompressor.pendingInput > 0 { return .failure("data after the end of the \(name) stream") }
                    streamClosed = true
                }
                guard decompressor.reset() else { return .failure("the \(name) decoder failed to start the next member") }
                atMemberBoundary = true
            case .progress:
                if produced > 0 || decompressor.pendingInput != pendingBefore { atMemberBoundary = false }
            case .corrupt(let detail):
                // What the data held before the damage is read first, however the input was cut.
                let failure = "corrupt \(name) data" + (detail.map { " (\($0))" } ?? "")
                guard produced > 0 else { return .failure(failure) }
                pendingFailure = failure
                return .bytes(produced)
            }
            if produced > 0 { return .bytes(produced) }
            if finished { return .end }
            if innerEnded && decompressor.pendingInput == 0 {
                // The input ended inside a member or frame.
                return .failure("truncated \(name) stream")
            }
        }
    }
}

/// A streaming decompressor as `DecompressingSource` drives it: zlib's inflater, zstd's, xz's,
/// bzip2's.
protocol StreamDecompressor: AnyObject {
    /// Nil when the decompressor is ready, else why it could not be set up.
    var setupProblem: String? { get }
    var pendingInput: Int { get }
    func setInput(_ bytes: UnsafeRawPointer, count: Int)
    /// Decompresses pending input into `buffer`; what happened and how many bytes it wrote.
    func step(into buffer: UnsafeMutableRawBufferPointer) -> (status: StreamStatus, produced: Int)
    /// Readies the decompressor for the next member or frame; false when it cannot.
    func reset() -> Bool
}

/// One step of a `StreamDecompressor`.
enum StreamStatus {
    /// Progress, or none possible until more input comes.
    case progress
    /// The end of a gzip member, the zlib stream or a zstd frame.
    case streamEnd
    /// Invalid data, with the library's description.
    case corrupt(String?)
}

extension Zlib.Inflater: StreamDecompressor {
    var setupProblem: String? { setupFailure.map { "zlib error \($0)" } }

    func step(into buffer: UnsafeMutableRawBufferPointer) -> (status: StreamStatus, produced: Int) {
        let (status, produced) = inflate(into: buffer)
        switch status {
        case .streamEnd: return (.streamEnd, produced)
        case .progress, .noProgress: return (.progress, produced)
        case .corrupt(let detail): return (.corrupt(detail), produced)
        case .failure(let code): return (.corrupt("zlib error \(code)"), produced)
        }
    }
}

extension Zstd.Decompressor: StreamDecompressor {
    var setupProblem: String? { setupFailure }

    func step(into buffer: UnsafeMutableRawBufferPointer) -> (status: StreamStatus, produced: Int) {
        switch decompress(into: buffer) {
        case .success(let (produced, frameEnded)): (frameEnded ? .streamEnd : .progress, produced)
        case .failure(.corrupt(let detail)): (.corrupt(detail), 0)
        case .failure(let error): (.corrupt(error.message(coding: "zstd")), 0)
        }
    }

    /// The next frame begins with its own header: nothing to reset.
    func reset() -> Bool { true }
}

extension Xz.Decompressor: StreamDecompressor {
    var setupProblem: String? { setupFailure }
}

extension Bzip2.Decompressor: StreamDecompressor {
    var setupProblem: String? { setupFailure }
}

/// Decompression by a `StreamDecompressor`: the decompressor of each coding an input is known
/// by, and data held whole decompressed by one (zstd, xz and bzip2 data).
enum StreamDecompression {
    /// A decompressor of an input compressed whole in `coding` (not Brotli: no input is known by it).
    static func decompressor(for coding: ContentCoding) -> any StreamDecompressor {
        switch coding {
        case .gzip: Zlib.Inflater(.gzip)
        case .deflate: Zlib.Inflater(.zlib)
        case .zstd: Zstd.Decompressor()
        case .xz: Xz.Decompressor()
        case .bzip2: Bzip2.Decompressor()
        case .brotli: preconditionFailure("Brotli has no signature to know an input by")
        }
    }

    /// All of `bytes`, streams one after another, decompressed by `decompressor`: at most
    /// `maxOutput` bytes and `maxRatio` times the input.
    static func decode(_ bytes: UnsafeRawBufferPointer, with decompressor: some StreamDecompressor, maxOutput: Int,
                       maxRatio: Int) -> Result<[UInt8], DecompressionError> {
        if let problem = decompressor.setupProblem { return .failure(.library(problem)) }
        if let base = bytes.baseAddress { decompressor.setInput(base, count: bytes.count) }
        let bound = DecompressionLimit(inputCount: bytes.count, maxOutput: maxOutput, maxRatio: maxRatio)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let pendingBefore = decompressor.pendingInput
            let (status, produced) = chunk.withUnsafeMutableBytes { decompressor.step(into: $0) }
            if produced > bound.bytes - output.count { return .failure(bound.error) }
            output.append(contentsOf: chunk[0..<produced])
            switch status {
            case .corrupt(let detail):
                return .failure(.corrupt(detail: detail))
            case .streamEnd:
                if decompressor.pendingInput == 0 { return .success(output) }
                guard decompressor.reset() else { return .failure(.library(decompressor.setupProblem ?? "the decoder did not restart")) }
            case .progress:
                if produced == 0 && decompressor.pendingInput == pendingBefore { return .failure(.truncated) }
            }
        }
    }
}
