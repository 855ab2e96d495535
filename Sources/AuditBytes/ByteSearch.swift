#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Whether the bytes contain `needle`. Foundation's `String.contains` bridges to NSString on
    /// Linux and costs a copy and a slow search per call; this is neither.
    public func containsBytes(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { containsBytes(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the bytes contain `needle`.
    public func containsBytes(_ needle: StaticString) -> Bool {
        containsBytes(UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
    }

    /// Whether the bytes contain `needle`: `memchr` for its rarest-looking byte, then `memcmp`
    /// around it; under 64 bytes a plain loop, where a call costs more than it saves. (Anchored
    /// at the first byte, a quoted key stopped at every `"` of a JSON body.)
    public func containsBytes(_ needle: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard count >= needle.count, let base = baseAddress else { return false }
        let last = count - needle.count
        if count < 64 {
            var i = 0
            while i <= last {
                if self[i] == first && memcmp(base + i, needle.baseAddress!, needle.count) == 0 { return true }
                i += 1
            }
            return false
        }
        var anchor = 0
        for i in 1..<needle.count where UnsafeRawBufferPointer.commonness(needle[i]) < UnsafeRawBufferPointer.commonness(needle[anchor]) {
            anchor = i
        }
        let anchorByte = Int32(needle[anchor])
        // Candidate starts run from 0 to `last`; the anchor sits `anchor` bytes after each.
        var start = 0
        while start <= last {
            guard let hit = memchr(base + start + anchor, anchorByte, last - start + 1) else { return false }
            start = UnsafeRawPointer(hit) - base - anchor
            if memcmp(base + start, needle.baseAddress!, needle.count) == 0 { return true }
            start += 1
        }
        return false
    }

    /// Whether the bytes contain `byte`. Up to 64 bytes without a call: 16 at a time (the last
    /// block overlapping the one before), two overlapping words under 16, a loop under 8.
    /// `memchr` beyond. The layer decoders' gates ask it of most string values, which are short;
    /// the call and `memchr`'s set-up cost them more than the search.
    @inlinable @inline(__always)
    public func containsByte(_ byte: UInt8) -> Bool {
        guard let base = baseAddress else { return false }
        let n = count
        if n > 64 { return memchr(base, Int32(byte), n) != nil }
        if n >= 16 {
            let wanted = SIMD16<UInt8>(repeating: byte)
            var found = SIMD16<UInt8>(repeating: 0)
            var i = 0
            while i &+ 16 < n {
                found |= ByteMasks.bytes(base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self) .== wanted)
                i &+= 16
            }
            found |= ByteMasks.bytes(base.loadUnaligned(fromByteOffset: n &- 16, as: SIMD16<UInt8>.self) .== wanted)
            return ByteMasks.bits16(found) != 0
        }
        if n >= 8 {
            let words = SWAR.exactBytesEqual(base.loadUnaligned(as: UInt64.self), byte)
                | SWAR.exactBytesEqual(base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), byte)
            return words != 0
        }
        for i in 0..<n where self[i] == byte { return true }
        return false
    }

    /// How often a byte is to be expected in JSON (escaped JSON too) and English text, roughly:
    /// the search anchors on the needle's least common byte, where `memchr` stops least often.
    /// Structure and the commonest letters first, then the other lowercase letters by their
    /// frequency in English, digits, capitals, and last the other punctuation (`_`, `=`, …).
    private static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"):
            100
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            99 - letterRanks[Int(byte - UInt8(ascii: "a"))]
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            60
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            50
        default:
            10
        }
    }

    /// Each lowercase letter's place in English frequency order (`e` 0, `t` 1, … `z` 25).
    private static let letterRanks: [Int] = {
        var ranks = [Int](repeating: 0, count: 26)
        for (rank, letter) in "etaoinshrdlcumwfgypbvkjxqz".utf8.enumerated() { ranks[Int(letter - UInt8(ascii: "a"))] = rank }
        return ranks
    }()
}

extension Array where Element == UInt8 {
    /// Whether the bytes contain `needle` (see `UnsafeRawBufferPointer.containsBytes`).
    public func containsBytes(_ needle: String) -> Bool { withUnsafeBytes { $0.containsBytes(needle) } }
}

extension String {
    /// Whether the string contains `other`, compared byte by byte (see `containsBytes`): the
    /// scan's hot paths never go through Foundation's NSString bridge.
    public func containsText(_ other: String) -> Bool {
        Array(utf8).containsBytes(other)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the bytes contain `needle` (see `UnsafeRawBufferPointer.containsBytes`).
    public func containsBytes(_ needle: String) -> Bool { UnsafeRawBufferPointer(self).containsBytes(needle) }

    /// Whether the bytes contain `needle`.
    public func containsBytes(_ needle: StaticString) -> Bool { UnsafeRawBufferPointer(self).containsBytes(needle) }

    /// Whether the bytes of `other` stand at `offset` (a length check and a `memcmp`).
    public func hasBytes(_ other: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset >= 0, count - offset >= other.count else { return false }
        guard let base = baseAddress, let start = other.baseAddress else { return other.isEmpty }
        return memcmp(base + offset, start, other.count) == 0
    }

    /// Whether the bytes start with `prefix`: short literals (field names), compared through the
    /// two pointers (`sameBytes`), where a closure over the literal's buffer took some 45
    /// instructions a call. The contract checks compare names that match as a rule, in full.
    @inlinable
    public func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard count >= n else { return false }
        guard n > 0 else { return true }
        guard prefix.hasPointerRepresentation else {
            return prefix.withUTF8Buffer { prefix in prefix.indices.allSatisfy { self[$0] == prefix[$0] } }
        }
        return UnsafeRawPointer(baseAddress.unsafelyUnwrapped).sameBytes(as: UnsafeRawPointer(prefix.utf8Start), count: n)
    }

    /// Whether the bytes are exactly `text`.
    public func equals(_ text: StaticString) -> Bool { count == text.utf8CodeUnitCount && hasPrefix(text) }

    /// Whether the bytes are exactly `other`'s.
    public func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool { count == other.count && hasBytes(other, at: 0) }

    /// Whether the bytes start with `prefix` (lowercase ASCII), ignoring ASCII case.
    public func hasPrefixIgnoringASCIICase(_ prefix: StaticString) -> Bool {
        guard count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in
            prefix.indices.allSatisfy { i in (self[i] &- 0x41 < 26 ? self[i] | 0x20 : self[i]) == prefix[i] }
        }
    }

    /// Whether the bytes start with `prefix` (one length check and a `memcmp`).
    public func hasBytePrefix(_ prefix: [UInt8]) -> Bool {
        prefix.withUnsafeBufferPointer { hasBytes($0, at: 0) }
    }
}

extension UnsafeRawPointer {
    /// Whether the `count` bytes here are the `count` bytes at `other`: eight at a time, the last
    /// word overlapping the one before, or byte by byte below eight. For short names (field
    /// names, cached keys), where a call to `memcmp` costs more than the bytes.
    @inlinable @inline(__always)
    public func sameBytes(as other: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 8 else {
            var i = 0
            while i < count {
                if load(fromByteOffset: i, as: UInt8.self) != other.load(fromByteOffset: i, as: UInt8.self) { return false }
                i &+= 1
            }
            return true
        }
        var i = 0
        while i &+ 8 < count {
            if loadUnaligned(fromByteOffset: i, as: UInt64.self) != other.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i &+= 8
        }
        return loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == other.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
}
