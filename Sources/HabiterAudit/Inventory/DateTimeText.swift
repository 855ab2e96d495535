/// The date-times both readers of a payload accept: the app's `DateTime.tryParse` and the
/// server's `Date.parse` (V8). Their common ground is ISO 8601 as Dart's `toIso8601String`
/// writes it: `YYYY-MM-DD`, optionally `T` or a space and `HH:mm`, optional `:ss` and a
/// fraction, then nothing (local time), `Z`, or an offset `±HH:mm` / `±HHmm`. Both roll an
/// out-of-range day over (`2026-02-31` is March 3) rather than refuse it, so only the field
/// ranges are checked: month 1–12, day 1–31, hour 0–23 (or 24:00:00), minute and second 0–59.
enum DateTimeText {
    static func isDateTime(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            func number(_ digits: Int, in range: ClosedRange<Int>) -> Int? {
                guard i + digits <= bytes.count else { return nil }
                var n = 0
                for j in i..<(i + digits) {
                    guard bytes[j] &- 0x30 < 10 else { return nil }
                    n = n * 10 + Int(bytes[j] &- 0x30)
                }
                i += digits
                return range.contains(n) ? n : nil
            }
            func skip(_ byte: Character) -> Bool {
                guard i < bytes.count, bytes[i] == byte.asciiValue! else { return false }
                i += 1
                return true
            }
            guard number(4, in: 0...9999) != nil, skip("-"), number(2, in: 1...12) != nil, skip("-"),
                  number(2, in: 1...31) != nil else { return false }
            if i == bytes.count { return true }
            guard skip("T") || skip(" "), let hour = number(2, in: 0...24), skip(":"), let minute = number(2, in: 0...59) else { return false }
            var second = 0, fraction = false
            if skip(":") {
                guard let s = number(2, in: 0...59) else { return false }
                second = s
                if skip(".") {
                    let start = i
                    while i < bytes.count, bytes[i] &- 0x30 < 10 {
                        if bytes[i] != UInt8(ascii: "0") { fraction = true }
                        i += 1
                    }
                    guard i > start else { return false }
                }
            }
            if hour == 24 && (minute != 0 || second != 0 || fraction) { return false }
            if i == bytes.count { return true }
            if skip("Z") { return i == bytes.count }
            guard skip("+") || skip("-"), number(2, in: 0...23) != nil else { return false }
            _ = skip(":")
            return number(2, in: 0...59) != nil && i == bytes.count
        }
    }
}
