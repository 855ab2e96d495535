/// Replays a parsed tree as reader events, so that a visitor written for the streaming reader
/// also scans trees a reader collected first (a HAR entry). Iterative; strings are replayed
/// unescaped. Members whose value's offset is in `skipping` are left out.
enum JSONReplay {
    static func replay<V: JSONVisitor>(_ root: JSONValue.Node, into visitor: inout V, skipping: Set<Int> = []) throws {
        var steps: [ReplayStep] = [.value(root)]
        while let step = steps.popLast() {
            switch step {
            case .key(let key, let offset):
                var bytes = Array(key.utf8)
                try bytes.withUnsafeMutableBufferPointer { try visitor.key(UnsafeBufferPointer($0), escaped: false, at: offset) }
            case .end(let isObject, let offset):
                if isObject { try visitor.objectEnd(at: offset) } else { try visitor.arrayEnd(at: offset) }
            case .value(let node):
                switch node.value {
                case .object(let members):
                    try visitor.objectStart(at: node.offset)
                    steps.append(.end(isObject: true, offset: node.offset))
                    for member in members.reversed() where !skipping.contains(member.value.offset) {
                        steps.append(.value(member.value))
                        steps.append(.key(member.key, member.keyOffset))
                    }
                case .array(let elements):
                    try visitor.arrayStart(at: node.offset)
                    steps.append(.end(isObject: false, offset: node.offset))
                    for element in elements.reversed() { steps.append(.value(element)) }
                case .string(let s):
                    var bytes = Array(s.utf8)
                    try bytes.withUnsafeMutableBufferPointer { try visitor.string(UnsafeBufferPointer($0), escaped: false, at: node.offset) }
                case .number(let n):
                    var bytes = Array(n.utf8)
                    try bytes.withUnsafeMutableBufferPointer { try visitor.number(UnsafeBufferPointer($0), at: node.offset) }
                case .bool(let b):
                    try visitor.literal(b ? .true : .false, at: node.offset)
                case .null:
                    try visitor.literal(.null, at: node.offset)
                }
            }
        }
    }
}

/// What `JSONReplay` emits next.
private enum ReplayStep {
    case value(JSONValue.Node)
    case key(String, Int)
    case end(isObject: Bool, offset: Int)
}
