extension Collection where Element == UInt8 {
    /// The bytes as a decimal integer, read as `Int(String)` reads one (and Java's
    /// `Long.parseLong`, but for its non-ASCII digits): an optional `+` or `-`, then one ASCII
    /// digit or more and nothing else, within `Int`'s range; nil otherwise. Read in place: the contract checks read every integer field of a
    /// payload, and a `String` made of each cost a validation and a copy.
    @inlinable public var decimalInteger: Int? {
        var bytes = makeIterator()
        guard var byte = bytes.next() else { return nil }
        let negative = byte == UInt8(ascii: "-")
        if negative || byte == UInt8(ascii: "+") {
            guard let next = bytes.next() else { return nil }
            byte = next
        }
        // Accumulated as a negative number, so that the smallest Int fits.
        var value = 0
        while true {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedSubtract) = shifted.subtractingReportingOverflow(Int(digit))
            guard !overflowedShift && !overflowedSubtract else { return nil }
            value = next
            guard let following = bytes.next() else { break }
            byte = following
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }
}
