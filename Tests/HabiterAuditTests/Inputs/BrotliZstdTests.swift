@testable import AuditInputs
import Testing

/// The wrappers around Brotli and zstd: data the command-line tools wrote decompresses, what the
/// wrappers compress comes back, and every way a stream can fail is an error of its kind, bounded
/// as deflate data is.
@Suite struct BrotliZstdTests {
    static let document = Array(#"{"note": "a fake document for the coding tests, compressed by the command-line tools"}"#.utf8)
    /// `brotli -q 11` 1.0.9 of `document`.
    static let brotli: [UInt8] = [
        0x1F, 0x55, 0x00, 0x88, 0x1C, 0x09, 0x76, 0x0C, 0xB1, 0x02, 0xE8, 0x81, 0x8D, 0x1B, 0x41, 0x9D, 0x2C, 0xD5, 0xDB, 0x77,
        0x35, 0xD9, 0x2B, 0x46, 0xD2, 0xE4, 0x1B, 0x5A, 0x58, 0xE9, 0xF4, 0x39, 0xC6, 0x81, 0xC3, 0x2D, 0x6F, 0xFB, 0x22, 0x03,
        0xC1, 0xE0, 0x21, 0x6B, 0xF1, 0x11, 0xD9, 0x3A, 0xFF, 0xB5, 0xCE, 0x82, 0xA2, 0x6A, 0x33, 0x2A, 0x99, 0xDB, 0x24, 0x39,
        0x38, 0xD1, 0x68, 0x9A, 0xE2, 0x62, 0xC0, 0x34, 0x40, 0x41, 0x18, 0x34, 0x0A,
    ]
    /// `zstd -19` 1.5.4 of `document`.
    static let zstd: [UInt8] = [
        0x28, 0xB5, 0x2F, 0xFD, 0x04, 0x68, 0x45, 0x02, 0x00, 0xF2, 0xC4, 0x0F, 0x11, 0xB0, 0x3D, 0x9C, 0x3B, 0xE0, 0x9D, 0x30,
        0x8A, 0xB6, 0x88, 0x62, 0xE8, 0x46, 0xD9, 0x4C, 0x56, 0x22, 0x15, 0xC4, 0xE6, 0xFE, 0xCB, 0xBD, 0x9A, 0x38, 0x4D, 0x9C,
        0x9B, 0x65, 0x0F, 0xC7, 0xC8, 0xF0, 0x39, 0x37, 0x1B, 0xE2, 0x47, 0xFE, 0x4D, 0xBD, 0x8E, 0x9B, 0x65, 0xF5, 0x0B, 0x1D,
        0xED, 0x37, 0x3B, 0x69, 0xFC, 0x2C, 0x33, 0x82, 0x96, 0x80, 0x1D, 0x80, 0xDF, 0x1B, 0xD0, 0x01, 0x00, 0x3D, 0x32, 0x05,
        0x05, 0x4D, 0x5A, 0x30, 0x7B,
    ]

    static func decode(_ coding: ContentCoding, _ bytes: [UInt8]) -> Result<[UInt8], DecompressionError> {
        bytes.withUnsafeBytes(coding.decode)
    }

    static func compress(_ coding: ContentCoding, _ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { coding == .brotli ? Brotli.compress($0) : Zstd.compress($0) }
    }

    @Test func whatTheToolsWroteDecompresses() {
        #expect(Self.decode(.brotli, Self.brotli) == .success(Self.document))
        #expect(Self.decode(.zstd, Self.zstd) == .success(Self.document))
        #expect(Zstd.hasMagic(Self.zstd) && !Zstd.hasMagic(Self.brotli) && !Zstd.hasMagic(Self.zstd.prefix(4)))
    }

    @Test(arguments: [ContentCoding.brotli, .zstd])
    func whatTheWrapperCompressesComesBack(_ coding: ContentCoding) throws {
        var rng = SeededGenerator(seed: 11)
        let words = ["habit ", "entry ", "streak ", "note "]
        let content = Array((0..<50_000).map { _ in words[Int(rng.next() % 4)] }.joined().utf8)
        let compressed = try #require(Self.compress(coding, content))
        #expect(compressed.count < content.count / 3)
        let roundTrips = Self.decode(coding, compressed) == .success(content)
        #expect(roundTrips)
        #expect(Self.decode(coding, try #require(Self.compress(coding, []))) == .success([]))
    }

    /// A bomb stops at the ratio (or the size) as soon as the output would pass it.
    @Test(arguments: [ContentCoding.brotli, .zstd])
    func aBombIsRefusedAtTheLimit(_ coding: ContentCoding) throws {
        let bomb = try #require(Self.compress(coding, Array(repeating: UInt8(ascii: "a"), count: 8 << 20)))
        #expect(Self.decode(coding, bomb) == .failure(.bomb(ratio: GzipLayerDecoder.maxRatio)))
        let large = bomb.withUnsafeBytes { coding == .brotli
            ? Brotli.decompress($0, maxOutput: 1 << 20, maxRatio: .max) : Zstd.decompress($0, maxOutput: 1 << 20, maxRatio: .max) }
        #expect(large == .failure(.tooLarge(limit: 1 << 20)))
    }

    @Test(arguments: [ContentCoding.brotli, .zstd])
    func aTruncatedOrCorruptStreamIsAnError(_ coding: ContentCoding) {
        let whole = coding == .brotli ? Self.brotli : Self.zstd
        #expect(Self.decode(coding, Array(whole.dropLast(5))) == .failure(.truncated))
        #expect(Self.decode(coding, []) == .failure(.truncated))
        var flipped = whole
        flipped[12] ^= 0xFF
        guard case .failure(.corrupt) = Self.decode(coding, flipped) else {
            Issue.record("a changed byte decompressed")
            return
        }
        // Bytes after the end: Brotli has one stream; zstd's frames must each be one.
        guard case .failure(.corrupt) = Self.decode(coding, whole + Array("trailing".utf8)) else {
            Issue.record("bytes after the end were ignored")
            return
        }
    }

    /// Zstd frames one after the other are one stream (RFC 8878 §3.1), and a frame that asks for
    /// a window beyond 8 MiB is refused before anything is allocated for it.
    @Test func zstdFramesFollowEachOtherAndTheWindowIsBounded() throws {
        #expect(Self.decode(.zstd, Self.zstd + Self.zstd) == .success(Self.document + Self.document))
        // The magic, a descriptor without a content size or single segment, a window descriptor
        // of 16 MiB (the library alone takes up to 128), then one empty last raw block.
        let largeWindow: [UInt8] = Zstd.magic + [0x00, 0x70, 0x01, 0x00, 0x00]
        guard case .failure(.corrupt(let detail)) = Self.decode(.zstd, largeWindow) else {
            Issue.record("a 16 MiB window was accepted")
            return
        }
        #expect(detail?.contains("memory") == true, "\(detail ?? "")")
        let smallWindow: [UInt8] = Zstd.magic + [0x00, 0x50, 0x01, 0x00, 0x00]
        #expect(Self.decode(.zstd, smallWindow) == .success([]))
    }
}
