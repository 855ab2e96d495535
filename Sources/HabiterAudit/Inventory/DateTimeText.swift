/// ISO 8601 date-times as the app writes them (Dart's `toIso8601String`: local times without a
/// zone, with milliseconds or microseconds when the clock gives them, `Z` for UTC) and as its
/// parser and the server's reread them: `YYYY-MM-DD`, `T` or a space, `HH:mm`, optional `:ss`
/// and a fraction of 1 to 9 digits, then nothing, `Z`, or an offset `±HH:mm` / `±HHmm`.
enum DateTimeText {
    static func isDateTime(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 16, EntityId.isCalendarDate(bytes[0..<10]),
                  bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") else { return false }
            var i = 11
            func number(_ digits: Int, max: Int) -> Bool {
                guard i + digits <= bytes.count else { return false }
                var n = 0
                for j in i..<(i + digits) {
                    guard bytes[j] &- 0x30 < 10 else { return false }
                    n = n * 10 + Int(bytes[j] &- 0x30)
                }
                i += digits
                return n <= max
            }
            func skip(_ byte: Character) -> Bool {
                guard i < bytes.count, bytes[i] == byte.asciiValue! else { return false }
                i += 1
                return true
            }
            guard number(2, max: 23), skip(":"), number(2, max: 59) else { return false }
            if skip(":") {
                guard number(2, max: 59) else { return false }
                if skip(".") {
                    let start = i
                    while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
                    guard (1...9).contains(i - start) else { return false }
                }
            }
            if i == bytes.count { return true }
            if skip("Z") { return i == bytes.count }
            guard skip("+") || skip("-"), number(2, max: 23) else { return false }
            _ = skip(":")
            return number(2, max: 59) && i == bytes.count
        }
    }
}
