/// Scans Android SharedPreferences XML exports: the file reads as an object keyed by full prefs
/// key (`/flutter.habiter_ai_config!json/apiKey`); a finding's key is the prefs key without the
/// `flutter.` prefix. Flutter's encodings are undone (JSON and legacy Java string lists, doubles,
/// big integers); strings holding JSON become inner layers. In a flutter_secure_storage dump the
/// encrypted values (and the androidx keysets) are not scanned, but a plaintext value under the
/// secure-storage prefix is judged like any other, by its user key.
enum PrefsInputScanner {
    static func scan(_ scan: ArtifactScan, start: Int) {
        var reader = PrefsXMLReader(window: scan.window)
        var visitor = PrefsScanVisitor(scan: scan)
        do {
            try reader.read(&visitor)
        } catch let error as PrefsXMLError {
            if scan.window.failure == nil { scan.fail(.parse, at: error.offset, error.reason.message) }
        } catch {
            scan.fail(.parse, at: nil, "cannot read the SharedPreferences XML")
        }
        scan.finishDocument(defaultContext: .prefs)
    }
}

/// Judges each preference as it is read.
struct PrefsScanVisitor: PrefsXMLVisitor {
    let scan: ArtifactScan

    mutating func entry(_ entry: PrefsEntry) {
        // Entries are independent documents: what one holds never changes how another is judged.
        defer { scan.finishDocument(defaultContext: .prefs) }
        let name = entry.name
        if FlutterPrefsEncoding.isEncryptedPrefsKeyset(name) { return }
        let secureKey = FlutterPrefsEncoding.secureStorageUserKey(name)
        let key = secureKey ?? (name.hasPrefix("flutter.") ? String(name.dropFirst("flutter.".count)) : name)
        let path = scan.rootPath.appending(.key(name))
        classify(key, secure: secureKey != nil, path: path, offset: entry.text?.offset ?? entry.nameOffset)
        switch entry.value {
        case .string(let text):
            if secureKey != nil && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
            scanString(text, key: key, path: path)
        case .set(let members):
            for (i, member) in members.enumerated() { scanString(member, key: key, path: path.appending(.index(i))) }
        case .other(_, _, let texts):
            for (i, text) in texts.enumerated() { scanString(text, key: key, path: path.appending(.index(i))) }
        case .boolean(let text), .int(let text), .long(let text), .float(let text), .double(let text):
            // Not secret material; in sync context a sensitive name still fails closed.
            if let match = nameMatch(key) {
                scan.recordNameHit(match, credible: false, valueDescription: entry.kind == .boolean ? "a boolean" : "a number",
                                   at: text.offset, location: HitLocation(key: key, path: path, ancestry: []))
            }
        case .null:
            break
        }
    }

    /// Records the store the key belongs to (or that it is unknown: unsupported, listed in the
    /// inventory section).
    private func classify(_ key: String, secure: Bool, path: LayeredPath, offset: Int) {
        let inventory = scan.rules.inventory
        if let store = secure ? inventory.store(secureStorageKey: key) : inventory.store(prefsKey: key) {
            var location = HitLocation(key: key, path: path, ancestry: [])
            location.isSecureStorage = secure
            scan.pending.append(PendingHit(detail: .inventory(store: store), location: location, position: scan.position(of: offset)))
        } else if !secure {
            scan.recordSighting(InventorySighting(
                storeId: nil, name: key, classes: [.unsupported], context: scan.options.context ?? .prefs,
                verdict: inventory.verdict(for: [.unsupported], in: scan.options.context ?? .prefs), artifact: scan.artifact,
                note: "unknown storage key: unsupported until the contract reviews it"))
        }
    }

    private func nameMatch(_ key: String) -> NameMatch? {
        scan.nameMatch(key)
    }

    /// A string value, with Flutter's encodings undone.
    private func scanString(_ text: PrefsText, key: String, path: LayeredPath) {
        switch FlutterPrefsEncoding.decode(text.bytes) {
        case .plain:
            scanValue(text.bytes, key: key, path: path, offset: text.offset)
        case .jsonStringList(let json):
            // A valid JSON array of strings (the decoder checked): judge each like an element.
            guard let elements = try? JSONValue.parse(json).value.arrayElements else { return }
            for (i, element) in elements.enumerated() {
                if let string = element.value.stringValue {
                    scanValue(Array(string.utf8), key: key, path: path.entering("list").appending(.index(i)), offset: text.offset)
                }
            }
        case .legacyStringList(let strings):
            for (i, string) in strings.enumerated() {
                scanValue(string, key: key, path: path.entering("legacy-list").appending(.index(i)), offset: text.offset)
            }
        case .double, .bigInteger:
            break
        case .malformed(let problem):
            // A value that claims a Flutter encoding it does not hold: reported, and scanned as text.
            scan.fail(.parse, at: text.offset, "a value with a Flutter list or number prefix is malformed: \(problem.message); it was scanned as text")
            scanValue(text.bytes, key: key, path: path, offset: text.offset)
        }
    }

    private func scanValue(_ bytes: [UInt8], key: String, path: LayeredPath, offset: Int) {
        let location = HitLocation(key: key, path: path, ancestry: [])
        bytes.withUnsafeBytes { value in
            scan.scanNamedString(value, name: nameMatch(key), at: offset, depth: 0) { location }
        }
    }
}
