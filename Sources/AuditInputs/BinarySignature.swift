/// Recognises binary files, which the text scan skips (and lists, with the reason): images,
/// 7z and RAR archives, fonts, executables by their magic numbers, anything else by a NUL byte
/// near the start (as git and ripgrep decide). Compressed data (gzip, zlib, zstd, xz, bzip2), ZIP
/// and tar archives and Android backups are not among them: they are opened and their content
/// read (`FormatDetector.compression`, `ArchiveFormat`).
public enum BinarySignature {
    /// How far a NUL byte is looked for.
    static let nulWindow = 8 * 1024

    private static let signatures: [(magic: [UInt8], at: Int, kind: String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 0, "a PNG image"),
        ([0xFF, 0xD8, 0xFF], 0, "a JPEG image"),
        (Array("GIF87a".utf8), 0, "a GIF image"),
        (Array("GIF89a".utf8), 0, "a GIF image"),
        (Array("WEBP".utf8), 8, "a WebP image"),
        (Array("%PDF-".utf8), 0, "a PDF document"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], 0, "a 7z archive"),
        (Array("Rar!".utf8) + [0x1A, 0x07], 0, "a RAR archive"),
        ([0x7F, 0x45, 0x4C, 0x46], 0, "an ELF executable"),
        ([0xCA, 0xFE, 0xBA, 0xBE], 0, "a Java class or Mach-O universal binary"),
        ([0xCF, 0xFA, 0xED, 0xFE], 0, "a Mach-O executable"),
        (Array("dex\n".utf8), 0, "an Android DEX file"),
        (Array("wOFF".utf8), 0, "a WOFF font"),
        (Array("wOF2".utf8), 0, "a WOFF2 font"),
        (Array("OTTO".utf8), 0, "an OpenType font"),
        (Array("SQLite format 3".utf8) + [0], 0, "an SQLite database"),
    ]

    /// What binary file `bytes` (an input's first bytes) is, or nil when it may be text.
    public static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for signature in signatures where signature.at + signature.magic.count <= bytes.count
            && bytes[signature.at..<signature.at + signature.magic.count].elementsEqual(signature.magic) {
            return signature.kind
        }
        if bytes.prefix(nulWindow).contains(0) { return "a binary file (a NUL byte in its first 8 KiB)" }
        return nil
    }
}
