/// A pretty-printed line's indentation skipped eight bytes at a time. A JSON reader stepping a
/// byte at a time through whitespace mispredicts the branch that ends each run, whose length
/// changes from line to line; this is asked only after a line feed, so compact text, which has
/// none, never comes here.
public enum Indentation {
    /// The offset of the first byte from `start` on that is no space, or `end` when there is
    /// none before it; `base[start..<end]` must be readable.
    @inline(never)
    public static func end(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        while i &+ 8 <= end {
            let notSpaces = ~SWAR.exactBytesEqual(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self), 0x20) & SWAR.highBits
            if notSpaces != 0 { return i &+ (notSpaces.trailingZeroBitCount &>> 3) }
            i &+= 8
        }
        while i < end && base[i] == 0x20 { i &+= 1 }
        return i
    }
}
