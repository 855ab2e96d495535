import AuditCore
import AuditInputs
import AuditScan

/// Redacts a DataStore preferences file: entries are copied byte for byte, and an entry whose
/// string, string set member or bytes the plan names is written again around the redacted
/// value (`DataStoreWriter`: key, then value, every enclosing length recomputed). Paths are the
/// scanner's: `/preferences/KEY`, `/preferences/KEY/0` for set members, `!list` and
/// `!legacy-list` for Flutter's list encodings.
struct DataStoreRedactor {
    static func redact(_ input: [UInt8], root: LayeredPath, session: RedactionSession) throws -> [UInt8]? {
        try input.withUnsafeBytes { buffer -> [UInt8]? in
            var reader = DataStoreReader(buffer)
            var visitor = Visitor(session: session, root: root)
            try reader.read(&visitor)
            return visitor.edits.isEmpty ? nil : visitor.edits.applied(to: buffer.bindMemory(to: UInt8.self))
        }
    }

    private struct Visitor: DataStoreVisitor {
        let session: RedactionSession
        let root: LayeredPath
        var edits = ByteEdits()

        mutating func entry(_ entry: DataStoreEntry) {
            var key = entry.key
            var path = DataStoreInputScanner.path(of: entry.key, under: root)
            // A key that is itself a secret: the scanner names the entry `[REDACTED]`.
            let masked = DataStoreInputScanner.path(of: Redaction.maskedKey, under: root)
            var keyChanged = false
            if session.plan.leadsSomewhere(masked), key.utf8.count >= session.rules.patterns.minimumValueLength {
                let bytes = Array(key.utf8)
                let spans = session.secretSpans(in: bytes, at: masked)
                if !spans.isEmpty {
                    path = masked
                    if session.plan.node(at: masked)?.isTarget == true {
                        var keyEdits = ByteEdits()
                        for span in spans { keyEdits.replace(span.range, with: RedactionPlaceholder.bytes(forRule: span.ruleId)) }
                        session.noteWhole(masked, ruleId: spans[0].ruleId)
                        key = String(decoding: keyEdits.applied(to: bytes), as: UTF8.self)
                        keyChanged = true
                    }
                }
            }
            guard keyChanged || session.plan.leadsSomewhere(path) else { return }
            let value = redactedValue(entry.value, at: path)
            guard keyChanged || value != nil else { return }
            edits.replace(entry.range, with: DataStoreWriter.entry(key: key, value: value ?? DataStoreWriter.value(entry.value)))
        }

        /// The entry's `Value` written again around its redacted string, set members or bytes;
        /// nil when nothing in it changes.
        private func redactedValue(_ value: DataStoreValue, at path: LayeredPath) -> [UInt8]? {
            switch value {
            case .string(let text):
                return redact(text, at: path).map(DataStoreWriter.stringValue)
            case .bytes(let bytes):
                return redact(bytes, at: path).map(DataStoreWriter.bytesValue)
            case .stringSet(let members):
                let redacted = members.enumerated().map { i, member in redact(member, at: path.appending(.index(i))) }
                guard redacted.contains(where: { $0 != nil }) else { return nil }
                return DataStoreWriter.stringSetValue(zip(members, redacted).map { member, new in new ?? member.bytes })
            case .boolean, .float, .integer, .long, .double:
                // Not secret material: a store's finding on it names the key, and the value stays.
                if session.plan.node(at: path)?.wholeRules.isEmpty == false { session.noteWhole(path, ruleId: nil) }
                return nil
            }
        }

        private func redact(_ text: PrefsText, at path: LayeredPath) -> [UInt8]? {
            guard session.plan.node(at: path) != nil, !text.bytes.isEmpty else { return nil }
            return session.redactValue(text.bytes, at: path)
        }
    }
}
