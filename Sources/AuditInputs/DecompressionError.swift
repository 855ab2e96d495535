/// Why compressed data (gzip, deflate, Brotli, zstd) could not be decompressed. Messages name
/// the kind of problem, never the data.
public enum DecompressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the gzip magic `1F 8B`.
    case notGzip
    /// The library found invalid data, a bad header or a checksum mismatch; `detail` is its own
    /// description ("incorrect data check", "invalid block type").
    case corrupt(detail: String?)
    /// The data ends inside a member or frame.
    case truncated
    /// The output would pass `ratio` times the compressed size.
    case bomb(ratio: Int)
    /// The output would pass `limit` bytes.
    case tooLarge(limit: Int)
    /// zlib itself failed (out of memory, version mismatch).
    case zlib(code: Int32)
    /// The Brotli or zstd library failed (out of memory), in its own words.
    case library(String)

    public var description: String { message }

    /// True when the data was refused for its size, not for what it is.
    public var isLimit: Bool {
        switch self {
        case .bomb, .tooLarge: true
        default: false
        }
    }

    /// A one-line message for an input error.
    public var message: String { message(coding: "gzip") }

    /// A one-line message for an input error about data coded `coding` (gzip, deflate, brotli, zstd).
    public func message(coding: String) -> String {
        switch self {
        case .notGzip: "not gzip data (no 1F 8B magic)"
        case .corrupt(let detail): "corrupt \(coding) data" + (detail.map { " (\($0))" } ?? "")
        case .truncated: "truncated \(coding) stream"
        case .bomb(let ratio): "\(coding) bomb: decompresses beyond \(ratio)× its compressed size"
        case .tooLarge(let limit): "\(coding) data decompresses beyond \(limit) bytes"
        case .zlib(let code): "zlib failed (error \(code))"
        case .library(let message): "the \(coding) decoder failed (\(message))"
        }
    }
}

/// How much a decompressor may write: at most `maxOutput` bytes and `maxRatio` times the
/// compressed size, whichever is less, and the error that passing it is.
struct DecompressionLimit {
    let bytes: Int
    let error: DecompressionError

    init(inputCount: Int, maxOutput: Int, maxRatio: Int) {
        let (product, overflow) = inputCount.multipliedReportingOverflow(by: max(maxRatio, 1))
        let ratioLimit = overflow ? Int.max : product
        bytes = min(maxOutput, ratioLimit)
        error = ratioLimit < maxOutput ? .bomb(ratio: maxRatio) : .tooLarge(limit: maxOutput)
    }
}
