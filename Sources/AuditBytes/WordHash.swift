/// A hash of a short byte string for tables in memory (the key-facts cache, the inventory's
/// perfect-hash tables, quiet-name labels): eight bytes at a time, multiplied and folded, then
/// MurmurHash3's finaliser, so that every input bit reaches the low bits a table index takes.
/// Without the finaliser, keys that differ only in a high byte of their last word share their
/// low bits under every seed.
public enum WordHash {
    @inline(__always)
    public static func hash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
        var h = fold(key, seed: seed)
        h = (h ^ (h &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h = (h ^ (h &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h &>> 33)
    }

    /// The hash of a string's UTF-8 (read in place). A native string is read where it is: a
    /// copy to call `withUTF8` on retained and released its storage.
    @inline(__always)
    public static func hash(_ text: String, seed: UInt64 = 0) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash($0, seed: seed) }) { return hash }
        var text = text
        return text.withUTF8 { hash($0, seed: seed) }
    }

    /// The hash before MurmurHash3's finaliser: every byte of the key is in it (keys of one
    /// length that differ fold differently below eight bytes), but its low bits see only the
    /// last bytes. For a small table that takes its index from the high bits of one more
    /// multiplication (`FieldNameSet`), where the finaliser was most of the cost of a name.
    @inline(__always)
    public static func fold(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
        var h = (UInt64(truncatingIfNeeded: key.count) ^ seed) &* multiplier
        if let base = key.baseAddress {
            var i = 0
            while i &+ 8 <= key.count {
                h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* multiplier
                h ^= h &>> 29
                i &+= 8
            }
            let n = key.count
            let raw = UnsafeRawPointer(base)
            // What the words left: the last eight bytes, overlapping the words before; below
            // eight, two four-byte loads that overlap, or (below four) the first, middle and
            // last bytes. Either way every byte is in the tail once the length is known (which
            // `h` holds), without a loop a byte (most field names are shorter than eight bytes).
            let tail: UInt64 =
                if i < n && n >= 8 {
                    raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                } else if n >= 8 {
                    0
                } else if n >= 4 {
                    UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) &<< 32
                } else if n > 0 {
                    UInt64(base[0]) | UInt64(base[n &>> 1]) &<< 8 | UInt64(base[n &- 1]) &<< 16
                } else {
                    0
                }
            h ^= tail
        }
        return h
    }

    /// Fibonacci hashing's multiplier (2^64 divided by the golden ratio, made odd).
    public static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
}
