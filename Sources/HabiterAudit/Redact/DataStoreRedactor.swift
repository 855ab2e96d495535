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
            let path = DataStoreInputScanner.path(of: entry.key, under: root)
            guard session.plan.leadsSomewhere(path) else { return }
            let value: [UInt8]
            switch entry.value {
            case .string(let text):
                guard let redacted = redact(text, at: path) else { return }
                value = DataStoreWriter.stringValue(redacted)
            case .bytes(let bytes):
                guard let redacted = redact(bytes, at: path) else { return }
                value = DataStoreWriter.bytesValue(redacted)
            case .stringSet(let members):
                let redacted = members.enumerated().map { i, member in redact(member, at: path.appending(.index(i))) }
                guard redacted.contains(where: { $0 != nil }) else { return }
                value = DataStoreWriter.stringSetValue(zip(members, redacted).map { member, new in new ?? member.bytes })
            case .boolean, .float, .integer, .long, .double:
                // Not secret material: a store's finding on it names the key, and the value stays.
                if session.plan.node(at: path)?.wholeRules.isEmpty == false { session.noteWhole(path, ruleId: nil) }
                return
            }
            edits.replace(entry.range, with: DataStoreWriter.entry(key: entry.key, value: value))
        }

        private func redact(_ text: PrefsText, at path: LayeredPath) -> [UInt8]? {
            guard session.plan.node(at: path) != nil, !text.bytes.isEmpty else { return nil }
            return session.redactValue(text.bytes, at: path)
        }
    }
}
