#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Whether the bytes contain `needle` (`memchr` for its first byte, then `memcmp`).
    /// Foundation's `String.contains` bridges to NSString on Linux and costs a copy and a slow
    /// search per call; this is neither.
    func containsBytes(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { containsBytes(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the bytes contain `needle`.
    func containsBytes(_ needle: StaticString) -> Bool {
        containsBytes(UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
    }

    /// Whether the bytes contain `needle`. Under 64 bytes a plain loop finds the first byte:
    /// a `memchr` call costs more than it saves on a short value.
    func containsBytes(_ needle: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard count >= needle.count, let base = baseAddress else { return false }
        var i = 0
        let last = count - needle.count
        if count < 64 {
            while i <= last {
                if self[i] == first && memcmp(base + i, needle.baseAddress!, needle.count) == 0 { return true }
                i += 1
            }
            return false
        }
        while i <= last {
            guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return false }
            i = UnsafeRawPointer(hit) - base
            if memcmp(base + i, needle.baseAddress!, needle.count) == 0 { return true }
            i += 1
        }
        return false
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes contain `needle` (see `UnsafeRawBufferPointer.containsBytes`).
    func containsBytes(_ needle: String) -> Bool { withUnsafeBytes { $0.containsBytes(needle) } }
}

extension String {
    /// Whether the string contains `other`, compared byte by byte (see `containsBytes`): the
    /// scan's hot paths never go through Foundation's NSString bridge.
    func containsText(_ other: String) -> Bool {
        Array(utf8).containsBytes(other)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the bytes contain `needle` (see `UnsafeRawBufferPointer.containsBytes`).
    func containsBytes(_ needle: String) -> Bool { UnsafeRawBufferPointer(self).containsBytes(needle) }

    /// Whether the bytes contain `needle`.
    func containsBytes(_ needle: StaticString) -> Bool { UnsafeRawBufferPointer(self).containsBytes(needle) }

    /// Whether the bytes start with `prefix`.
    func hasPrefix(_ prefix: StaticString) -> Bool {
        guard count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in prefix.indices.allSatisfy { self[$0] == prefix[$0] } }
    }

    /// Whether the bytes start with `prefix` (lowercase ASCII), ignoring ASCII case.
    func hasPrefixIgnoringASCIICase(_ prefix: StaticString) -> Bool {
        guard count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in
            prefix.indices.allSatisfy { i in (self[i] &- 0x41 < 26 ? self[i] | 0x20 : self[i]) == prefix[i] }
        }
    }

    /// Whether the bytes start with `prefix` (one length check and a `memcmp`).
    func hasBytePrefix(_ prefix: [UInt8]) -> Bool {
        guard count >= prefix.count, let base = baseAddress else { return prefix.isEmpty }
        return prefix.withUnsafeBufferPointer { memcmp(base, $0.baseAddress!, prefix.count) == 0 }
    }
}
