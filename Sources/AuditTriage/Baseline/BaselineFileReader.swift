import AuditInputs

/// A baseline file's members, read from the JSON reader's events as they come, without the tree
/// `JSONValue.parse` builds of the whole file (a baseline of 9,000 entries is 3 MB: its tree took
/// 87 M of the 108 M instructions of reading it, before any input is scanned). It keeps what
/// `BaselineFile.parse` checks, as the tree would give it: for each name, the last member's
/// value, a string, a number, or something else.
struct BaselineFileReader: JSONVisitor {
    /// A member's value, as far as a check reads it.
    enum Scalar {
        case string(String)
        case number(String)
        case other

        var stringValue: String? {
            if case .string(let text) = self { return text }
            return nil
        }

        var integerValue: Int? {
            if case .number(let text) = self { return JSONValue.number(text).integerValue }
            return nil
        }
    }

    /// The root object's members the checks read.
    enum RootMember { case baselineFormat, salt, findings, other }

    /// An entry's members, the last of each name; `isObject` false for an element that is no
    /// object, which has none.
    struct Element {
        var isObject = true
        var ruleId: Scalar?, artifact: Scalar?, path: Scalar?, key: Scalar?, fingerprint: Scalar?, valueDigest: Scalar?, line: Scalar?
    }

    private enum Field { case ruleId, artifact, path, key, fingerprint, valueDigest, line, other }

    private(set) var baselineFormat: Scalar?
    private(set) var salt: Scalar?
    /// The last `findings` member's elements when it is an array; nil when it is something else
    /// or missing.
    private(set) var findings: [Element]?

    /// Open containers.
    private var depth = 0
    private var rootIsObject = false
    private var rootMember = RootMember.other
    /// The elements of a `findings` array being read (the root's member at depth 2).
    private var elements: [Element]?
    private var field = Field.other

    /// A value of the root's current member.
    private mutating func rootValue(_ value: Scalar) {
        switch rootMember {
        case .baselineFormat: baselineFormat = value
        case .salt: salt = value
        case .findings: findings = nil
        case .other: break
        }
    }

    /// A value of the current entry's current member.
    private mutating func fieldValue(_ value: Scalar) {
        let last = elements!.count - 1
        switch field {
        case .ruleId: elements![last].ruleId = value
        case .artifact: elements![last].artifact = value
        case .path: elements![last].path = value
        case .key: elements![last].key = value
        case .fingerprint: elements![last].fingerprint = value
        case .valueDigest: elements![last].valueDigest = value
        case .line: elements![last].line = value
        case .other: break
        }
    }

    /// A scalar or a container begins where a value is due, at `depth` open containers.
    private mutating func value(_ scalar: Scalar) {
        switch depth {
        case 1 where rootIsObject: rootValue(scalar)
        case 2 where elements != nil: elements!.append(Element(isObject: false))
        case 3 where elements?.last?.isObject == true: fieldValue(scalar)
        default: break
        }
    }

    private mutating func containerStart(isObject: Bool) {
        if depth == 0 {
            rootIsObject = isObject
        } else if depth == 1 && rootIsObject && rootMember == .findings && !isObject {
            elements = []
        } else if depth == 2 && elements != nil {
            elements!.append(Element(isObject: isObject))
        } else {
            value(.other)
        }
        depth += 1
    }

    mutating func objectStart(at offset: Int) throws { containerStart(isObject: true) }

    mutating func arrayStart(at offset: Int) throws { containerStart(isObject: false) }

    mutating func objectEnd(at offset: Int) throws { depth -= 1 }

    mutating func arrayEnd(at offset: Int) throws {
        depth -= 1
        if depth == 1 && elements != nil {
            findings = elements
            elements = nil
        }
    }

    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        if depth == 1 && rootIsObject {
            rootMember = Self.name(raw, escaped: escaped, among: Self.rootNames) ?? .other
        } else if depth == 3 && elements?.last?.isObject == true {
            field = Self.name(raw, escaped: escaped, among: Self.fieldNames) ?? .other
        }
    }

    private static let rootNames: [(StaticString, RootMember)] = [("baselineFormat", .baselineFormat), ("salt", .salt), ("findings", .findings)]
    private static let fieldNames: [(StaticString, Field)] = [
        ("ruleId", .ruleId), ("artifact", .artifact), ("path", .path), ("key", .key), ("fingerprint", .fingerprint),
        ("valueDigest", .valueDigest), ("line", .line),
    ]

    /// Which of `names` a member's name is. A name without escapes is compared as its bytes: no
    /// text but these ASCII names is canonically equivalent to them (the tree compared decoded
    /// `String`s), and decoding each of a baseline's 63,000 names took a third of reading it.
    private static func name<Name>(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, among names: [(StaticString, Name)]) -> Name? {
        if escaped {
            let text = JSONString.decode(raw, escaped: true)
            return names.first { $0.0.description == text }?.1
        }
        return names.first { name, _ in
            name.utf8CodeUnitCount == raw.count && raw.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }?.1
    }

    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
        // Only the values a check reads are decoded.
        value(needsText ? .string(JSONString.decode(raw, escaped: escaped)) : .other)
    }

    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        value(needsText ? .number(String(decoding: raw, as: UTF8.self)) : .other)
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws { self.value(.other) }

    /// Whether a scalar here is one a check reads.
    private var needsText: Bool {
        switch depth {
        case 1: rootIsObject && rootMember != .other
        case 3: elements?.last?.isObject == true && field != .other
        default: false
        }
    }
}
