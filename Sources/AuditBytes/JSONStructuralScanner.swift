/// What one block of JSON holds once strings are known, one bit per byte (bit i is byte i).
public struct JSONBlockMasks: Equatable, Sendable {
    /// Quotes that open or close a string (not those after an escaping backslash).
    public var quotes: UInt64
    /// Bytes in a string: from its opening quote (included) to its closing quote (excluded).
    public var inString: UInt64
    /// `{ } [ ] , :` outside strings: the structure of the text.
    public var structuralOutsideStrings: UInt64
    /// `\n` outside strings (one in a string is invalid JSON, but still no line of the text).
    public var lineFeedsOutsideStrings: UInt64
    /// Bytes after an escaping backslash.
    public var escaped: UInt64

    @inlinable
    public init(quotes: UInt64, inString: UInt64, structuralOutsideStrings: UInt64, lineFeedsOutsideStrings: UInt64,
                escaped: UInt64) {
        self.quotes = quotes
        self.inString = inString
        self.structuralOutsideStrings = structuralOutsideStrings
        self.lineFeedsOutsideStrings = lineFeedsOutsideStrings
        self.escaped = escaped
    }
}

/// The string-aware half of simdjson's stage 1, over consecutive blocks of a JSON text: which
/// quotes are escaped (odd runs of backslashes), which bytes are in strings, and so which
/// structural characters are the text's. Two bits of state cross a block boundary: whether the
/// previous block ended in a string, and whether its last byte was an escaping backslash. It
/// does not validate; on valid JSON its masks are exact, on any other bytes they are merely
/// consistent with a byte-at-a-time reading of quotes and backslashes.
public struct JSONStructuralScanner: Sendable {
    /// 1 when the previous block's last byte was an escaping backslash, else 0.
    @usableFromInline var nextIsEscaped: UInt64 = 0
    /// All ones when the previous block ended in a string, else 0.
    @usableFromInline var inStringCarry: UInt64 = 0

    public init() {}

    /// Whether the bytes read so far end in a string.
    @inlinable public var isInString: Bool { inStringCarry != 0 }

    /// Whether the last byte read so far is a backslash that escapes the next one.
    @inlinable public var endsInEscape: Bool { nextIsEscaped != 0 }

    /// The masks of the next 64 bytes, at `block`.
    @inlinable @inline(__always)
    public mutating func next(block: UnsafePointer<UInt8>) -> JSONBlockMasks {
        next(classes: StructuralClassifier.classify(UnsafeRawPointer(block)))
    }

    /// The masks of the next `bytes` (fewer than 64; classified as if spaces followed them).
    /// The state then follows the last of them, so another block may come after a partial one:
    /// a text fed in pieces of any size gives the masks of the text fed whole.
    @inlinable
    public mutating func next(partial bytes: UnsafeBufferPointer<UInt8>) -> JSONBlockMasks {
        next(classes: StructuralClassifier.classify(partial: UnsafeRawBufferPointer(bytes)), count: bytes.count)
    }

    /// The masks of a block whose classes are `classes` (from either classifier) and whose
    /// first `count` bytes are text: the bits from `count` up must be clear.
    @inlinable @inline(__always)
    public mutating func next(classes: JSONByteClasses, count: Int = 64) -> JSONBlockMasks {
        guard count > 0 else {
            return JSONBlockMasks(quotes: 0, inString: 0, structuralOutsideStrings: 0, lineFeedsOutsideStrings: 0, escaped: 0)
        }
        let last = UInt64(truncatingIfNeeded: count &- 1)
        let escaped: UInt64
        let backslashes = classes.backslashes
        if backslashes == 0 {
            escaped = nextIsEscaped
            nextIsEscaped = 0
        } else {
            let escape: UInt64
            (escaped, escape) = Self.escapes(backslashes: backslashes, carry: nextIsEscaped)
            nextIsEscaped = (escape &>> last) & 1
        }
        let quotes = classes.quotes & ~escaped
        let inString = Self.prefixXOR(quotes) ^ inStringCarry
        inStringCarry = 0 &- ((inString &>> last) & 1)
        return JSONBlockMasks(
            quotes: quotes,
            inString: inString,
            structuralOutsideStrings: classes.structurals & ~inString,
            lineFeedsOutsideStrings: classes.lineFeeds & ~inString,
            escaped: escaped
        )
    }

    /// simdjson's escape scanner, for a block whose backslashes are `backslashes` and whose
    /// first byte is escaped when `carry` is 1: the bytes an escape's backslash stands before
    /// (`escaped`), and the backslashes that escape (`escapes`). A backslash escaped by the
    /// previous block starts no run; in each run the escapes are the backslashes of the run's
    /// parity, found by a subtraction over the odd bits.
    @inlinable @inline(__always)
    public static func escapes(backslashes: UInt64, carry: UInt64) -> (escaped: UInt64, escapes: UInt64) {
        let potentialEscape = backslashes & ~carry
        let maybeEscaped = potentialEscape &<< 1
        let oddBits: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
        let escapeAndTerminalCode = ((maybeEscaped | oddBits) &- potentialEscape) ^ oddBits
        return (escapeAndTerminalCode ^ (backslashes | carry), escapeAndTerminalCode & backslashes)
    }

    /// Bit i of the result is the XOR of bits 0 through i of `x`: with unescaped quotes, the
    /// bytes from an opening quote up to its closing one. (simdjson uses a carry-less multiply,
    /// which Swift does not reach portably; six shifts do the same.)
    @inlinable @inline(__always)
    public static func prefixXOR(_ x: UInt64) -> UInt64 {
        var x = x
        x ^= x &<< 1
        x ^= x &<< 2
        x ^= x &<< 4
        x ^= x &<< 8
        x ^= x &<< 16
        x ^= x &<< 32
        return x
    }
}
