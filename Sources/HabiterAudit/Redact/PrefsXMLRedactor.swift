/// Redacts an Android SharedPreferences XML export in place: the file is copied, and only the
/// text of a `<string>` (or of a `<set>` member, or of a text inside another element) that the
/// plan names is rewritten, escaped as Android writes it (`&quot;`, `&amp;`, `&lt;`, `&gt;`,
/// control characters as `&#10;`). Paths are the scanner's: `/flutter.KEY`, `/flutter.KEY/0` for
/// set members, `!list` and `!legacy-list` for Flutter's list encodings.
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

        mutating func entry(_ entry: PrefsEntry) {
            if FlutterPrefsEncoding.isEncryptedPrefsKeyset(entry.name) { return }
            let path = root.appending(.key(entry.name))
            guard session.plan.leadsSomewhere(path) else { return }
            let secure = FlutterPrefsEncoding.isSecureStorageKey(entry.name)
            switch entry.value {
            case .string(let text):
                // Ciphertext in secure storage is not scanned, so it is never planned either.
                if secure && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
                redact(text, at: path)
            case .set(let members):
                for (i, member) in members.enumerated() { redact(member, at: path.appending(.index(i))) }
            case .other(_, _, let texts):
                for (i, text) in texts.enumerated() { redact(text, at: path.appending(.index(i))) }
            case .boolean, .int, .long, .float, .double, .null:
                // Not secret material: a store's finding on it names the key, and the value stays.
                if session.plan.node(at: path)?.wholeRules.isEmpty == false { session.noteWhole(path, ruleId: nil) }
            }
        }

        private mutating func redact(_ text: PrefsText, at path: LayeredPath) {
            guard session.plan.node(at: path) != nil, !text.bytes.isEmpty,
                  let redacted = session.redactValue(text.bytes, at: path) else { return }
            edits.replace(text.offset..<PrefsXMLRedactor.textEnd(in: input, from: text.offset), with: PrefsXMLRedactor.escape(redacted))
        }
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

    /// Text content escaped as Android's `FastXmlSerializer` writes it.
    static func escape(_ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        for b in value {
            switch b {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case 0..<0x20: out += Array("&#\(b);".utf8)
            default: out.append(b)
            }
        }
        return out
    }
}
