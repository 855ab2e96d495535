/// Deflate data in the zlib format (RFC 1950), as a base64 layer yields it (compressed state or
/// a capture's body that was stored still compressed, as some proxies export them): inflated
/// and read as text (offered to the decoders again, so JSON inside opens next). The inflated
/// text replaces the compressed bytes. HTTP's `deflate` coding is this format (RFC 9110), or
/// raw deflate from some servers: a raw HTTP body so coded is inflated either way (`inflate`).
///
/// Strict, since a zlib header is two bytes: method 8 with the 32 KiB window that zlib, Java,
/// .NET, Go and Python write (`78`), no preset dictionary, the header's check; and the first
/// bytes must inflate to text (`inflatesToText`), which random bytes behind a chance header do
/// not (`opens`). Past that the data is recognised: corrupt, truncated or over the gzip
/// decoder's limits, it is refused (`decode` throws).
public struct DeflateLayerDecoder: LayerDecoder {
    public var name: String { "deflate" }
    /// The header's first byte (method 8, a 32 KiB window: `x`); the header, the smallest block
    /// and the Adler-32 checksum take 7 bytes. The other window sizes' first bytes (`h`, `H`,
    /// `X`, `8`, …) begin many values, which would each be offered to the decoder.
    public var gate: LayerGate { LayerGate(minimumLength: 7, firstBytes: "x") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        guard Self.opens(value) else { return nil }
        switch Self.inflate(value) {
        case .success(let text):
            return DecodedLayer(bytes: text, content: .text, replacesValue: true)
        case .failure(let error):
            throw LayerRefusal(error.isLimit ? .limit : .parse, "deflate data that cannot be opened: \(error.message(coding: "deflate")); what it holds is not checked")
        }
    }

    /// Whether `bytes` are zlib data that the decoder opens: a header with the 32 KiB window, and
    /// first bytes that inflate to text.
    public static func opens(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.first == 0x78 && hasZlibHeader(bytes) && inflatesToText(bytes)
    }

    /// Whether `bytes` start with a zlib header: method 8, a window of at most 32 KiB, no preset
    /// dictionary, and the header's two bytes a multiple of 31.
    public static func hasZlibHeader<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.makeIterator()
        guard let cmf = i.next(), let flg = i.next() else { return false }
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    /// How many inflated bytes `inflatesToText` looks at.
    static let probeBytes = 64

    /// Whether the first bytes of the zlib data `bytes` inflate, without an error, to text (or
    /// to all there is, text): what a header found by chance in random bytes seldom does.
    public static func inflatesToText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let inflater = Zlib.Inflater(.zlib)
        guard inflater.setupFailure == nil else { return false }
        inflater.setInput(base, count: bytes.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: probeBytes) { buffer in
            let (status, produced) = inflater.inflate(into: UnsafeMutableRawBufferPointer(buffer))
            switch status {
            case .progress, .streamEnd, .noProgress: break
            case .corrupt, .failure: return false
            }
            guard produced > 0 else { return false }
            var check = TextCheck(expectedBytes: produced)
            for b in buffer[..<produced] where !check.feed(b) { return false }
            // A probe cut in a character is text as far as it goes.
            return produced == probeBytes || check.finish()
        }
    }

    /// Inflates HTTP's `deflate` coding: the zlib format, or raw deflate when the bytes have no
    /// zlib header; bounded as the gzip decoder bounds gzip data.
    public static func inflate(_ bytes: UnsafeRawBufferPointer, maxOutput: Int = GzipLayerDecoder.maxOutput,
                               maxRatio: Int = GzipLayerDecoder.maxRatio) -> Result<[UInt8], DecompressionError> {
        Inflation.inflate(bytes, hasZlibHeader(bytes) ? .zlib : .raw, maxOutput: maxOutput, maxRatio: maxRatio)
    }

    /// `inflate` of bytes held in an array.
    public static func inflate(_ bytes: [UInt8]) -> Result<[UInt8], DecompressionError> {
        bytes.withUnsafeBytes { inflate($0) }
    }
}
