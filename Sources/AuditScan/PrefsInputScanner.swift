import AuditCore
import AuditInputs

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
        var visitor = PrefsScanVisitor(scan: scan, placement: .input)
        do {
            try reader.read(&visitor)
        } catch let error as PrefsXMLError {
            if scan.window.failure == nil { scan.fail(.parse, at: error.offset, error.reason.message) }
        } catch let limit as DocumentLimit {
            scan.fail(.limit, at: limit.offset, limit.message)
        } catch {
            scan.fail(.parse, at: nil, "cannot read the SharedPreferences XML: \(error)")
        }
        scan.finishDocument(defaultContext: .prefs)
    }
}

extension ArtifactScan {
    /// Reads a SharedPreferences export held in a string or carried as a body (`!xml` with a
    /// `<map>` root: a support upload's `FlutterSharedPreferences.xml`) as a layer in `frame`,
    /// entry by entry as the input is read: `…!xml/flutter.classly_token`. Its stores are judged
    /// in the context of the document that holds it (a credential's store in sync data is an
    /// error, as under a JSON key). When it is not an export after all, forgets what it recorded
    /// and returns false; the value is scanned as text in any case. A DOCTYPE, which the prefs
    /// reader takes in no export, is an input error (`xmlLayerRefusal`).
    func scanPrefsLayer(_ text: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        let mark = (hits: hitMark, errors: errorCount)
        var reader = PrefsXMLReader(window: ByteWindow(whole: text))
        var visitor = PrefsScanVisitor(scan: self, placement: PrefsPlacement(layer: frame))
        do {
            try reader.read(&visitor)
            return true
        } catch {
            return layerReadFailed(error, frame: frame, since: mark, refusal: ArtifactScan.xmlLayerRefusal)
        }
    }
}

/// Judges each preference as it is read, part by part and so in document order: positions
/// resolve forwards (a streaming window cannot go back, and a whole one would count lines again
/// from the start), and an entry costs no memory beyond what its parts found.
struct PrefsScanVisitor: PrefsXMLVisitor {
    let scan: ArtifactScan
    /// The entry being read (its kind and where its name is: the entry itself, kept, would be
    /// copied in and destroyed with its name and value), and what its parts are judged by
    /// (fields of the visitor, not a value copied out for each part).
    private var kind = PrefsEntryKind.null
    private var nameOffset = 0
    /// The name as the pattern rules read it.
    private var nameKey = ""
    private var nameIsSecret = false
    private var isKeyset = false
    private var secure = false
    /// The entry's values, judged by the key findings name the entry by (masked when the name
    /// is a secret).
    private var values: PrefsValueScanner
    /// What the entry's path is made of. The path is made only for what is found, as most
    /// entries find nothing (a path per entry took two allocations and their release), but kept
    /// once made for markup, which can come a million times in one entry.
    private var pathParts = EntryPath(root: LayeredPath(), prefix: "", key: "", isMasked: false)
    private var markupPath: LayeredPath?
    /// Where the export's hits sit, and the path its entries go under.
    private let placement: PrefsPlacement
    private let root: LayeredPath

    /// The input's root path and the entry's name: its plugin prefix and key, or the mask when
    /// the name is a secret. The name is made only with the path (a string for it, longer than
    /// a small string's 15 bytes with the `flutter.` prefix, was allocated at every entry).
    private struct EntryPath {
        let root: LayeredPath
        let prefix: String
        let key: String
        let isMasked: Bool
        var path: LayeredPath { root.appending(.key(isMasked ? Redaction.maskedKey : prefix + key)) }
    }

    init(scan: ArtifactScan, placement: PrefsPlacement) {
        self.scan = scan
        self.placement = placement
        root = placement.root(in: scan)
        values = PrefsValueScanner(scan: scan, key: "", judgement: KeyJudgement(facts: .none, name: nil), placement: placement)
    }

    mutating func entry(_ entry: PrefsEntry) throws {
        (kind, nameOffset) = (entry.kind, entry.nameOffset)
        // Read from the name's bytes: its plugin prefix (secure storage's is checked first, as
        // `FlutterPrefsEncoding.pluginPrefix` does) and its key, judged once (whether the
        // pattern rules match it, its name rule).
        var prefix = ""
        let judgement = entry.nameBytes.withUnsafeBufferPointer { name in
            isKeyset = FlutterPrefsEncoding.isEncryptedPrefsKeyset(name)
            secure = FlutterPrefsEncoding.isSecureStorageKey(name)
            let key = PrefsEntry.key(ofName: name)
            if key.count < name.count { prefix = secure ? FlutterPrefsEncoding.secureStoragePrefix : FlutterPrefsEncoding.sharedPreferencesPrefix }
            nameKey = String(decoding: key, as: UTF8.self)
            return scan.judgeKey(key)
        }
        nameIsSecret = !isKeyset && judgement.facts.matchesPattern
        values = nameIsSecret ? PrefsValueScanner(scan: scan, key: Redaction.maskedKey, placement: placement)
            : PrefsValueScanner(scan: scan, key: nameKey, judgement: judgement, placement: placement)
        pathParts = EntryPath(root: root, prefix: prefix, key: nameKey, isMasked: nameIsSecret)
        markupPath = nil
    }

    /// The name (a secret's hits; the store of an entry whose value has no text of its own), a
    /// value's text (the store, then the value, Flutter's encodings undone), or markup.
    mutating func part(_ part: PrefsEntryPart) throws {
        // The path's parts taken as a local: a path argument made of the visitor's properties
        // would copy the whole visitor into its closure. (Not for markup, whose path is kept.)
        switch part {
        case .name:
            let parts = pathParts
            try scanName()
            if !isKeyset && !kind.isScalar && kind != .string {
                values.classify(secure: secure, path: parts.path, offset: nameOffset)
            }
        case .value(let text, let index?):
            guard !isKeyset else { return }
            let parts = pathParts
            values.scanString(text, path: parts.path.appending(.index(index)))
            try scan.checkDocumentHits(at: text.offset)
        case .value(let text, nil):
            guard !isKeyset else { return }
            let parts = pathParts
            values.classify(secure: secure, path: parts.path, offset: text.offset, value: text, isScalar: kind.isScalar)
            if kind.isScalar {
                values.scanScalar(description: kind == .boolean ? "a boolean" : "a number", path: parts.path, offset: text.offset)
                return
            }
            if secure && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
            values.scanString(text, path: parts.path)
            try scan.checkDocumentHits(at: text.offset)
        case .markup(let markup):
            if markupPath == nil { markupPath = pathParts.path }
            scanMarkup(markup, in: markupPath!, key: values.key)
            try scan.checkDocumentHits(at: markup.offset)
        }
    }

    mutating func endEntry() throws {
        // An input's entries are independent documents: what one holds never changes how
        // another is judged. An export in a value is part of the document that holds it.
        if placement.isInput { scan.finishDocument(defaultContext: .prefs) }
    }

    mutating func markup(_ markup: PrefsMarkup) throws {
        defer { if placement.isInput { scan.finishDocument(defaultContext: .prefs) } }
        scanMarkup(markup, in: root, key: nil)
    }

    /// An entry name the pattern rules match: its hits, at the name (`/[REDACTED]/@name`).
    private func scanName() throws {
        guard nameIsSecret else { return }
        var nameKey = nameKey
        let offset = nameOffset
        let parts = pathParts
        let placement = placement
        _ = nameKey.withUTF8 { bytes in
            scan.scanPatterns(UnsafeRawBufferPointer(bytes), offset: placement.offset(offset)) {
                placement.location(key: nil, at: PrefsEntry.namePath(in: parts.path))
            }
        }
        try scan.checkDocumentHits(at: offset)
    }

    /// Markup of an entry (`key` is the entry's) or of the input: names with the pattern rules,
    /// attribute values and comments as text (layers opened, then the pattern rules).
    func scanMarkup(_ markup: PrefsMarkup, in entryPath: LayeredPath, key: String?) {
        switch markup.kind {
        case .attribute:
            let found = scanPatterns(markup.name, path: markup.path(in: entryPath, nameIsSecret: true))
            scanText(markup.text, key: found ? Redaction.maskedKey : String(decoding: markup.name.bytes, as: UTF8.self),
                     path: markup.path(in: entryPath, nameIsSecret: found))
        case .element:
            _ = scanPatterns(markup.name, path: markup.path(in: entryPath, nameIsSecret: false))
        case .comment:
            scanText(markup.text, key: key, path: markup.path(in: entryPath, nameIsSecret: false))
        }
    }

    /// The pattern rules over a name; whether they found anything.
    private func scanPatterns(_ name: PrefsText, path: @autoclosure () -> LayeredPath) -> Bool {
        name.bytes.withUnsafeBytes { bytes in
            scan.scanPatterns(bytes, offset: placement.offset(name.offset)) { placement.location(key: nil, at: path()) } > 0
        }
    }

    /// `key` and `path` are made only when something is found (a tag of a million attributes
    /// would make a million).
    private func scanText(_ text: PrefsText, key: @autoclosure () -> String?, path: @autoclosure () -> LayeredPath) {
        _ = text.bytes.withUnsafeBytes { bytes in
            scan.scanNamedString(bytes, name: nil, at: placement.offset(text.offset), depth: placement.depth) {
                placement.location(key: key(), at: path())
            }
        }
    }
}
