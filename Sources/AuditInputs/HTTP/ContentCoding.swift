/// A content coding HTTP names (RFC 9110 §8.4.1) that the scan can undo: a raw HTTP body's
/// `Content-Encoding` (or a `Transfer-Encoding` under chunked), and a HAR response stored still
/// compressed; and xz and bzip2, which only inputs compressed whole come in. Named in paths as
/// its layer is (`!gzip`, `!deflate`, `!brotli`, `!zstd`, `!xz`, `!bzip2`).
public enum ContentCoding: Sendable, Equatable {
    case gzip, deflate, brotli, zstd
    /// Not HTTP codings: only an input compressed whole comes in them (`FormatDetector`).
    case xz, bzip2

    /// The coding a token names (lowercased), nil for `identity` and codings the scan cannot undo.
    public init?(token: String) {
        switch token {
        case "gzip", "x-gzip": self = .gzip
        case "deflate": self = .deflate
        case "br": self = .brotli
        case "zstd": self = .zstd
        default: return nil
        }
    }

    /// The codings of a comma-separated list (`Content-Encoding: gzip, br`), lowercased, empty
    /// elements skipped.
    public static func tokens(in value: UnsafeRawBufferPointer) -> [String] {
        value.split(separator: UInt8(ascii: ",")).compactMap { coding in
            let trimmed = coding.drop(while: HTTPFraming.isBlank).reversed().drop(while: HTTPFraming.isBlank).reversed()
            return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self).lowercased()
        }
    }

    /// The name of its layer in paths, and of the layer decoder that opens it where there is one.
    public var layerName: String {
        switch self {
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .brotli: "brotli"
        case .zstd: "zstd"
        case .xz: "xz"
        case .bzip2: "bzip2"
        }
    }

    /// Undoes the coding, bounded as every decompression of a value is
    /// (`GzipLayerDecoder.maxOutput`, `maxRatio`).
    public func decode(_ bytes: UnsafeRawBufferPointer) -> Result<[UInt8], DecompressionError> {
        decode(bytes, maxOutput: GzipLayerDecoder.maxOutput, maxRatio: GzipLayerDecoder.maxRatio)
    }

    /// Undoes the coding: at most `maxOutput` bytes, and `maxRatio` times the compressed size.
    public func decode(_ bytes: UnsafeRawBufferPointer, maxOutput: Int, maxRatio: Int) -> Result<[UInt8], DecompressionError> {
        switch self {
        case .gzip: GzipLayerDecoder.inflate(bytes, maxOutput: maxOutput, maxRatio: maxRatio)
        case .deflate: DeflateLayerDecoder.inflate(bytes, maxOutput: maxOutput, maxRatio: maxRatio)
        case .brotli: Brotli.decompress(bytes, maxOutput: maxOutput, maxRatio: maxRatio)
        case .zstd: Zstd.decompress(bytes, maxOutput: maxOutput, maxRatio: maxRatio)
        case .xz: StreamDecompression.decode(bytes, with: Xz.Decompressor(), maxOutput: maxOutput, maxRatio: maxRatio)
        case .bzip2: StreamDecompression.decode(bytes, with: Bzip2.Decompressor(), maxOutput: maxOutput, maxRatio: maxRatio)
        }
    }
}
