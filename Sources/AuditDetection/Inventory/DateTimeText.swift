/// The date-times both readers of a payload accept: the app's `DateTime.tryParse` and the
/// server's `Date.parse` (V8). Their common ground is ISO 8601 as Dart's `toIso8601String`
/// writes it: `YYYY-MM-DD`, optionally `T` or a space and `HH:mm`, optional `:ss` and a
/// fraction, then nothing (local time), `Z`, or an offset `±HH:mm` / `±HHmm`. Both roll an
/// out-of-range day over (`2026-02-31` is March 3) rather than refuse it, so only the field
/// ranges are checked: month 1–12, day 1–31, hour 0–23 (or 24:00:00), minute and second 0–59.
enum DateTimeText {
    static func isDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var c = Cursor(bytes: bytes)
        guard c.number(4, in: 0...9999) != nil, c.skip("-"), c.number(2, in: 1...12) != nil, c.skip("-"),
              c.number(2, in: 1...31) != nil else { return false }
        if c.atEnd { return true }
        guard c.skip("T") || c.skip(" "), let hour = c.number(2, in: 0...24), c.skip(":"), let minute = c.number(2, in: 0...59) else { return false }
        var second = 0, fraction = false
        if c.skip(":") {
            guard let s = c.number(2, in: 0...59) else { return false }
            second = s
            if c.skip(".") {
                let start = c.i
                while c.i < bytes.count, bytes[c.i] &- 0x30 < 10 {
                    if bytes[c.i] != UInt8(ascii: "0") { fraction = true }
                    c.i += 1
                }
                guard c.i > start else { return false }
            }
        }
        if hour == 24 && (minute != 0 || second != 0 || fraction) { return false }
        if c.atEnd { return true }
        if c.skip("Z") { return c.atEnd }
        guard c.skip("+") || c.skip("-"), c.number(2, in: 0...23) != nil else { return false }
        _ = c.skip(":")
        return c.number(2, in: 0...59) != nil && c.atEnd
    }

    /// Where `isDateTime` is in the text (a value, not variables captured by nested functions,
    /// which Swift would box and check on every access).
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i == bytes.count }

        mutating func number(_ digits: Int, in range: ClosedRange<Int>) -> Int? {
            guard i + digits <= bytes.count else { return nil }
            var n = 0
            for j in i..<(i + digits) {
                guard bytes[j] &- 0x30 < 10 else { return nil }
                n = n * 10 + Int(bytes[j] &- 0x30)
            }
            i += digits
            return range.contains(n) ? n : nil
        }

        mutating func skip(_ byte: Unicode.Scalar) -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(ascii: byte) else { return false }
            i += 1
            return true
        }
    }
}
