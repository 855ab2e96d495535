/// One tnetstring value read whole into a flat tree: the serialisation of mitmproxy's flow files
/// (`mitmdump -w`, `mitmproxy/io/tnetstring.py`). A value is its data's length in decimal, `:`,
/// the data, then a tag byte that types it: `,` bytes, `;` UTF-8 text, `#` an integer, `^` a
/// float, `!` `true` or `false`, `~` null (no data), `]` a list of values, `}` a dictionary of
/// keys (text or bytes) and values one after another. The data stays in the input: a node is its
/// tag and the offsets of its data.
struct TNetString {
    enum Tag: UInt8 {
        case bytes = 0x2C, text = 0x3B, integer = 0x23, float = 0x5E, boolean = 0x21, null = 0x7E
        case list = 0x5D, dictionary = 0x7D
    }

    /// 24 bytes: a flow of a million tiny values takes 24 MiB of them.
    struct Node {
        var tag: Tag
        /// The index of the node after this one's descendants: its next sibling's, if it has one.
        var next: Int32
        /// The data's first absolute offset, and its length.
        var start: Int
        var count: Int

        var data: Range<Int> { start..<start + count }
    }

    /// The nodes in document order: a container's children follow it.
    private(set) var nodes: [Node] = []

    /// mitmproxy's reader refuses a length of more than 12 digits.
    static let maxLengthDigits = 12

    /// The most values one tree holds: a flow has some hundred, and a flow of tiny values (`0:~`
    /// is three bytes) stays within 24 MiB of nodes.
    static let maxValues = 1 << 20

    /// Reads the value at `offset` in `bytes` (whose first byte is at absolute `base`), which must
    /// end, its tag included, by `limit`; containers nest at most `maxDepth` deep.
    init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, at offset: Int, limit: Int, maxDepth: Int) throws(HTTPSyntaxError) {
        var reader = Reader(bytes: bytes, base: base, maxDepth: maxDepth)
        _ = try reader.value(at: offset, limit: limit, depth: 0)
        nodes = reader.nodes
    }

    /// The length prefix at `offset`: the data's length and where the data starts; nil when the
    /// digits and colon are not all in `bytes` yet.
    static func lengthPrefix(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, at offset: Int) throws(HTTPSyntaxError) -> (length: Int, dataStart: Int)? {
        var length = 0
        var i = offset - base
        while i < bytes.count && bytes[i] &- 0x30 < 10 {
            guard i - (offset - base) < maxLengthDigits else {
                throw HTTPSyntaxError(reason: "a tnetstring length of more than \(maxLengthDigits) digits", offset: offset)
            }
            length = length * 10 + Int(bytes[i] &- 0x30)
            i += 1
        }
        guard i < bytes.count else { return nil }
        guard bytes[i] == UInt8(ascii: ":"), i > offset - base else {
            throw HTTPSyntaxError(reason: "a tnetstring that does not start with its length and a colon", offset: base + i)
        }
        return (length, base + i + 1)
    }

    /// The children of the container at `index`, one after another (no array: a list may hold a
    /// million).
    func children(of index: Int) -> UnfoldSequence<Int, Int> {
        let end = Int(nodes[index].next)
        return sequence(state: index + 1) { child in
            guard child < end else { return nil }
            defer { child = Int(nodes[child].next) }
            return child
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let base: Int
        let maxDepth: Int
        var nodes: [Node] = []

        func byte(_ offset: Int) -> UInt8 { bytes[offset - base] }

        func holds(_ range: Range<Int>, _ word: String) -> Bool {
            range.count == word.utf8.count && zip(range, word.utf8).allSatisfy { byte($0) == $1 }
        }

        /// Reads the value at `offset` and returns the offset after its tag.
        mutating func value(at offset: Int, limit: Int, depth: Int) throws(HTTPSyntaxError) -> Int {
            let visible = UnsafeBufferPointer(rebasing: bytes[..<(limit - base)])
            guard let (length, dataStart) = try TNetString.lengthPrefix(visible, base: base, at: offset) else {
                throw HTTPSyntaxError(reason: "a tnetstring cut short in its length", offset: offset)
            }
            guard length < limit - dataStart else {
                throw HTTPSyntaxError(reason: "a tnetstring whose length (\(length) bytes) runs past the end of what holds it", offset: offset)
            }
            let data = dataStart..<dataStart + length
            guard nodes.count < TNetString.maxValues else {
                throw HTTPSyntaxError(reason: "a flow of more than \(TNetString.maxValues) values", offset: offset, isLimit: true)
            }
            guard let tag = Tag(rawValue: byte(data.upperBound)) else {
                throw HTTPSyntaxError(reason: "a tnetstring whose type tag is not one of , ; # ^ ! ~ ] }", offset: data.upperBound)
            }
            let index = nodes.count
            nodes.append(Node(tag: tag, next: 0, start: data.lowerBound, count: data.count))
            switch tag {
            case .bytes, .text: break
            case .integer:
                var digits = data
                if let first = digits.first, byte(first) == UInt8(ascii: "-") { digits = digits.dropFirst() }
                guard !digits.isEmpty, digits.allSatisfy({ byte($0) &- 0x30 < 10 }) else {
                    throw HTTPSyntaxError(reason: "a tnetstring integer that is not one", offset: offset)
                }
            case .float:
                guard !data.isEmpty, data.allSatisfy({ Self.isFloatByte(byte($0)) }) else {
                    throw HTTPSyntaxError(reason: "a tnetstring float that is not one", offset: offset)
                }
            case .boolean:
                guard holds(data, "true") || holds(data, "false") else {
                    throw HTTPSyntaxError(reason: "a tnetstring boolean that is neither true nor false", offset: offset)
                }
            case .null:
                guard data.isEmpty else { throw HTTPSyntaxError(reason: "a tnetstring null with data", offset: offset) }
            case .list, .dictionary:
                guard depth < maxDepth else {
                    throw HTTPSyntaxError(reason: "tnetstring lists and dictionaries nested more than \(maxDepth) deep", offset: offset)
                }
                var child = data.lowerBound
                var count = 0
                while child < data.upperBound {
                    let childStart = child, childIndex = nodes.count
                    child = try value(at: child, limit: data.upperBound, depth: depth + 1)
                    if tag == .dictionary && count % 2 == 0 && nodes[childIndex].tag != .text && nodes[childIndex].tag != .bytes {
                        throw HTTPSyntaxError(reason: "a tnetstring dictionary key that is not text", offset: childStart)
                    }
                    count += 1
                }
                if tag == .dictionary && count % 2 == 1 {
                    throw HTTPSyntaxError(reason: "a tnetstring dictionary whose last key has no value", offset: offset)
                }
            }
            nodes[index].next = Int32(nodes.count)
            return data.upperBound + 1
        }

        /// Digits, signs, a point, an exponent, and the letters of `inf` and `nan` (Python's `repr`).
        static func isFloatByte(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "f"), UInt8(ascii: "a"):
                true
            default: false
            }
        }
    }
}
