import AuditBytes
import AuditCore
import AuditDetection

/// The member of a name/value object that a key names, in any ASCII case: `name` or `key`, and
/// `value` (`Key` and `Value` are AWS's tags); CloudFormation's and RDS's `ParameterKey` or
/// `ParameterName` and `ParameterValue`; Elastic Beanstalk's `OptionName` (with `Value`).
enum NameValueRole: UInt8 {
    case none, name, value

    init(key: UnsafeBufferPointer<UInt8>) {
        switch key.count {
        case 3: self = key.hasPrefixIgnoringASCIICase("key") ? .name : .none
        case 4: self = key.hasPrefixIgnoringASCIICase("name") ? .name : .none
        case 5: self = key.hasPrefixIgnoringASCIICase("value") ? .value : .none
        case 10: self = key.hasPrefixIgnoringASCIICase("optionname") ? .name : .none
        case 12: self = key.hasPrefixIgnoringASCIICase("parameterkey") ? .name : .none
        case 13: self = key.hasPrefixIgnoringASCIICase("parametername") ? .name : .none
        case 14: self = key.hasPrefixIgnoringASCIICase("parametervalue") ? .value : .none
        default: self = .none
        }
    }

    /// Whether `key` is a value member's key: hits under it are reported with the name.
    static func isValueKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { NameValueRole(key: $0) == .value }
    }
}

/// Objects that carry a named value as two members, so that the value is judged by the name as
/// if the name were its key: `{"name": "DB_PASSWORD", "value": …}` (Kubernetes env lists, Azure
/// app settings) and `{"key": "password", "value": …}` (Postman environments and collections,
/// AWS tags). Either member may come first. A name is judged only once its object has a value
/// member too (a habit's `name` is not), and outside the key cache: names are as many as the
/// objects that hold them.
///
/// With the name first, the value is judged as it is read, by the visitor's own means (the name
/// stands as its key's name would). With the value first, what the name needs of it is kept
/// until the name comes: whether it had hits of its own (which say more than the name), and a
/// string's bytes, its first `keptValueLimit`. Hits in the value are reported under the name.
struct NameValuePairs {
    /// A value read before its name.
    enum EarlyValue {
        /// It had hits of its own (a pattern, a layer): the name adds nothing.
        case hadHits
        /// A string: its bytes, the first `keptValueLimit` of a longer one (its length in
        /// characters then given), and whether it held JSON text (judged by what it holds).
        case string(bytes: [UInt8], characters: Int?, isJSONText: Bool, offset: Int)
        /// A number, a literal or a container: no secret, described as the name's hit says.
        case other(description: String, offset: Int)
    }

    /// An open object that has shown a name or a value member. Plain values only, on a
    /// `ValueStack`: every habit's `name` makes one, which then costs no allocation and no
    /// reference count.
    private struct Pair {
        /// The object's depth on the path, which no other open object shares.
        var depth: Int
        /// The name before it is judged: its bytes in `names` from `nameStart`, or none (-1).
        var nameStart = -1
        /// Its `Detail` in `details`, once it has a value member or a judged name, or -1.
        var detail = -1
    }

    /// What a pair knows once its value member began or its name matched.
    private struct Detail {
        var match: NameMatch?
        var nameText: String?
        /// The value member's key, as written.
        var valueKey: String?
        var early: EarlyValue?
    }

    /// A longer string read before its name is judged by its first bytes: keeping all of a
    /// value of many megabytes for a name that may never come would double its memory.
    static let keptValueLimit = 64 * 1024

    private let open = ValueStack<Pair>()
    /// The names not yet judged, back to back in the order of their objects: a pair keeps one
    /// only while its object is the innermost open one with a pair, so its name ends the stack.
    private let names = ValueStack<UInt8>(capacity: 256)
    private var details: [Detail] = []

    /// The pair of the object at `depth`, begun if it has none.
    private func pair(at depth: Int) -> UnsafeMutablePointer<Pair> {
        if open.isEmpty || open.top.depth != depth { open.push(Pair(depth: depth)) }
        return open.topAddress
    }

    /// The detail of `pair`, begun if it has none.
    private mutating func detail(of pair: UnsafeMutablePointer<Pair>) -> Int {
        if pair.pointee.detail < 0 {
            pair.pointee.detail = details.count
            details.append(Detail())
        }
        return pair.pointee.detail
    }

    /// The object at `depth` closes.
    @inline(__always)
    mutating func objectCloses(depth: Int) {
        guard !open.isEmpty, open.top.depth == depth else { return }
        let pair = open.pop()
        if pair.nameStart >= 0 { names.truncate(to: pair.nameStart) }
        if pair.detail >= 0 { details.removeLast() }
    }

    /// The name member of the object at `depth` is the string `name`. Returns whether it
    /// matched a name rule with a value read before it, for the caller to judge (`judged`).
    mutating func name(_ name: UnsafeBufferPointer<UInt8>, depth: Int, scan: ArtifactScan) -> Bool {
        let pair = self.pair(at: depth)
        let index = pair.pointee.detail
        guard index >= 0, details[index].early != nil, details[index].match == nil else {
            if index < 0 || details[index].match == nil { keep(name, for: pair, scan: scan) }
            return false
        }
        guard let match = Self.judge(name, scan: scan) else { return false }
        details[index].match = match
        details[index].nameText = String(decoding: name, as: UTF8.self)
        return true
    }

    /// The innermost pair's name rule, name and value read before it, once `name` said it
    /// matched.
    func judged() -> (match: NameMatch, nameText: String, valueKey: String, early: EarlyValue) {
        let detail = details[open.top.detail]
        return (detail.match!, detail.nameText!, detail.valueKey!, detail.early!)
    }

    /// Keeps `name` for the value member to come. A second name (`name` and `key` both): the
    /// first is judged now, and the second kept only if it did not match.
    private mutating func keep(_ name: UnsafeBufferPointer<UInt8>, for pair: UnsafeMutablePointer<Pair>,
                               scan: ArtifactScan) {
        if pair.pointee.nameStart >= 0 {
            judgeName(of: pair, scan: scan)
            if pair.pointee.detail >= 0 && details[pair.pointee.detail].match != nil { return }
        }
        pair.pointee.nameStart = names.count
        names.push(contentsOf: name)
    }

    /// The value member of the object at `depth` begins under `key`: the name that judges it,
    /// if the name came first and is a sensitive one, and its text.
    mutating func valueBegins(key: String, depth: Int, scan: ArtifactScan) -> (match: NameMatch, nameText: String)? {
        let pair = self.pair(at: depth)
        let index = detail(of: pair)
        details[index].valueKey = key
        judgeName(of: pair, scan: scan)
        guard let match = details[index].match, let text = details[index].nameText else { return nil }
        return (match, text)
    }

    /// Whether the value member of the object at `depth` is read before its name: what the
    /// name will need of it is then kept (`early`).
    func awaitsName(depth: Int) -> Bool {
        guard !open.isEmpty, open.top.depth == depth, open.top.nameStart < 0 else { return false }
        return open.top.detail < 0 || details[open.top.detail].match == nil
    }

    /// Keeps what the name will need of the value read before it.
    mutating func early(_ value: EarlyValue, depth: Int) {
        guard !open.isEmpty, open.top.depth == depth else { return }
        details[detail(of: open.topAddress)].early = value
    }

    /// The name rule a name matches, as a key's, outside the key cache (`ArtifactScan.judgeKey`).
    private static func judge(_ name: UnsafeBufferPointer<UInt8>, scan: ArtifactScan) -> NameMatch? {
        scan.judgeKey(name).name
    }

    /// Judges the name kept for `pair` and lets its bytes go (they end `names`).
    private mutating func judgeName(of pair: UnsafeMutablePointer<Pair>, scan: ArtifactScan) {
        let start = pair.pointee.nameStart
        guard start >= 0 else { return }
        let range = start..<names.count
        if let match = names.withElements(range, { Self.judge($0, scan: scan) }) {
            let index = detail(of: pair)
            details[index].match = match
            details[index].nameText = names.withElements(range) { String(decoding: $0, as: UTF8.self) }
        }
        pair.pointee.nameStart = -1
        names.truncate(to: start)
    }
}
