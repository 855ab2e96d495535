extension Array where Element == UInt8 {
    /// Appends `value` in decimal, digit by digit: no `String` for the many numbers that reports
    /// and paths write (counts, lines, offsets, indices).
    public mutating func appendDecimal(_ value: Int) {
        guard value >= 0 else {
            append(contentsOf: String(value).utf8)
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        repeat {
            append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        } while divisor > 0
    }
}
