/// Scans Android SharedPreferences XML exports: the file reads as an object keyed by full prefs
/// key (`/flutter.habiter_ai_config!json/apiKey`); a finding's key is the prefs key without the
/// `flutter.` prefix. Flutter's encodings are undone (JSON and legacy Java string lists, doubles,
/// big integers); strings holding JSON become inner layers. In a flutter_secure_storage dump the
/// encrypted values (and the androidx keysets) are not scanned, but a plaintext value under the
/// secure-storage prefix is judged like any other, by its user key. Markup that holds no value
/// (unknown attributes, comments, names of unknown elements) is scanned too, at the paths
/// `PrefsMarkup.path` gives; an entry name the pattern rules match is a secret, shown as
/// `[REDACTED]` in paths and keys.
enum PrefsInputScanner {
    static func scan(_ scan: ArtifactScan, start: Int) {
        var reader = PrefsXMLReader(window: scan.window)
        var visitor = PrefsScanVisitor(scan: scan)
        do {
            try reader.read(&visitor)
        } catch let error as PrefsXMLError {
            if scan.window.failure == nil { scan.fail(.parse, at: error.offset, error.reason.message) }
        } catch let limit as DocumentLimit {
            scan.fail(.limit, at: limit.offset, limit.message)
        } catch {
            scan.fail(.parse, at: nil, "cannot read the SharedPreferences XML")
        }
        scan.finishDocument(defaultContext: .prefs)
    }
}

/// Judges each preference as it is read. Everything in an entry is scanned in document order,
/// so that positions resolve forwards (a streaming window cannot go back, and a whole one would
/// count lines again from the start).
struct PrefsScanVisitor: PrefsXMLVisitor {
    let scan: ArtifactScan

    mutating func entry(_ entry: PrefsEntry) throws {
        // Entries are independent documents: what one holds never changes how another is judged.
        defer { scan.finishDocument(defaultContext: .prefs) }
        let name = entry.name
        let isKeyset = FlutterPrefsEncoding.isEncryptedPrefsKeyset(name)
        let secure = FlutterPrefsEncoding.isSecureStorageKey(name)
        let nameKey = String(PrefsEntry.key(ofName: name))
        let nameIsSecret = !isKeyset && matchesPattern(nameKey)
        let key = nameIsSecret ? Redaction.maskedKey : nameKey
        let path = scan.rootPath.appending(.key(nameIsSecret ? Redaction.maskedKey : name))
        var markup = MarkupCursor(path: path, key: key)
        let scalarFirst = entry.kind.isScalar && entry.text.map { $0.offset < entry.nameOffset } == true
        if !scalarFirst { try scanName(nameKey, of: entry, isSecret: nameIsSecret, path: path, markup: &markup) }
        if !isKeyset {
            try scanValue(entry, key: key, secure: secure, path: path, markup: &markup)
        }
        if scalarFirst { try scanName(nameKey, of: entry, isSecret: nameIsSecret, path: path, markup: &markup) }
        try scanMarkup(of: entry, before: Int.max, &markup)
    }

    mutating func markup(_ markup: PrefsMarkup) throws {
        defer { scan.finishDocument(defaultContext: .prefs) }
        scanMarkup(markup, in: scan.rootPath, key: nil)
    }

    /// How far the scan of an entry's markup (in document order, as the scan of its value reaches
    /// each part) has come.
    private struct MarkupCursor {
        let path: LayeredPath
        let key: String
        var next = 0
    }

    /// Scans the entry's markup that begins before `offset`.
    private func scanMarkup(of entry: PrefsEntry, before offset: Int, _ cursor: inout MarkupCursor) throws {
        let markup = entry.markup
        while cursor.next < markup.count && markup[cursor.next].offset < offset {
            scanMarkup(markup[cursor.next], in: cursor.path, key: cursor.key)
            try scan.checkDocumentHits(at: markup[cursor.next].offset)
            cursor.next += 1
        }
    }

    /// An entry name the pattern rules match: its hits, at the name (`/[REDACTED]/@name`).
    private func scanName(_ key: String, of entry: PrefsEntry, isSecret: Bool, path: LayeredPath, markup: inout MarkupCursor) throws {
        try scanMarkup(of: entry, before: entry.nameOffset, &markup)
        guard isSecret else { return }
        var key = key
        _ = key.withUTF8 { bytes in
            scan.scanPatterns(UnsafeRawBufferPointer(bytes), offset: entry.nameOffset) {
                HitLocation(key: nil, path: PrefsEntry.namePath(in: path), ancestry: [])
            }
        }
        try scan.checkDocumentHits(at: entry.nameOffset)
    }

    /// The entry's store, then its value, with the markup that comes before each part.
    private func scanValue(_ entry: PrefsEntry, key: String, secure: Bool, path: LayeredPath, markup: inout MarkupCursor) throws {
        let values = PrefsValueScanner(scan: scan)
        let storeOffset = entry.text?.offset ?? entry.nameOffset
        try scanMarkup(of: entry, before: storeOffset, &markup)
        values.classify(key, secure: secure, path: path, offset: storeOffset)
        switch entry.value {
        case .string(let text):
            if secure && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
            values.scanString(text, key: key, path: path)
            try scan.checkDocumentHits(at: text.offset)
        case .set(let members):
            for (i, member) in members.enumerated() {
                try scanMarkup(of: entry, before: member.offset, &markup)
                values.scanString(member, key: key, path: path.appending(.index(i)))
                try scan.checkDocumentHits(at: member.offset)
            }
        case .other(_, _, let texts):
            for (i, text) in texts.enumerated() {
                try scanMarkup(of: entry, before: text.offset, &markup)
                values.scanString(text, key: key, path: path.appending(.index(i)))
                try scan.checkDocumentHits(at: text.offset)
            }
        case .boolean(let text), .int(let text), .long(let text), .float(let text), .double(let text):
            values.scanScalar(key: key, description: entry.kind == .boolean ? "a boolean" : "a number", path: path, offset: text.offset)
        case .null:
            break
        }
    }

    /// Markup of an entry (`key` is the entry's) or of the input: names with the pattern rules,
    /// attribute values and comments as text (layers opened, then the pattern rules).
    func scanMarkup(_ markup: PrefsMarkup, in entryPath: LayeredPath, key: String?) {
        switch markup.kind {
        case .attribute:
            let found = scanPatterns(markup.name, path: markup.path(in: entryPath, nameIsSecret: true))
            let attributeName = found ? Redaction.maskedKey : String(decoding: markup.name.bytes, as: UTF8.self)
            scanText(markup.text, key: attributeName, path: markup.path(in: entryPath, nameIsSecret: found))
        case .element:
            _ = scanPatterns(markup.name, path: markup.path(in: entryPath, nameIsSecret: false))
        case .comment:
            scanText(markup.text, key: key, path: markup.path(in: entryPath, nameIsSecret: false))
        }
    }

    /// Whether the pattern rules match `key` (a limit reached counts: the scan of the name then
    /// reports it), asked before anything is recorded.
    private func matchesPattern(_ key: String) -> Bool {
        guard key.utf8.count >= scan.rules.patterns.minimumValueLength else { return false }
        var key = key
        return key.withUTF8 { bytes in
            var found = false
            do {
                try scan.rules.patterns.scan(UnsafeRawBufferPointer(bytes), matcher: scan.matcher, scratch: &scan.patternScratch) { _ in found = true }
            } catch {
                return true
            }
            return found
        }
    }

    /// The pattern rules over a name; whether they found anything.
    private func scanPatterns(_ name: PrefsText, path: @autoclosure () -> LayeredPath) -> Bool {
        name.bytes.withUnsafeBytes { bytes in
            scan.scanPatterns(bytes, offset: name.offset) { HitLocation(key: nil, path: path(), ancestry: []) } > 0
        }
    }

    private func scanText(_ text: PrefsText, key: String?, path: LayeredPath) {
        text.bytes.withUnsafeBytes { bytes in
            scan.scanNamedString(bytes, name: nil, at: text.offset, depth: 0) { HitLocation(key: key, path: path, ancestry: []) }
        }
    }
}
