import AuditCore
import AuditInputs

/// Layers that name parts of a value: URL query parameters, form pairs, multipart form parts,
/// URL userinfo, Basic credentials and cookies. Only the part a path names is rewritten,
/// percent-encoded (or base64 encoded) the way its kind requires; the rest of the value stays as
/// written. A JSON Web Token is replaced whole.
extension RedactionSession {
    /// `X!query/<name>`: the pairs of the URL's query (`+` as a space).
    func redactQueryLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard value.withUnsafeBytes({ QueryLayerDecoder().decode($0) }) != nil,
              let query = value.withUnsafeBytes({ RedactionSession.queryRange(of: $0) }) else {
            noteProblem("the URL at \(path) has no query to redact")
            return nil
        }
        let edits = redactPairs(value, in: query, separator: UInt8(ascii: "&"), plusAsSpace: true, at: path)
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// The query of a URL the query decoder accepts: after the first `?`, before any `#`.
    static func queryRange(of value: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let first = value.first else { return nil }
        let afterPrefix = first == UInt8(ascii: "/") ? 1 : (QueryLayerDecoder.afterWebScheme(value) ?? 0)
        var question = -1
        var end = value.count
        for i in afterPrefix..<value.count {
            if value[i] == UInt8(ascii: "#") {
                end = i
                break
            }
            if value[i] == UInt8(ascii: "?") && question < 0 { question = i }
        }
        return question >= 0 ? (question + 1)..<end : nil
    }

    /// `X!fragment/<name>`: the pairs of the URL's fragment (`+` as a space), everything after
    /// the first `#`.
    func redactFragmentLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard value.withUnsafeBytes({ FragmentLayerDecoder().decode($0) }) != nil,
              let hash = value.firstIndex(of: UInt8(ascii: "#")) else {
            noteProblem("the URL at \(path) has no fragment to redact")
            return nil
        }
        let edits = redactPairs(value, in: (hash + 1)..<value.count, separator: UInt8(ascii: "&"), plusAsSpace: true, at: path)
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// `X!form/<name>`: a form body or a lone `NAME=value` (which keeps its `+`).
    func redactFormLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard value.withUnsafeBytes({ FormLayerDecoder().decode($0) }) != nil else {
            noteProblem("the value at \(path) is no longer a form")
            return nil
        }
        let parts = value.filter { $0 == UInt8(ascii: "&") }.count + 1
        let edits = redactPairs(value, in: 0..<value.count, separator: UInt8(ascii: "&"), plusAsSpace: parts > 1, at: path)
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// `X!multipart/<name>`: a `multipart/form-data` body, each part's body rewritten where it
    /// stands (a part's body is written as it is, nothing encoded).
    func redactMultipartLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let parts = value.withUnsafeBytes { MultipartLayerDecoder.parts(of: $0).map(Array.init) }
        guard let parts else {
            noteProblem("the value at \(path) is no longer a multipart body")
            return nil
        }
        var edits = ByteEdits()
        for part in parts {
            let partPath = path.appending(.key(String(decoding: value[part.name], as: UTF8.self)))
            guard plan.node(at: partPath) != nil, let redacted = redactValue(Array(value[part.body]), at: partPath) else { continue }
            edits.replace(part.body, with: redacted)
        }
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// Redacts the values of the `name=value` pairs in `range` whose paths the plan names.
    private func redactPairs(_ text: [UInt8], in range: Range<Int>, separator: UInt8, plusAsSpace: Bool, at path: LayeredPath) -> ByteEdits {
        var edits = ByteEdits()
        var partStart = range.lowerBound
        for i in range.lowerBound...range.upperBound where i == range.upperBound || text[i] == separator {
            defer { partStart = i + 1 }
            guard i > partStart, let equals = text[partStart..<i].firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = LayerBytes.percentDecode(text[partStart..<equals], plusAsSpace: plusAsSpace)
            let pairPath = path.appending(.key(String(decoding: name, as: UTF8.self)))
            guard plan.node(at: pairPath) != nil else { continue }
            let raw = text[(equals + 1)..<i]
            let decoded = LayerBytes.percentDecode(raw, plusAsSpace: plusAsSpace)
            guard let redacted = redactValue(decoded, at: pairPath) else { continue }
            // A lone `NAME=value` is an environment assignment as often as a form: its value is
            // written as it reads (only what would end or escape it is encoded). Pairs of a form
            // or a query are percent-encoded: a placeholder wholly, a value changed inside keeping
            // the delimiters it wrote unencoded.
            let literal: Set<UInt8>
            if !plusAsSpace {
                literal = PercentCoding.assignmentValueBytes
            } else if RedactionPlaceholder.isPlaceholder(redacted) {
                literal = []
            } else {
                literal = PercentCoding.literalBytes(in: raw, allowed: PercentCoding.formValueDelimiters, plusAsSpace: true)
            }
            edits.replace((equals + 1)..<i, with: PercentCoding.encode(redacted, literal: literal, spaceAsPlus: plusAsSpace))
        }
        return edits
    }

    /// `X!userinfo/username` and `X!userinfo/password`: the credentials before the `@` of a URL,
    /// at the ranges the decoder read them from (a password may hold a raw `#`, `?`, `/` or `@`).
    func redactUserinfoLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard let (username, password) = value.withUnsafeBytes({ UserinfoLayerDecoder.credentials(in: $0) }) else {
            noteProblem("the URL at \(path) has no userinfo to redact")
            return nil
        }
        var edits = ByteEdits()
        for (name, range) in [("username", username), ("password", password)] {
            let partPath = path.appending(.key(name))
            guard plan.node(at: partPath) != nil else { continue }
            let raw = value[range]
            guard let redacted = redactValue(LayerBytes.percentDecode(raw, plusAsSpace: false), at: partPath) else { continue }
            let allowed = name == "username" ? PercentCoding.subDelimiters : PercentCoding.subDelimiters.union([UInt8(ascii: ":")])
            let literal = RedactionPlaceholder.isPlaceholder(redacted) ? [] : PercentCoding.literalBytes(in: raw, allowed: allowed, plusAsSpace: false)
            edits.replace(range, with: PercentCoding.encode(redacted, literal: literal, spaceAsPlus: false))
        }
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// `X!basic/username` and `X!basic/password`: `Basic <base64 of user:password>`.
    func redactBasicLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let bounds = value.withUnsafeBytes { bytes -> (Int, Int)? in
            guard BasicAuthLayerDecoder().decode(bytes) != nil, let start = LayerBytes.afterAuthScheme(bytes, "basic") else { return nil }
            return (start, LayerBytes.trimmedEnd(bytes, from: start))
        }
        guard let (start, end) = bounds else {
            noteProblem("the value at \(path) is no longer Basic credentials")
            return nil
        }
        let token = value[start..<end]
        let style = Base64Style(of: token)
        guard let credentials = style.decode(token), let colon = credentials.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var username = Array(credentials[..<colon])
        var password = Array(credentials[(colon + 1)...])
        var changed = false
        if let redacted = redactValue(username, at: path.appending(.key("username"))) {
            username = redacted
            changed = true
        }
        if let redacted = redactValue(password, at: path.appending(.key("password"))) {
            password = redacted
            changed = true
        }
        guard changed else { return nil }
        var edits = ByteEdits()
        edits.replace(start..<end, with: style.encode(username + [UInt8(ascii: ":")] + password))
        return edits.applied(to: value)
    }

    /// `X!cookie/<name>`: a `Cookie` header's pairs (`a=1; b=2`), or the first pair of a
    /// `Set-Cookie`; a quoted value keeps its quotes.
    func redactCookieLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        var edits = ByteEdits()
        var partStart = 0
        for i in 0...value.count where i == value.count || value[i] == UInt8(ascii: ";") {
            defer { partStart = i + 1 }
            var nameStart = partStart
            while nameStart < i && (value[nameStart] == 0x20 || value[nameStart] == 0x09) { nameStart += 1 }
            guard let equals = value[nameStart..<i].firstIndex(of: UInt8(ascii: "=")) else { continue }
            let cookiePath = path.appending(.key(String(decoding: value[nameStart..<equals], as: UTF8.self)))
            guard plan.node(at: cookiePath) != nil else { continue }
            var valueStart = equals + 1
            var valueEnd = i
            while valueEnd > valueStart && (value[valueEnd - 1] == 0x20 || value[valueEnd - 1] == 0x09) { valueEnd -= 1 }
            if valueEnd - valueStart >= 2 && value[valueStart] == 0x22 && value[valueEnd - 1] == 0x22 {
                valueStart += 1
                valueEnd -= 1
            }
            if let redacted = redactValue(Array(value[valueStart..<valueEnd]), at: cookiePath) {
                edits.replace(valueStart..<valueEnd, with: redacted)
            }
        }
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// A JSON Web Token (after `Bearer ` or alone) replaced whole by `[REDACTED:jwt]`, whatever
    /// was found in its claims.
    func replaceJWT(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let bounds = value.withUnsafeBytes { bytes -> (Int, Int)? in
            guard JWTLayerDecoder().decode(bytes) != nil else { return nil }
            let start = bytes.first == UInt8(ascii: "e") ? 0 : (LayerBytes.afterAuthScheme(bytes, "bearer") ?? 0)
            return (start, LayerBytes.trimmedEnd(bytes, from: start))
        }
        guard let (start, end) = bounds else {
            noteProblem("the value at \(path) is no longer a JSON Web Token")
            return nil
        }
        var edits = ByteEdits()
        edits.replace(start..<end, with: RedactionPlaceholder.bytes(forRule: RedactionPlaceholder.jwtRule))
        noteWhole(path, ruleId: RedactionPlaceholder.jwtRule)
        return edits.applied(to: value)
    }
}
