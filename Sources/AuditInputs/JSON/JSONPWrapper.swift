/// JSON wrapped as a JSONP call, `callback({…});`, as harviewer writes and reads HAR files
/// (`onInputData({…});`). The value is read where it stands, so positions stay the file's own;
/// `JSONReader.skipJSONPClosing` reads the `)` and `;` after it.
public enum JSONPWrapper {
    /// The offset of the wrapped value's first byte (`{` or `[`) when `bytes` from `start` open a
    /// JSONP call: a JavaScript name (dotted: `window.onData`), `(`, then an object or array.
    public static func valueStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        guard i < bytes.count, isNameStart(bytes[i]) else { return nil }
        while i < bytes.count && (isNameStart(bytes[i]) || bytes[i] &- UInt8(ascii: "0") < 10 || bytes[i] == UInt8(ascii: ".")) { i += 1 }
        i = skipSpace(bytes, from: i)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "(") else { return nil }
        i = skipSpace(bytes, from: i + 1)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") else { return nil }
        return i
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20) &- UInt8(ascii: "a") < 26 || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        return i
    }
}
