/// A position in an input as written: 1-based line, 1-based column in UTF-16 code units
/// (the unit GitHub and most editors use), and the 0-based UTF-8 byte offset.
public struct SourcePosition: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int
    public var byteOffset: Int

    public init(line: Int, column: Int, byteOffset: Int) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        lhs.byteOffset < rhs.byteOffset
    }
}

/// Converts byte offsets to line and column, the one place that does so.
///
/// Line breaks are LF, CRLF and a lone CR. A UTF-8 byte-order mark at the start of the input
/// takes no column. The cursor only moves forward, so resolving offsets in increasing order costs
/// one pass over the input in total; a smaller offset restarts from the beginning.
public struct LineCursor {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var line = 1
    private var column = 1
    /// The previous byte was a CR, so an LF at `offset` ends no second line.
    private var afterCR = false

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    }

    /// The position of `byteOffset` (clamped to the input).
    public mutating func position(of byteOffset: Int) -> SourcePosition {
        let target = min(max(byteOffset, 0), bytes.count)
        if target < offset {
            self = LineCursor(bytes)
            if target < offset { return SourcePosition(line: 1, column: 1, byteOffset: target) }
        }
        var i = offset
        while i < target {
            let b = bytes[i]
            if b == 0x0A {
                if !afterCR { line += 1 }
                column = 1
                afterCR = false
            } else if b == 0x0D {
                line += 1
                column = 1
                afterCR = true
            } else {
                afterCR = false
                if b & 0xC0 != 0x80 { column += (b >= 0xF0 ? 2 : 1) }
            }
            i += 1
        }
        offset = target
        return SourcePosition(line: line, column: column, byteOffset: target)
    }
}
