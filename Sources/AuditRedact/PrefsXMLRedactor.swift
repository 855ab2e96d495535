import AuditCore
import AuditInputs

/// Redacts an Android SharedPreferences XML export in place: the file is copied, and only the
/// text of a `<string>` (or of a `<set>` member, or of a text inside another element), an
/// attribute value, a comment or an entry name that the plan names is rewritten, escaped as
/// Android writes it (`&quot;`, `&amp;`, `&lt;`, `&gt;`, control characters as `&#10;`). Paths
/// are the scanner's: `/flutter.KEY`, `/flutter.KEY/0` for set members, `!list` and
/// `!legacy-list` for Flutter's list encodings, `PrefsMarkup.path` for markup. A secret in an
/// element or attribute name cannot be replaced in place (a placeholder is no XML name): it is
/// left, noted, and the verification scan refuses the copy.
struct PrefsXMLRedactor {
    static func redact(_ input: [UInt8], root: LayeredPath, session: RedactionSession) throws -> [UInt8]? {
        try input.withUnsafeBytes { buffer -> [UInt8]? in
            var reader = PrefsXMLReader(buffer)
            var visitor = Visitor(session: session, root: root, input: buffer.bindMemory(to: UInt8.self))
            try reader.read(&visitor)
            return visitor.edits.isEmpty ? nil : visitor.edits.applied(to: buffer.bindMemory(to: UInt8.self))
        }
    }

    private struct Visitor: PrefsXMLVisitor {
        let session: RedactionSession
        let root: LayeredPath
        let input: UnsafeBufferPointer<UInt8>
        var edits = ByteEdits()

        /// The entry being read, when the plan leads into it.
        private var current: (path: LayeredPath, kind: PrefsEntryKind, secure: Bool, isKeyset: Bool)?

        init(session: RedactionSession, root: LayeredPath, input: UnsafeBufferPointer<UInt8>) {
            self.session = session
            self.root = root
            self.input = input
        }

        mutating func entry(_ entry: PrefsEntry) {
            current = nil
            // The scanner's check of the name, read as it reads it, from the name's bytes: its
            // prefixes, and its key, shifted back to the whole name.
            let (secure, isKeyset, key) = entry.nameBytes.withUnsafeBufferPointer { name in
                (FlutterPrefsEncoding.isSecureStorageKey(name), FlutterPrefsEncoding.isEncryptedPrefsKeyset(name), Array(PrefsEntry.key(ofName: name)))
            }
            let start = entry.nameBytes.count - key.count
            let name = entry.name
            let nameSpans = isKeyset ? [] : spans(in: key, at: PrefsEntry.namePath(in: root.appending(.key(Redaction.maskedKey)))).map {
                RedactionSession.Span(range: $0.range.lowerBound + start..<$0.range.upperBound + start, ruleId: $0.ruleId)
            }
            let path = root.appending(.key(nameSpans.isEmpty ? name : Redaction.maskedKey))
            guard session.plan.leadsSomewhere(path) else { return }
            if !nameSpans.isEmpty { redactName(entry, spans: nameSpans, at: PrefsEntry.namePath(in: path)) }
            current = (path, entry.kind, secure, isKeyset)
            // Not secret material: a store's finding on it names the key, and the value stays.
            if !isKeyset && (entry.kind.isScalar || entry.kind == .null), session.plan.node(at: path)?.wholeRules.isEmpty == false {
                session.noteWhole(path, ruleId: nil)
            }
        }

        mutating func part(_ part: PrefsEntryPart) {
            guard let current else { return }
            switch part {
            case .name:
                break
            case .markup(let markup):
                redact(markup, in: current.path)
            case .value(let text, let index?):
                if !current.isKeyset { redact(text, at: current.path.appending(.index(index))) }
            case .value(let text, nil):
                // A scalar's value stays (noted with its entry); ciphertext in secure storage is
                // not scanned, so it is never planned either.
                guard !current.isKeyset, current.kind == .string else { return }
                if current.secure && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
                redact(text, at: current.path)
            }
        }

        mutating func endEntry() {
            current = nil
        }

        mutating func markup(_ markup: PrefsMarkup) {
            redact(markup, in: root)
        }

        /// The secret spans of a name (the scanner's check of entry and attribute names).
        private func spans(in name: [UInt8], at path: LayeredPath) -> [RedactionSession.Span] {
            name.count < session.rules.patterns.minimumValueLength ? [] : session.secretSpans(in: name, at: path)
        }

        private mutating func redact(_ text: PrefsText, at path: LayeredPath) {
            guard session.plan.node(at: path) != nil, !text.bytes.isEmpty,
                  let redacted = session.redactValue(text.bytes, at: path) else { return }
            edits.replace(text.offset..<PrefsXMLRedactor.textEnd(in: input, from: text.offset), with: PrefsXMLRedactor.escape(redacted))
        }

        /// The spans of an entry name replaced in its `name` attribute.
        private mutating func redactName(_ entry: PrefsEntry, spans: [RedactionSession.Span], at path: LayeredPath) {
            guard session.plan.node(at: path)?.isTarget == true else { return }
            var name = ByteEdits()
            for span in spans {
                name.replace(span.range, with: RedactionPlaceholder.bytes(forRule: span.ruleId))
                session.noteWhole(path, ruleId: span.ruleId)
            }
            replaceAttributeValue(at: entry.nameOffset, with: name.applied(to: entry.nameBytes))
        }

        private mutating func redact(_ markup: PrefsMarkup, in entryPath: LayeredPath) {
            switch markup.kind {
            case .attribute:
                let nameIsSecret = !spans(in: markup.name.bytes, at: markup.path(in: entryPath, nameIsSecret: true)).isEmpty
                let path = markup.path(in: entryPath, nameIsSecret: nameIsSecret)
                guard let node = session.plan.node(at: path) else { return }
                if nameIsSecret && node.isTarget { session.noteProblem("a secret in an attribute name at \(path) cannot be replaced in place") }
                guard !markup.text.bytes.isEmpty, let redacted = session.redactValue(markup.text.bytes, at: path) else { return }
                replaceAttributeValue(at: markup.text.offset, with: redacted)
            case .element:
                let path = markup.path(in: entryPath, nameIsSecret: false)
                if session.plan.node(at: path)?.isTarget == true { session.noteProblem("a secret in an element name at \(path) cannot be replaced in place") }
            case .comment:
                let path = markup.path(in: entryPath, nameIsSecret: false)
                guard session.plan.node(at: path) != nil, let redacted = session.redactValue(markup.text.bytes, at: path) else { return }
                // A comment holds no references, so the text is written as it is, if it can be.
                guard PrefsXMLRedactor.isCommentText(redacted) else {
                    return session.noteProblem("the redacted comment at \(path) would not be a comment")
                }
                edits.replace(markup.text.offset..<markup.text.offset + markup.text.bytes.count, with: redacted)
            }
        }

        /// Replaces the attribute value that starts at `offset` (after its quote) with `value`, escaped.
        private mutating func replaceAttributeValue(at offset: Int, with value: [UInt8]) {
            let quote = input[offset - 1]
            let end = input[offset...].firstIndex(of: quote) ?? input.count
            edits.replace(offset..<end, with: PrefsXMLRedactor.escape(value, inAttribute: true))
        }
    }

    /// Whether `text` can stand between `<!--` and `-->`: no `--`, no final `-`, no NUL or other
    /// control character XML forbids (redacted text is valid UTF-8).
    static func isCommentText(_ text: [UInt8]) -> Bool {
        if text.last == UInt8(ascii: "-") { return false }
        for (i, b) in text.enumerated() {
            if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return false }
            if b == UInt8(ascii: "-") && i + 1 < text.count && text[i + 1] == UInt8(ascii: "-") { return false }
        }
        return true
    }

    /// Where the character data starting at `start` ends: at the next tag, skipping CDATA
    /// sections and comments (which may hold `<`).
    static func textEnd(in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        func startsWith(_ text: String, at offset: Int) -> Bool {
            let bytes = Array(text.utf8)
            return offset + bytes.count <= input.count && input[offset..<offset + bytes.count].elementsEqual(bytes)
        }
        while i < input.count {
            guard let lt = input[i...].firstIndex(of: UInt8(ascii: "<")) else { return input.count }
            if startsWith("<![CDATA[", at: lt) {
                i = (find("]]>", in: input, from: lt + 9) ?? input.count - 3) + 3
            } else if startsWith("<!--", at: lt) {
                i = (find("-->", in: input, from: lt + 4) ?? input.count - 3) + 3
            } else {
                return lt
            }
        }
        return input.count
    }

    private static func find(_ text: String, in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let bytes = Array(text.utf8)
        var i = start
        while i + bytes.count <= input.count {
            if input[i..<i + bytes.count].elementsEqual(bytes) { return i }
            i += 1
        }
        return nil
    }

    /// Text content escaped as Android's `FastXmlSerializer` writes it; in an attribute value
    /// `'` too, whichever quote encloses it.
    static func escape(_ value: [UInt8], inAttribute: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        for b in value {
            switch b {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'") where inAttribute: out += Array("&apos;".utf8)
            case 0..<0x20: out += Array("&#\(b);".utf8)
            default: out.append(b)
            }
        }
        return out
    }
}
