/// Zstandard data (RFC 8878, magic `28 B5 2F FD`), as a base64 layer yields it (a capture's body
/// that a proxy stored still compressed, state a library compressed): decompressed and read as
/// text (offered to the decoders again, so JSON inside opens next). The text replaces the
/// compressed bytes.
///
/// Strict by its header (the magic and the descriptor's reserved bit clear), and bounded as the
/// gzip decoder is (`GzipLayerDecoder.maxOutput`, `maxRatio`; a frame's window at most 8 MiB).
/// Data past the header that is corrupt, truncated or over a limit is refused (`decode` throws,
/// and the scan reports it): the header says it is zstd, so what it holds is never left unread.
public struct ZstdLayerDecoder: LayerDecoder {
    public var name: String { "zstd" }
    /// The magic's first byte; the magic, the frame header's descriptor and the smallest block
    /// take 9 bytes.
    public var gate: LayerGate { LayerGate(minimumLength: 9, firstBytes: "\u{28}") }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        guard Zstd.hasMagic(value) else { return nil }
        switch ContentCoding.zstd.decode(value) {
        case .success(let text):
            return DecodedLayer(bytes: text, content: .text, replacesValue: true)
        case .failure(let error):
            throw LayerRefusal(error.isLimit ? .limit : .parse, "zstd data that cannot be opened: \(error.message(coding: "zstd")); what it holds is not checked")
        }
    }
}
