/// Gzip data (RFC 1952, magic `1F 8B`, method 8 = deflate), as a base64 layer yields it: inflated
/// with zlib, concatenated members included, and read as text (offered to the decoders again, so
/// JSON inside opens next). The inflated text replaces the compressed bytes.
///
/// Strict by its header (magic, method 8, reserved flag bits clear: four bytes reject everything
/// else), and bounded: the output may not
/// exceed `maxOutput` bytes nor `maxRatio` times the compressed size, and inflating stops as soon
/// as it would, so a gzip bomb costs at most that much memory and time. Data past the header that
/// is corrupt, truncated or over a limit is refused (`decode` throws, and the scan reports it):
/// the header says it is gzip, so what it holds is never left unread.
public struct GzipLayerDecoder: LayerDecoder {
    public var name: String { "gzip" }
    public var gate: LayerGate { LayerGate(minimumLength: 18, firstBytes: "\u{1F}") }

    /// The most bytes a gzip layer (or a gzip-encoded body) may inflate to: with the base64
    /// bytes it came from, a layer costs at most 32 MiB beyond the input (see
    /// `Base64LayerDecoder.maxDecodedBytes`).
    public static let maxOutput = 16 << 20
    /// The most a gzip layer may expand: real text rarely compresses beyond 20×, deflate's
    /// maximum is about 1032×.
    public static let maxRatio = 200

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        // Header (10) + the smallest deflate stream (2) + CRC and size (8).
        guard value.count >= 20, Self.hasMagic(value), value[3] & 0xE0 == 0 else { return nil }
        switch Self.inflate(value) {
        case .success(let text):
            return DecodedLayer(bytes: text, content: .text, replacesValue: true)
        case .failure(let error):
            throw LayerRefusal(error.isLimit ? .limit : .parse, "gzip data that cannot be opened: \(error.message); what it holds is not checked")
        }
    }

    /// Whether `bytes` starts like gzip data: `1F 8B` and method 8 (deflate, the only one defined).
    public static func hasMagic<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.makeIterator()
        return i.next() == 0x1F && i.next() == 0x8B && i.next() == 0x08
    }

    /// Inflates gzip data: every member of a concatenation; trailing bytes after a complete
    /// member that do not start another member are ignored, as gzip(1) does (with a warning).
    /// Fails with `.tooLarge` or `.bomb` as soon as the output would pass `maxOutput` bytes or
    /// `maxRatio` times `bytes.count`, never holding more than that (`Inflation`).
    public static func inflate(_ bytes: UnsafeRawBufferPointer, maxOutput: Int = maxOutput, maxRatio: Int = maxRatio) -> Result<[UInt8], DecompressionError> {
        guard bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B else { return .failure(.notGzip) }
        return Inflation.inflate(bytes, .gzip, maxOutput: maxOutput, maxRatio: maxRatio)
    }

    /// Inflates gzip data held in an array; see `inflate(_:maxOutput:maxRatio:)`.
    public static func inflate(_ bytes: [UInt8], maxOutput: Int = maxOutput, maxRatio: Int = maxRatio) -> Result<[UInt8], DecompressionError> {
        bytes.withUnsafeBytes { inflate($0, maxOutput: maxOutput, maxRatio: maxRatio) }
    }
}
