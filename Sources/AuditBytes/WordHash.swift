/// A hash of a short byte string for tables in memory (the key-facts cache, the inventory's
/// perfect-hash tables, quiet-name labels): eight bytes at a time, multiplied and folded, then
/// MurmurHash3's finaliser, so that every input bit reaches the low bits a table index takes.
/// Without the finaliser, keys that differ only in a high byte of their last word share their
/// low bits under every seed.
public enum WordHash {
    @inline(__always)
    public static func hash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = (UInt64(truncatingIfNeeded: key.count) ^ seed) &* multiplier
        if let base = key.baseAddress {
            var i = 0
            while i &+ 8 <= key.count {
                h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* multiplier
                h ^= h &>> 29
                i &+= 8
            }
            var tail: UInt64 = 0
            if i < key.count && key.count >= 8 {
                // The last eight bytes, overlapping the words before.
                tail = UnsafeRawPointer(base + key.count - 8).loadUnaligned(as: UInt64.self)
            } else {
                var shift: UInt64 = 0
                while i < key.count {
                    tail |= UInt64(base[i]) &<< shift
                    shift &+= 8
                    i &+= 1
                }
            }
            h ^= tail
        }
        h = (h ^ (h &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h = (h ^ (h &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h &>> 33)
    }
}
