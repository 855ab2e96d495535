/// SHA-256 (FIPS 180-4). Foundation on Linux has no digest API and no package can be fetched,
/// so this small implementation serves fingerprints and, later, PKCE S256 checks.
public struct SHA256 {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() {}

    public mutating func update<C: Collection>(_ data: C) where C.Element == UInt8 {
        buffer.append(contentsOf: data)
        length &+= UInt64(data.count)
        var offset = 0
        while buffer.count - offset >= 64 {
            compress(buffer[offset..<offset + 64])
            offset += 64
        }
        buffer.removeFirst(offset)
    }

    public mutating func update(_ text: String) { update(Array(text.utf8)) }

    public mutating func finalize() -> [UInt8] {
        buffer.withUnsafeBytes { tail in
            state.withUnsafeMutableBufferPointer { state in
                SHA256.k.withUnsafeBufferPointer { k in SHA256.compressLast(tail, messageLength: length, into: state, k: k) }
            }
        }
        return SHA256.digest(of: state)
    }

    /// The digest of `data`: whole blocks compressed where they lie, the padded tail from a
    /// block on the stack, without the buffering of `update`.
    public static func hash<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        let state = data.withContiguousStorageIfAvailable { hashState(UnsafeRawBufferPointer($0)) }
            ?? Array(data).withUnsafeBytes { hashState($0) }
        return digest(of: state)
    }

    /// The state after the first block of the last message hashed with it that had one: the
    /// next message that starts with the same 64 bytes (a fingerprint of the same rule in the
    /// same input) starts from there.
    public struct FirstBlockCache {
        fileprivate var block: [UInt8] = []
        fileprivate var state: [UInt32] = []

        public init() {}

        fileprivate init(block: [UInt8], state: [UInt32]) {
            self.block = block
            self.state = state
        }
    }

    /// The state after one 64-byte block, for messages that all begin with it: an HMAC's padded
    /// key, whose two blocks every digest under that key would otherwise compress again.
    public struct FirstBlockState: Sendable {
        fileprivate let words: [UInt32]

        /// The state after `block`, which must be 64 bytes.
        public init(block: [UInt8]) {
            precondition(block.count == 64, "a SHA-256 block is 64 bytes")
            var state = SHA256().state
            state.withUnsafeMutableBufferPointer { state in
                block.withUnsafeBufferPointer { block in SHA256.k.withUnsafeBufferPointer { k in SHA256.compress(block, into: state, k: k) } }
            }
            words = state
        }
    }

    /// The digest of the block `first` was made from followed by `rest`.
    public static func hash(after first: FirstBlockState, _ rest: UnsafeRawBufferPointer) -> [UInt8] {
        digest(of: continued(first.words, rest, lengthBefore: 64))
    }

    /// The final state of the digest of `message`.
    private static func hashState(_ message: UnsafeRawBufferPointer, cache: UnsafeMutablePointer<FirstBlockCache>? = nil) -> [UInt32] {
        var state = SHA256().state
        var start = 0
        if let cache, message.count >= 64 {
            let first = UnsafeRawBufferPointer(rebasing: message[..<64])
            if cache.pointee.block.count == 64, cache.pointee.block.withUnsafeBytes({ memcmp($0.baseAddress!, first.baseAddress!, 64) == 0 }) {
                state = cache.pointee.state
            } else {
                state.withUnsafeMutableBufferPointer { state in
                    SHA256.k.withUnsafeBufferPointer { k in compress(first.assumingMemoryBound(to: UInt8.self), into: state, k: k) }
                }
                cache.pointee = FirstBlockCache(block: Array(first), state: state)
            }
            start = 64
        }
        return continued(state, UnsafeRawBufferPointer(rebasing: message[start...]), lengthBefore: start)
    }

    /// The final state of a message's digest from `state`, the state after its first
    /// `lengthBefore` bytes (whole blocks), when `rest` is the rest of it.
    private static func continued(_ state: [UInt32], _ rest: UnsafeRawBufferPointer, lengthBefore: Int) -> [UInt32] {
        var state = state
        state.withUnsafeMutableBufferPointer { state in
            SHA256.k.withUnsafeBufferPointer { k in
                let whole = rest.count / 64 * 64
                for offset in stride(from: 0, to: whole, by: 64) {
                    compress(UnsafeRawBufferPointer(rebasing: rest[offset..<offset + 64]).assumingMemoryBound(to: UInt8.self),
                             into: state, k: k)
                }
                compressLast(UnsafeRawBufferPointer(rebasing: rest[whole...]), messageLength: UInt64(lengthBefore + rest.count), into: state, k: k)
            }
        }
        return state
    }

    /// Compresses the last, incomplete block of a message of `messageLength` bytes (`tail`, under
    /// 64 bytes) padded to whole blocks: `0x80`, zeros, and the length in bits, big-endian.
    private static func compressLast(_ tail: UnsafeRawBufferPointer, messageLength: UInt64, into state: UnsafeMutableBufferPointer<UInt32>,
                                     k: UnsafeBufferPointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { padded in
            let blocks = tail.count + 9 <= 64 ? 1 : 2
            padded.initialize(repeating: 0)
            for i in 0..<tail.count { padded[i] = tail[i] }
            padded[tail.count] = 0x80
            let bitLength = messageLength &* 8
            for i in 0..<8 { padded[64 * blocks - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i)) }
            for block in 0..<blocks {
                compress(UnsafeBufferPointer(rebasing: padded[64 * block..<64 * block + 64]), into: state, k: k)
            }
        }
    }

    /// The state as the digest's 32 bytes, big-endian.
    private static func digest(of state: [UInt32]) -> [UInt8] {
        [UInt8](uninitializedCapacity: 32) { out in
            for (i, word) in state.enumerated() {
                out[4 * i] = UInt8(truncatingIfNeeded: word >> 24)
                out[4 * i + 1] = UInt8(truncatingIfNeeded: word >> 16)
                out[4 * i + 2] = UInt8(truncatingIfNeeded: word >> 8)
                out[4 * i + 3] = UInt8(truncatingIfNeeded: word)
            }
            return 32
        }
    }

    /// The digest of `text` as lowercase hex, of its first `byteCount` bytes when given.
    public static func hexDigest(_ text: String, byteCount: Int = 32) -> String {
        hexDigest(bytes: Array(text.utf8), byteCount: byteCount)
    }

    /// The digest of `bytes` as lowercase hex, of its first `byteCount` bytes when given.
    public static func hexDigest(bytes: [UInt8], byteCount: Int = 32) -> String {
        var cache = FirstBlockCache()
        return hexDigest(bytes: bytes, byteCount: byteCount, cache: &cache)
    }

    /// The same, starting from `cache` when `bytes` begins with its block, and keeping the state
    /// after the first block of `bytes` in it otherwise.
    public static func hexDigest(bytes: [UInt8], byteCount: Int = 32, cache: inout FirstBlockCache) -> String {
        let state = withUnsafeMutablePointer(to: &cache) { cache in bytes.withUnsafeBytes { hashState($0, cache: cache) } }
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 2 * byteCount) { out in
            for i in 0..<byteCount {
                let byte = UInt8(truncatingIfNeeded: state[i / 4] >> UInt32(24 - 8 * (i % 4)))
                out[2 * i] = digits.utf8Start[Int(byte >> 4)]
                out[2 * i + 1] = digits.utf8Start[Int(byte & 15)]
            }
            return 2 * byteCount
        }
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        block.withUnsafeBufferPointer { bytes in
            state.withUnsafeMutableBufferPointer { state in
                SHA256.k.withUnsafeBufferPointer { k in SHA256.compress(bytes, into: state, k: k) }
            }
        }
    }

    private static func compress(_ block: UnsafeBufferPointer<UInt8>, into state: UnsafeMutableBufferPointer<UInt32>,
                                 k: UnsafeBufferPointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
            }
            for i in 16..<64 {
                let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            // Eight rounds at a time, the variables taking each other's roles in turn instead of
            // being moved along after every round.
            for i in stride(from: 0, to: 64, by: 8) {
                round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
                round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
                round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
                round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
                round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
                round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
                round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
            state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
        }
    }

    /// One round: `d` takes `d + T1`, and `h` takes `T1 + T2` (the new `a`).
    @inline(__always)
    private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
                              _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }
}

extension UInt32 {
    @inline(__always) func rotatedRight(_ n: UInt32) -> UInt32 { (self &>> n) | (self &<< (32 &- n)) }
}

extension String {
    /// The string padded on the left with zeros to `width` characters.
    public func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
