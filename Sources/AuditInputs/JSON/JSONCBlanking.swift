/// JSON with comments (JSONC: `tsconfig.json`, `.vscode/settings.json`, `*.jsonc`) made into JSON
/// of the same length: `//` and `/* */` comments and trailing commas become spaces (line breaks
/// inside a comment stay), so the ordinary reader reads it and every offset, line and column is
/// the original's. Strings are left alone; an unterminated comment is left for the reader to
/// refuse.
public enum JSONCBlanking {
    /// The largest JSONC input read: the copy is held whole (such files are configurations).
    public static let maxBytes = 64 << 20

    /// The whole input `window` reads (from its start), blanked, in a buffer the caller
    /// deallocates; nil when it is larger than `maxBytes` or cannot be read.
    public static func blankedCopy(of window: ByteWindow) -> UnsafeMutableRawBufferPointer? {
        while window.end <= maxBytes && window.extend(keeping: window.start) {}
        guard window.end <= maxBytes, window.failure == nil else { return nil }
        var bytes = Array(UnsafeBufferPointer(start: window.base, count: window.count))
        blank(&bytes)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        copy.copyBytes(from: bytes)
        return copy
    }

    public static func blank(_ bytes: inout [UInt8]) {
        let n = bytes.count
        var i = 0
        // The last comma outside strings that may yet turn out to be trailing.
        var comma: Int?
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                comma = nil
                i += 1
                while i < n && bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            } else if b == UInt8(ascii: "/") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "/") {
                while i < n && bytes[i] != 0x0A && bytes[i] != 0x0D {
                    bytes[i] = 0x20
                    i += 1
                }
            } else if b == UInt8(ascii: "/") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "*") {
                var end = i + 2
                while end + 1 < n && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                guard end + 1 < n else { return }
                for k in i...end + 1 where bytes[k] != 0x0A && bytes[k] != 0x0D { bytes[k] = 0x20 }
                i = end + 2
            } else {
                if b == UInt8(ascii: ",") {
                    comma = i
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    if let trailing = comma { bytes[trailing] = 0x20 }
                    comma = nil
                } else if b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 {
                    comma = nil
                }
                i += 1
            }
        }
    }
}
