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
