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
        let values = PrefsValueScanner(scan: scan)
        let secureKey = FlutterPrefsEncoding.secureStorageUserKey(name)
        let key = secureKey ?? (name.hasPrefix("flutter.") ? String(name.dropFirst("flutter.".count)) : name)
        let path = scan.rootPath.appending(.key(name))
        values.classify(key, secure: secureKey != nil, path: path, offset: entry.text?.offset ?? entry.nameOffset)
        switch entry.value {
        case .string(let text):
            if secureKey != nil && FlutterPrefsEncoding.looksLikeCiphertext(text.bytes) { return }
            values.scanString(text, key: key, path: path)
        case .set(let members):
            for (i, member) in members.enumerated() { values.scanString(member, key: key, path: path.appending(.index(i))) }
        case .other(_, _, let texts):
            for (i, text) in texts.enumerated() { values.scanString(text, key: key, path: path.appending(.index(i))) }
        case .boolean(let text), .int(let text), .long(let text), .float(let text), .double(let text):
            values.scanScalar(key: key, description: entry.kind == .boolean ? "a boolean" : "a number", path: path, offset: text.offset)
        case .null:
            break
        }
    }
}
