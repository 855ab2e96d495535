/// A parsed JSON value with the byte offset of each node, for small documents: rule files,
/// configuration, baselines, entity documents. The scan itself never builds one of these.
/// Not `indirect`: the containers' arrays already hold their nodes on the heap, and an indirect
/// enum boxes every node, a scalar too (one allocation each in the contract checks' trees).
public enum JSONValue: Equatable, Sendable {
    case object([Member])
    case array([Node])
    case string(String)
    /// The number exactly as written.
    case number(String)
    case bool(Bool)
    case null

    public struct Member: Equatable, Sendable {
        public var key: String
        public var keyOffset: Int
        public var value: Node

        public init(key: String, keyOffset: Int, value: Node) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    /// A value and the byte offset of its first byte.
    public struct Node: Equatable, Sendable {
        public var value: JSONValue
        public var offset: Int

        public init(value: JSONValue, offset: Int) {
            self.value = value
            self.offset = offset
        }
    }

    /// Parses a whole JSON text.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONReader.defaultMaxDepth) throws -> Node {
        var reader = JSONReader(bytes, maxDepth: maxDepth)
        var builder = JSONTreeBuilder()
        try reader.readText(&builder)
        return builder.result!
    }

    /// Parses a whole JSON text held in a byte array.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONReader.defaultMaxDepth) throws -> Node {
        try bytes.withUnsafeBytes { try parse($0, maxDepth: maxDepth) }
    }

    /// The member named `key` of an object (the last one, as most parsers keep).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var objectMembers: [Member]? {
        if case .object(let m) = self { return m }
        return nil
    }

    public var arrayElements: [Node]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The number as a Double, when it is one.
    public var doubleValue: Double? {
        if case .number(let s) = self { return Double(s) }
        return nil
    }

    /// The number truncated toward zero, when it is one and fits an `Int`. A JSON number may be
    /// as large as a Double holds (or read as infinite), where `Int(_:)` of it traps.
    public var integerValue: Int? {
        guard case .number(var text) = self else { return nil }
        // Up to 15 digits, which a Double holds exactly, read as the integer they are: through
        // `Double`'s parsing, some 700 instructions a number.
        let plain = text.withUTF8 { bytes in
            let digits = bytes.first == UInt8(ascii: "-") ? bytes.count - 1 : bytes.count
            return digits >= 1 && digits <= 15 && bytes.allSatisfy { $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "-") }
        }
        if plain, let n = Int(text) { return n }
        return Double(text).flatMap { Int(exactly: $0.rounded(.towardZero)) }
    }
}

/// Builds a `JSONValue` tree from a reader's events, with an explicit stack (`JSONValue.parse`:
/// rule files, configuration, baselines). The contract checks capture their members flat
/// instead (`CapturedJSON`).
public struct JSONTreeBuilder: JSONVisitor {
    /// An open container. A struct, mutated where it lies on the stack: an enum frame had to be
    /// popped, taken apart and pushed back for every member.
    @usableFromInline struct Frame {
        @usableFromInline var isObject: Bool
        @usableFromInline var offset: Int
        @usableFromInline var members: [JSONValue.Member] = []
        @usableFromInline var elements: [JSONValue.Node] = []
        @usableFromInline var pendingKey = ""
        @usableFromInline var pendingKeyOffset = 0
        /// Room for the first members or elements, taken at the first: a payload's 13 fields
        /// grown one append at a time took five allocations and four copies.
        @usableFromInline static let firstCapacity = 16

        @inlinable init(isObject: Bool, offset: Int) {
            self.isObject = isObject
            self.offset = offset
        }
    }

    @usableFromInline var stack: [Frame] = []
    public var result: JSONValue.Node?

    public init() {}

    /// Takes `node` into the tree: consumed, because a node borrowed had to be copied into it
    /// (a retain and a release for each of a payload's values).
    @inlinable mutating func add(_ node: consuming JSONValue.Node) {
        let top = stack.count - 1
        guard top >= 0 else {
            result = node
            return
        }
        if stack[top].isObject {
            if stack[top].members.isEmpty { stack[top].members.reserveCapacity(Frame.firstCapacity) }
            stack[top].members.append(JSONValue.Member(key: stack[top].pendingKey, keyOffset: stack[top].pendingKeyOffset, value: node))
            stack[top].pendingKey = ""
            stack[top].pendingKeyOffset = 0
        } else {
            if stack[top].elements.isEmpty { stack[top].elements.reserveCapacity(Frame.firstCapacity) }
            stack[top].elements.append(node)
        }
    }

    @inlinable public mutating func objectStart(at offset: Int) {
        stack.append(Frame(isObject: true, offset: offset))
    }

    @inlinable public mutating func objectEnd(at offset: Int) {
        guard let frame = stack.popLast(), frame.isObject else { return }
        add(JSONValue.Node(value: .object(frame.members), offset: frame.offset))
    }

    @inlinable public mutating func arrayStart(at offset: Int) {
        stack.append(Frame(isObject: false, offset: offset))
    }

    @inlinable public mutating func arrayEnd(at offset: Int) {
        guard let frame = stack.popLast(), !frame.isObject else { return }
        add(JSONValue.Node(value: .array(frame.elements), offset: frame.offset))
    }

    @inlinable public mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        let top = stack.count - 1
        guard top >= 0, stack[top].isObject else { return }
        stack[top].pendingKey = JSONString.decode(raw, escaped: escaped)
        stack[top].pendingKeyOffset = offset
    }

    @inlinable public mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
        add(JSONValue.Node(value: .string(JSONString.decode(raw, escaped: escaped)), offset: offset))
    }

    @inlinable public mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {
        add(JSONValue.Node(value: .number(String(decoding: raw, as: UTF8.self)), offset: offset))
    }

    @inlinable public mutating func literal(_ value: JSONLiteral, at offset: Int) {
        switch value {
        case .true: add(JSONValue.Node(value: .bool(true), offset: offset))
        case .false: add(JSONValue.Node(value: .bool(false), offset: offset))
        case .null: add(JSONValue.Node(value: .null, offset: offset))
        }
    }
}
