/// The parts of a HAR 1.2 capture (`log.entries[].request/response`, their headers, cookies,
/// parameters and bodies), followed from the JSON reader's events. It keeps one role per open
/// container and the structure key of the value about to be read, nothing of the values
/// themselves: what a part means for a scan is the scan's business.
public struct HARStructure {
    /// What a container is, in the HAR structure.
    public enum Role: Equatable {
        case root, log, entries, entry, request, response, postData, content, other
        case fieldList(FieldList)
        case field(FieldList)

        public var isField: Bool { if case .field = self { true } else { false } }
    }

    /// The lists of `{"name": …, "value": …}` objects.
    public enum FieldList {
        case requestHeaders, responseHeaders, queryString, requestCookies, responseCookies, params

        public var isCookies: Bool { self == .requestCookies || self == .responseCookies }
        public var isHeaders: Bool { self == .requestHeaders || self == .responseHeaders }
    }

    /// The keys the structure is read by.
    public enum Key {
        case log, entries, request, response, headers, queryString, cookies, postData, content, params
        case url, name, value, text, encoding, mimeType

        /// The spellings by length (a switch, then a comparison or a few, for every key of the
        /// structure).
        init?(_ key: UnsafeBufferPointer<UInt8>) {
            let known: Key? = switch key.count {
            case 3: key.equals("log") ? .log : key.equals("url") ? .url : nil
            case 4: key.equals("name") ? .name : key.equals("text") ? .text : nil
            case 5: key.equals("value") ? .value : nil
            case 6: key.equals("params") ? .params : nil
            case 7: key.equals("entries") ? .entries : key.equals("request") ? .request : key.equals("headers") ? .headers
                : key.equals("cookies") ? .cookies : key.equals("content") ? .content : nil
            case 8: key.equals("response") ? .response : key.equals("postData") ? .postData : key.equals("encoding") ? .encoding
                : key.equals("mimeType") ? .mimeType : nil
            case 11: key.equals("queryString") ? .queryString : nil
            default: nil
            }
            guard let known else { return nil }
            self = known
        }
    }

    private var roles: [Role] = []
    /// The key of the value about to be read, when its container matters to the structure and
    /// the key is one the structure is read by.
    public private(set) var pendingKey: Key?

    public init() {}

    /// The role of the innermost open container; nil outside the root.
    public var current: Role? { roles.last }

    /// A container opens: its role, from its parent's and the key it is the value of.
    public mutating func open(isObject: Bool) -> Role {
        let role = role(opening: isObject)
        pendingKey = nil
        roles.append(role)
        return role
    }

    /// The innermost container closes: its role.
    public mutating func close() -> Role {
        roles.removeLast()
    }

    /// A key of the innermost container.
    public mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) {
        guard let top = roles.last, top != .other else { return }
        pendingKey = escaped ? JSONString.unescaped(raw).withUnsafeBufferPointer { Key($0) } : Key(raw)
    }

    /// A scalar value (string, number, literal) was read: its key no longer pends.
    public mutating func scalarRead() {
        pendingKey = nil
    }

    private func role(opening isObject: Bool) -> Role {
        guard let parent = roles.last else { return isObject ? .root : .other }
        switch (parent, pendingKey) {
        case (.root, .log?): return .log
        case (.log, .entries?): return .entries
        case (.entries, _): return isObject ? .entry : .other
        case (.entry, .request?): return .request
        case (.entry, .response?): return .response
        case (.request, .headers?): return .fieldList(.requestHeaders)
        case (.request, .queryString?): return .fieldList(.queryString)
        case (.request, .cookies?): return .fieldList(.requestCookies)
        case (.request, .postData?): return .postData
        case (.response, .headers?): return .fieldList(.responseHeaders)
        case (.response, .cookies?): return .fieldList(.responseCookies)
        case (.response, .content?): return .content
        case (.postData, .params?): return .fieldList(.params)
        case (.fieldList(let list), _): return isObject ? .field(list) : .other
        default: return .other
        }
    }
}
