import AuditBytes

/// Decoding of JSON string contents that the reader has already validated.
public enum JSONString {
    /// Appends the UTF-8 bytes that the validated string content `raw` denotes to `output`.
    public static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.appendDecoded(raw) { unescape(raw, to: $0) }
    }

    /// Writes the unescaped `raw` to `destination`, which has room for `raw.count` bytes, and
    /// returns its length.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, toCopyAt destination: UnsafeMutablePointer<UInt8>) -> Int {
        destination.update(from: raw.baseAddress!, count: raw.count)
        return unescape(raw, to: destination)
    }

    /// Writes the unescaped `raw` to `destination`, which holds a copy of `raw`; returns its length.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let n = raw.count
        let base = raw.baseAddress!
        var i = nextBackslash(base, from: 0, count: n)
        var w = i
        while i < n {
            let e = raw[i + 1]
            switch e {
            case UInt8(ascii: "b"): destination[w] = 0x08; w += 1; i += 2
            case UInt8(ascii: "f"): destination[w] = 0x0C; w += 1; i += 2
            case UInt8(ascii: "n"): destination[w] = 0x0A; w += 1; i += 2
            case UInt8(ascii: "r"): destination[w] = 0x0D; w += 1; i += 2
            case UInt8(ascii: "t"): destination[w] = 0x09; w += 1; i += 2
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, i + 2)
                i += 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hex4(raw, i + 2)
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                w += writeUTF8(scalar, to: destination + w)
            default: destination[w] = e; w += 1; i += 2
            }
            // The run up to the next backslash, moved down over what the escapes saved: sixteen
            // bytes at a time, stopping at the first backslash of a block (JSON held in a string
            // has one every few bytes, where calls to search and copy cost more than the bytes).
            // A block may write past the run; what it wrote there is written again or cut off.
            while i &+ 16 <= n {
                let block = UnsafeRawPointer(base + i)
                UnsafeMutableRawPointer(destination + w).storeBytes(of: block.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                if let k = JSONStringBlock.firstBackslash(in16: block) {
                    i &+= k
                    w &+= k
                    break
                }
                i &+= 16
                w &+= 16
            }
            while i < n && base[i] != UInt8(ascii: "\\") {
                destination[w] = base[i]
                i &+= 1
                w &+= 1
            }
        }
        return w
    }

    @inline(__always)
    private static func nextBackslash(_ base: UnsafePointer<UInt8>, from i: Int, count n: Int) -> Int {
        guard i < n, let found = memchr(base + i, Int32(UInt8(ascii: "\\")), n - i) else { return n }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The string content `raw` as a Swift string.
    public static func decode(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String {
        escaped ? String(decoding: unescaped(raw), as: UTF8.self) : String(decoding: raw, as: UTF8.self)
    }

    /// The UTF-8 bytes that the validated string content `raw` denotes.
    public static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        unescape(raw, into: &bytes)
        return bytes
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v << 4 | UInt32(hexValue(raw[i + k]) ?? 0) }
        return v
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            output.append(contentsOf: UnsafeBufferPointer(start: p, count: writeUTF8(scalar, to: p)))
        }
    }

    /// Writes the UTF-8 encoding of a Unicode scalar value (1 to 4 bytes) to `p`; returns its length.
    @inline(__always)
    static func writeUTF8(_ scalar: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            p[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            p[0] = UInt8(0xC0 | scalar >> 6)
            p[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            p[0] = UInt8(0xE0 | scalar >> 12)
            p[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            p[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            p[0] = UInt8(0xF0 | scalar >> 18)
            p[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            p[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            p[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
