/// The named values of a `pairs` layer: decoded already (a Basic credential's two), or written
/// `name=value` with a separator in a range of the value and decoded one at a time as they are
/// read, so that a form or query of a million fields costs the memory of one pair, not of a
/// million (the decoder keeps no pointer: the reader hands the value back in `pairs(in:)`).
public struct PairList: Sendable {
    enum Storage: Sendable {
        case decoded([DecodedPair])
        /// `name=value` parts in `range` of the value, split at `separator`, percent-decoded.
        case encoded(range: Range<Int>, separator: UInt8, plusAsSpace: Bool)
        /// The parts of a multipart body in the value (`MultipartParts`), the boundary's bytes
        /// at `boundary`: each part's name and body as written.
        case multipart(boundary: Range<Int>)
    }

    let storage: Storage

    /// Pairs decoded already.
    public init(_ pairs: [DecodedPair]) {
        storage = .decoded(pairs)
    }

    /// The `name=value` parts of `range` in the value: empty parts are skipped, a part without
    /// `=` is a name with an empty value; names and values are percent-decoded, `+` a space when
    /// `plusAsSpace`.
    public init(encodedIn range: Range<Int>, separator: UInt8, plusAsSpace: Bool = true) {
        storage = .encoded(range: range, separator: separator, plusAsSpace: plusAsSpace)
    }

    /// The parts of the multipart body that is the value, its first line the delimiter of the
    /// boundary at `boundary` (`MultipartParts.boundary(of:)`).
    public init(multipartWithBoundary boundary: Range<Int>) {
        storage = .multipart(boundary: boundary)
    }

    /// The part of the value the pairs are written in (nil for pairs decoded already, and for
    /// a multipart body's, which are read part by part).
    public var encodedRange: Range<Int>? {
        if case .encoded(let range, _, _) = storage { return range }
        return nil
    }

    /// The pairs, in order, duplicates kept. `value` is the value the decoder was given; the
    /// sequence must not outlive it.
    public func pairs(in value: UnsafeRawBufferPointer) -> Pairs {
        Pairs(list: self, value: value)
    }

    /// Pairs decoded already, read without a value.
    public static func decoded(_ pairs: [DecodedPair]) -> Pairs {
        Pairs(list: PairList(pairs), value: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// True when an encoded list has no pair (only separators), as `pairs(in:)` would find.
    static func hasPairs(_ text: UnsafeRawBufferPointer, separator: UInt8) -> Bool {
        text.contains { $0 != separator }
    }

    /// The pairs of a list over the value it was decoded from.
    public struct Pairs: Sequence {
        let list: PairList
        let value: UnsafeRawBufferPointer

        /// Calls `body` with each pair, in order, as the iterator gives it, but its name and value
        /// lent for the call: read where they are written when nothing in them decodes (no `%`,
        /// nor a `+` read as a space), else decoded into two buffers used again for the next pair.
        /// The iterator's two arrays, made and freed for each pair, were a sixth of the scan of a
        /// query or form of a million fields.
        public func forEachInPlace(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, _ isVerbatim: Bool) -> Void) {
            switch list.storage {
            case .decoded(let pairs):
                for pair in pairs {
                    pair.name.withUnsafeBytes { name in pair.value.withUnsafeBytes { value in body(name, value, pair.isVerbatim) } }
                }
            case .multipart(let boundary):
                // Not verbatim: a part's body may be a multipart body of its own.
                for part in MultipartParts(value, boundary: boundary) {
                    body(UnsafeRawBufferPointer(rebasing: value[part.name]), UnsafeRawBufferPointer(rebasing: value[part.body]), false)
                }
            case .encoded(_, _, let plusAsSpace):
                var decodedName: [UInt8] = []
                var decodedValue: [UInt8] = []
                /// `bytes` as `percentDecode` gives them, in `buffer` when they decode.
                func decoded(_ bytes: UnsafeRawBufferPointer, into buffer: inout [UInt8], _ use: (UnsafeRawBufferPointer) -> Void) {
                    guard LayerBytes.mayPercentDecode(bytes, plusAsSpace: plusAsSpace) else { return use(bytes) }
                    buffer.removeAll(keepingCapacity: true)
                    LayerBytes.percentDecode(bytes, plusAsSpace: plusAsSpace, appendingTo: &buffer)
                    buffer.withUnsafeBytes(use)
                }
                var parts = makeIterator()
                while let range = parts.nextPart() {
                    let part = UnsafeRawBufferPointer(rebasing: parts.text[range])
                    // A part without `=` is a name with an empty value (not verbatim, as the iterator has it).
                    guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else {
                        decoded(part, into: &decodedName) { name in body(name, UnsafeRawBufferPointer(start: nil, count: 0), false) }
                        continue
                    }
                    let raw = UnsafeRawBufferPointer(rebasing: part[(equals + 1)...])
                    decoded(UnsafeRawBufferPointer(rebasing: part[..<equals]), into: &decodedName) { name in
                        decoded(raw, into: &decodedValue) { value in body(name, value, value.baseAddress == raw.baseAddress || value.elementsEqual(raw)) }
                    }
                }
            }
        }

        public func makeIterator() -> Iterator {
            switch list.storage {
            case .decoded(let pairs):
                return Iterator(decoded: pairs, text: UnsafeRawBufferPointer(start: nil, count: 0), separator: 0, plusAsSpace: false)
            case .encoded(let range, let separator, let plusAsSpace):
                return Iterator(decoded: nil, text: UnsafeRawBufferPointer(rebasing: value[range]), separator: separator, plusAsSpace: plusAsSpace)
            case .multipart(let boundary):
                var iterator = Iterator(decoded: nil, text: value, separator: 0, plusAsSpace: false)
                iterator.parts = MultipartParts(value, boundary: boundary)
                return iterator
            }
        }

        public struct Iterator: IteratorProtocol {
            var decoded: [DecodedPair]?
            var decodedIndex = 0
            let text: UnsafeRawBufferPointer
            let separator: UInt8
            let plusAsSpace: Bool
            var partStart = 0
            /// A multipart body's parts, read in place of `name=value` parts.
            var parts: MultipartParts?

            init(decoded: [DecodedPair]?, text: UnsafeRawBufferPointer, separator: UInt8, plusAsSpace: Bool) {
                self.decoded = decoded
                self.text = text
                self.separator = separator
                self.plusAsSpace = plusAsSpace
            }

            public mutating func next() -> DecodedPair? {
                if let decoded {
                    guard decodedIndex < decoded.count else { return nil }
                    decodedIndex += 1
                    return decoded[decodedIndex - 1]
                }
                if parts != nil {
                    return parts!.next().map { DecodedPair(name: Array(text[$0.name]), value: Array(text[$0.body])) }
                }
                return nextPart().map(pair)
            }

            /// The next pair's name, and whether its value is empty, without decoding the value
            /// (a non-empty value never decodes to an empty one): for a pass that only looks for
            /// some names (decoding every value made that pass a fifth of a large form's scan).
            /// The name is decoded only when `mayMatch` lets its first raw byte through (nil
            /// otherwise); a name decoded already is always given.
            public mutating func nextName(decodingOnlyIf mayMatch: (UInt8) -> Bool) -> (name: [UInt8]?, valueIsEmpty: Bool)? {
                if let decoded {
                    guard decodedIndex < decoded.count else { return nil }
                    decodedIndex += 1
                    return (decoded[decodedIndex - 1].name, decoded[decodedIndex - 1].value.isEmpty)
                }
                if parts != nil {
                    guard let part = parts!.next() else { return nil }
                    return (part.name.isEmpty || !mayMatch(text[part.name.lowerBound]) ? nil : Array(text[part.name]), part.body.isEmpty)
                }
                guard let part = nextPart() else { return nil }
                let equals = text[part].firstIndex(of: UInt8(ascii: "=")) ?? part.upperBound
                let valueIsEmpty = equals + 1 >= part.upperBound
                guard mayMatch(text[part.lowerBound]) else { return (nil, valueIsEmpty) }
                return (LayerBytes.percentDecode(text[part.lowerBound..<equals], plusAsSpace: plusAsSpace), valueIsEmpty)
            }

            /// The next part that is not empty.
            fileprivate mutating func nextPart() -> Range<Int>? {
                while partStart < text.count {
                    let start = partStart
                    let end = text[start...].firstIndex(of: separator) ?? text.count
                    partStart = end + 1
                    if end > start { return start..<end }
                }
                return nil
            }

            private func pair(_ part: Range<Int>) -> DecodedPair {
                let bytes = text[part]
                guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
                    return DecodedPair(name: LayerBytes.percentDecode(bytes, plusAsSpace: plusAsSpace), value: [])
                }
                let raw = text[(equals + 1)..<part.upperBound]
                let value = LayerBytes.percentDecode(raw, plusAsSpace: plusAsSpace)
                return DecodedPair(name: LayerBytes.percentDecode(text[part.lowerBound..<equals], plusAsSpace: plusAsSpace),
                                   value: value, isVerbatim: value.elementsEqual(raw))
            }
        }
    }
}
