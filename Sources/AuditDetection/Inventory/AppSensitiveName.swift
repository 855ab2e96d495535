import AuditBytes

/// The app's own sensitive-name rule, as the setting registry, the operation and document
/// checks, the replica's register names, the backup exporter and the server's sync-core all
/// apply it: a case-insensitive *substring* test for `token`, `secret`, `password`,
/// `credential`, or `api`, at most one character, `key`. A name it matches is rejected by the
/// app, so at the contract boundaries it is a violation whatever our word-based name rules say
/// (`tokenizer`, `secretary` and `apiXkey` are the app's, not ours).
public enum AppSensitiveName {
    public static func matches(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { matches($0) }
    }

    /// Every name of a prefs export is judged once (its names do not repeat), so this runs for
    /// each entry: the name is lowercased eight bytes at a time into words with zero bytes
    /// after it, the places where a word may start are found eight at a time, and a word is
    /// compared there as one load. `AppSensitiveNameTests` hold it to a byte-by-byte search.
    public static func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        guard count >= 5, let source = name.baseAddress else { return false }
        // The name's words and three more; a fixed room for most names, which costs no more than
        // a few stores (a room of the name's size took a check and calls to fill it).
        if count <= 56 {
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 10) { search(UnsafeRawPointer(source), count: count, in: $0.baseAddress!) }
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count / 8 + 3) { search(UnsafeRawPointer(source), count: count, in: $0.baseAddress!) }
    }

    /// Lowercases the `count` bytes at `source` (at least five) into `words`, which has room for
    /// `count / 8 + 3` of them, zero bytes after them, and searches them for the rule's words.
    @inline(__always)
    private static func search(_ source: UnsafeRawPointer, count: Int, in words: UnsafeMutablePointer<UInt64>) -> Bool {
        let full = count / 8, rest = count % 8
        for k in 0..<full { words[k] = lowerASCII(source.loadUnaligned(fromByteOffset: 8 &* k, as: UInt64.self)) }
        // The last bytes: the top of the word that ends with the name, or (five to seven bytes)
        // two halves that overlap.
        var last: UInt64 = 0
        if rest > 0 && count >= 8 {
            last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) &>> (8 &* UInt64(8 &- rest))
        } else if rest > 0 {
            let low = UInt64(source.loadUnaligned(as: UInt32.self))
            let high = UInt64(source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            last = low | high &<< (8 &* UInt64(count &- 4))
        }
        words[full] = lowerASCII(last)
        words[full &+ 1] = 0
        words[full &+ 2] = 0
        let bytes = UnsafeRawPointer(words)
        for k in 0..<(count &+ 7) / 8 {
            var starts = firstLetters(words[k])
            while starts != 0 {
                let i = 8 &* k &+ starts.trailingZeroBitCount &>> 3
                starts &= starts &- 1
                if wordStarts(at: i, in: bytes) { return true }
            }
        }
        return false
    }

    /// Whether a word of the rule starts at byte `i` of the lowercased name. A word read past
    /// the name's end reads the zero bytes after it (two words at least), which no word's
    /// letters equal.
    @inline(__always)
    private static func wordStarts(at i: Int, in bytes: UnsafeRawPointer) -> Bool {
        let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if w & 0xFF_FFFF_FFFF == token || w & 0xFFFF_FFFF_FFFF == secret || w == password { return true }
        if w == credenti && bytes.loadUnaligned(fromByteOffset: i &+ 8, as: UInt16.self) == al { return true }
        guard w & 0xFF_FFFF == api else { return false }
        // `key` right after `api`, or after one arbitrary character (the regex's `.` is one
        // UTF-16 unit in the app; one scalar here).
        if (w &>> 24) & 0xFF_FFFF == key { return true }
        let next = i &+ 3 &+ scalarLength(bytes.load(fromByteOffset: i &+ 3, as: UInt8.self))
        return bytes.loadUnaligned(fromByteOffset: next, as: UInt32.self) & 0xFF_FFFF == UInt32(key)
    }

    /// The rule's words as little-endian words of their lowercase bytes (`"token"` is the bytes
    /// 74 6F 6B 65 6E), written out so that reading one costs no lazy initialisation.
    private static let token: UInt64 = 0x6E_656B_6F74, secret: UInt64 = 0x7465_7263_6573
    private static let password: UInt64 = 0x6472_6F77_7373_6170, credenti: UInt64 = 0x6974_6E65_6465_7263
    private static let al: UInt16 = 0x6C61, api: UInt64 = 0x69_7061, key: UInt64 = 0x79_656B

    /// `w` with its ASCII capitals lowercased, every other byte as it was.
    @inline(__always)
    private static func lowerASCII(_ w: UInt64) -> UInt64 {
        let capitals = SWAR.exactInRange(w & (SWAR.ones &* 0x7F), 0x41, 0x5A) & ~w
        return w | capitals &>> 2
    }

    /// The high bit of the bytes of lowercased `w` that are a word's first letter (`t`, `s`,
    /// `p`, `c`, `a`), and perhaps of some bytes after such a byte (`SWAR.bytesEqual`): a place
    /// marked in error fails the comparison.
    @inline(__always)
    private static func firstLetters(_ w: UInt64) -> UInt64 {
        (SWAR.bytesEqual(w, UInt8(ascii: "t")) | SWAR.bytesEqual(w, UInt8(ascii: "s")) | SWAR.bytesEqual(w, UInt8(ascii: "p"))
            | SWAR.bytesEqual(w, UInt8(ascii: "c")) | SWAR.bytesEqual(w, UInt8(ascii: "a"))) & SWAR.highBits
    }

    /// The length of the UTF-8 sequence a lead byte starts.
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
