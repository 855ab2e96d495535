extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes as a decimal integer, read as `Int(String)` reads one: an optional `+` or `-`,
    /// then one digit or more and nothing else, within `Int`'s range; nil otherwise. Read in
    /// place: the contract checks read every integer field of a payload, and a `String` made of
    /// each cost a validation and a copy.
    @inlinable public var decimalInteger: Int? {
        var i = 0
        let negative = first == UInt8(ascii: "-")
        if negative || first == UInt8(ascii: "+") { i = 1 }
        guard i < count else { return nil }
        var value = 0
        while i < count {
            let digit = self[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Accumulated on the sign's side, so that the smallest Int is read as `Int` reads it.
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAdd) = negative ? shifted.subtractingReportingOverflow(Int(digit)) : shifted.addingReportingOverflow(Int(digit))
            guard !overflowedShift && !overflowedAdd else { return nil }
            value = next
            i += 1
        }
        return value
    }
}
