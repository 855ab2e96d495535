import AuditInputs

/// Compresses redacted content back in the coding it was read from, as near to the original as
/// the data records: gzip behind the original member's header, deflate in the wrapper it had
/// (the zlib format, or raw deflate in an HTTP body), Brotli, zstd, xz and bzip2 at settings of
/// their own (the data does not record the ones it was made with).
enum Recompression {
    static func compress(_ content: [UInt8], as coding: ContentCoding, like original: [UInt8]) -> [UInt8]? {
        switch coding {
        case .gzip:
            return GzipEncoder.compress(content, headerFrom: original)
        case .deflate:
            var compressed: [UInt8] = []
            let wrapper: Zlib.Wrapper = DeflateLayerDecoder.hasZlibHeader(original) ? .zlib : .raw
            guard content.withUnsafeBytes({ Zlib.Deflater(wrapper).compress($0, final: true, onto: &compressed) }) else { return nil }
            return compressed
        case .brotli:
            return content.withUnsafeBytes(Brotli.compress)
        case .zstd:
            return content.withUnsafeBytes(Zstd.compress)
        case .xz:
            return content.withUnsafeBytes(Xz.compress)
        case .bzip2:
            return content.withUnsafeBytes(Bzip2.compress)
        }
    }
}

/// Compresses redacted content back into gzip (RFC 1952), keeping the original member's header
/// (file name, modification time, flags) so that only the compressed data and its trailer
/// change (raw deflate and CRC-32 from `Zlib`).
enum GzipEncoder {
    /// `content` as a gzip member with the header of `original` (a gzip member or stream); a
    /// minimal header when `original` has none that can be read.
    static func compress(_ content: [UInt8], headerFrom original: [UInt8]) -> [UInt8]? {
        let header = headerBytes(of: original) ?? [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]
        var deflated: [UInt8] = []
        guard content.withUnsafeBytes({ Zlib.Deflater(.raw).compress($0, final: true, onto: &deflated) }) else { return nil }
        let crc = content.withUnsafeBytes { Zlib.crc32($0) }
        let size = UInt32(truncatingIfNeeded: content.count)
        var output = header + deflated
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return output
    }

    /// The header of the first member of `data`: the fixed ten bytes and the optional extra
    /// field, file name, comment and header CRC its flags announce.
    static func headerBytes(of data: [UInt8]) -> [UInt8]? {
        guard data.count >= 10, data[0] == 0x1F, data[1] == 0x8B, data[2] == 0x08 else { return nil }
        let flags = data[3]
        guard flags & 0xE0 == 0 else { return nil }
        var i = 10
        if flags & 0x04 != 0 {
            guard i + 2 <= data.count else { return nil }
            i += 2 + (Int(data[i]) | Int(data[i + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            guard let zero = data[min(i, data.count)...].firstIndex(of: 0) else { return nil }
            i = zero + 1
        }
        if flags & 0x02 != 0 { i += 2 }
        guard i <= data.count else { return nil }
        return Array(data[..<i])
    }
}
