import AuditCore
import AuditInputs
import AuditScan

/// Redacts one JSON text (an input, an NDJSON line, a HAR, JSON held in a string) by copying it
/// and replacing only the string values (and keys) the plan names: indentation, key order,
/// number spelling and escapes elsewhere stay exactly as written, so a HAR still opens in a HAR
/// viewer and the output differs from the input only where something was redacted.
///
/// Paths are built as the scanner builds them: JSON Pointer tokens from `root`, and a key that
/// is itself a secret (a pattern rule matches it) stands as `[REDACTED]`. A subtree that no
/// planned path leads into is walked without looking anything up.
struct JSONTextRedactor {
    /// Redacts `text`; nil when nothing changes. Throws the reader's error when `text` is not
    /// one JSON text.
    static func redact(_ text: UnsafeRawBufferPointer, root: LayeredPath, session: RedactionSession,
                       maxDepth: Int = JSONReader.defaultMaxDepth) throws -> [UInt8]? {
        var visitor = Visitor(session: session, root: root, style: JSONEscapeStyle(of: text))
        var reader = JSONReader(text, maxDepth: maxDepth)
        try reader.readText(&visitor)
        guard !visitor.edits.isEmpty else { return nil }
        return visitor.edits.applied(to: text.bindMemory(to: UInt8.self))
    }

    static func redact(_ text: [UInt8], root: LayeredPath, session: RedactionSession,
                       maxDepth: Int = JSONReader.defaultMaxDepth) throws -> [UInt8]? {
        try text.withUnsafeBytes { try redact($0, root: root, session: session, maxDepth: maxDepth) }
    }

    private struct Container {
        var path: LayeredPath
        var isObject: Bool
        var nextIndex = 0
        /// Something planned lies at or below this container.
        var hot: Bool
        /// The whole container is a planned value (a sensitive store holding an object or an
        /// array): every string in it is replaced with this rule's placeholder.
        var wholeRule: String?
    }

    private struct Visitor: JSONVisitor {
        let session: RedactionSession
        let root: LayeredPath
        let style: JSONEscapeStyle
        var edits = ByteEdits()
        private var containers: [Container] = []
        /// The path token of the next value in the innermost object (nil in a cold container).
        private var pendingKey: PathToken?
        private var keyScratch: [UInt8] = []

        init(session: RedactionSession, root: LayeredPath, style: JSONEscapeStyle) {
            self.session = session
            self.root = root
            self.style = style
        }

        /// The path of the value about to be read, or nil when nothing planned can be there.
        private mutating func nextValuePath() -> LayeredPath? {
            guard let top = containers.last else { return root }
            if top.isObject {
                defer { pendingKey = nil }
                guard top.hot || top.wholeRule != nil, let key = pendingKey else { return nil }
                return top.path.appending(key)
            }
            let index = top.nextIndex
            containers[containers.count - 1].nextIndex += 1
            return top.hot || top.wholeRule != nil ? top.path.appending(.index(index)) : nil
        }

        private var inheritedWholeRule: String? { containers.last?.wholeRule }

        private mutating func open(isObject: Bool) {
            let path = nextValuePath()
            var wholeRule = inheritedWholeRule
            var hot = false
            if let path {
                hot = session.plan.leadsSomewhere(path)
                if wholeRule == nil, let node = session.plan.node(at: path), !node.wholeRules.isEmpty {
                    wholeRule = session.wholeValueRule(node)
                    session.noteWhole(path, ruleId: nil)
                }
            }
            containers.append(Container(path: path ?? root, isObject: isObject, hot: hot, wholeRule: wholeRule))
        }

        mutating func objectStart(at offset: Int) throws { open(isObject: true) }
        mutating func arrayStart(at offset: Int) throws { open(isObject: false) }
        mutating func objectEnd(at offset: Int) throws { containers.removeLast() }
        mutating func arrayEnd(at offset: Int) throws { containers.removeLast() }

        mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
            guard let top = containers.last, top.hot || top.wholeRule != nil else {
                pendingKey = nil
                return
            }
            keyScratch.removeAll(keepingCapacity: true)
            if escaped { JSONString.unescape(raw, into: &keyScratch) } else { keyScratch.append(contentsOf: raw) }
            let key = keyScratch
            // A key the pattern rules match is a secret: the scanner shows it as `[REDACTED]`.
            var spans: [RedactionSession.Span] = []
            if key.count >= session.rules.patterns.minimumValueLength {
                spans = session.secretSpans(in: key, at: top.path.appending(.key(Redaction.maskedKey)))
            }
            guard !spans.isEmpty else {
                pendingKey = .key(String(decoding: key, as: UTF8.self))
                return
            }
            let maskedPath = top.path.appending(.key(Redaction.maskedKey))
            pendingKey = .key(Redaction.maskedKey)
            guard session.plan.node(at: maskedPath)?.isTarget == true else { return }
            var keyEdits = ByteEdits()
            for span in spans { keyEdits.replace(span.range, with: RedactionPlaceholder.bytes(forRule: span.ruleId)) }
            session.noteWhole(maskedPath, ruleId: spans[0].ruleId)
            let start = offset + 1
            edits.replace(start..<start + raw.count, with: style.escape(keyEdits.applied(to: key)))
        }

        mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) throws {
            let whole = inheritedWholeRule
            guard let path = nextValuePath() else { return }
            let start = offset + 1
            if let whole {
                let placeholder = RedactionPlaceholder.bytes(forRule: whole)
                if !raw.elementsEqual(placeholder) {
                    edits.replace(start..<start + raw.count, with: placeholder)
                    session.noteWhole(path, ruleId: whole)
                }
                return
            }
            guard session.plan.node(at: path) != nil else { return }
            var value: [UInt8] = []
            if escaped { JSONString.unescape(raw, into: &value) } else { value = Array(raw) }
            if let redacted = session.redactValue(value, at: path) {
                edits.replace(start..<start + raw.count, with: style.escape(redacted))
            }
        }

        mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws { scalar() }
        mutating func literal(_ value: JSONLiteral, at offset: Int) throws { scalar() }

        /// A number, boolean or null: never replaced; under a planned path it is settled as is.
        private mutating func scalar() {
            guard let path = nextValuePath() else { return }
            if session.plan.node(at: path)?.wholeRules.isEmpty == false { session.noteWhole(path, ruleId: nil) }
        }
    }
}
