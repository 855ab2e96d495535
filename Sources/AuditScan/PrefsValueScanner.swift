import AuditCore
import AuditDetection
import AuditInputs

/// Judges the values of preferences, whichever store they were read from (a SharedPreferences
/// XML export, a DataStore file): the store a key belongs to, Flutter's encodings undone (JSON
/// and legacy Java string lists, doubles, big integers), strings holding JSON opened as inner
/// layers, and numbers and booleans judged by their name alone.
struct PrefsValueScanner {
    let scan: ArtifactScan
    /// The key findings name the entry by.
    let key: String
    /// What the name rules make of `key`, judged once for the entry and outside the scan's key
    /// cache: a preference's name is met once in its file.
    let judgement: KeyJudgement
    /// Where the store's hits sit: an input, or an export held in a value.
    let placement: PrefsPlacement

    init(scan: ArtifactScan, key: String, judgement: KeyJudgement, placement: PrefsPlacement = .input) {
        self.scan = scan
        self.key = key
        self.judgement = judgement
        self.placement = placement
    }

    init(scan: ArtifactScan, key: String, placement: PrefsPlacement = .input) {
        self.init(scan: scan, key: key, judgement: scan.judgeKey(key), placement: placement)
    }

    /// Records the store the key belongs to (or, in an input, that it is unknown: unsupported,
    /// listed in the inventory section; an encrypted name by its length alone). The paths here
    /// and below are made only for what is found: a path per entry took two allocations and
    /// their release. An unknown key in an export held in a value is not listed: the export's
    /// context is its document's, not yet known, and its known stores are judged in it; nor is
    /// a secure-storage entry there: the dump is reported whole (`secret.secure-storage-dump`),
    /// and its stores are not where they belong.
    ///
    /// `value` is the store's string, `isScalar` says it is a number or a boolean: what it holds
    /// as far as its verdict asks, as for a JSON store. A number, a boolean, a placeholder (a
    /// redacted copy's) or a date about the store holds nothing a secret could be, so a store
    /// where it must not be is a contract violation, not a leaked secret.
    func classify(secure: Bool, path: @autoclosure () -> LayeredPath, offset: Int, value: PrefsText? = nil, isScalar: Bool = false) {
        if secure && !placement.isInput { return }
        if let store = scan.withInventory({ secure ? $0.store(secureStorageKey: key) : $0.store(prefsKey: key) }) {
            var location = placement.location(key: key, at: path())
            location.isSecureStorage = secure
            let hit = scan.recordStore(store, location: location, position: scan.position(of: placement.offset(offset)))
            if isScalar {
                scan.noteStoreValue(hit, holdsNothing: true)
            } else if let value {
                let (placeholder, isDate) = value.bytes.withUnsafeBytes { StoreValueTracker.kind(of: $0, isStoreValue: true) }
                if placeholder || isDate { scan.noteStoreValue(hit, holdsNothing: true, isSummary: isDate) }
            }
        } else if !secure && placement.isInput {
            // An encrypted name is ciphertext: its length is all a reader can use.
            let encrypted = FlutterPrefsEncoding.isEncryptedEntryName(key)
            let name = encrypted ? "encrypted key (\(key.utf8.count) chars)" : key
            let context = scan.options.context ?? .prefs
            scan.recordUnstoredSighting(name: name, context: context) {
                InventorySighting(storeId: nil, name: name, classes: [.unsupported], context: context,
                                  verdict: scan.withInventory { $0.verdict(for: .unsupported, in: context) }, artifact: scan.artifact,
                                  note: encrypted ? "an EncryptedSharedPreferences entry: its name is encrypted, so its store cannot be told"
                                      : "unknown storage key: unsupported until the contract reviews it")
            }
        }
    }

    /// A boolean or a number (`description` says which): not secret material, but in sync
    /// context a sensitive name still fails closed.
    func scanScalar(description: String, path: @autoclosure () -> LayeredPath, offset: Int) {
        guard let match = judgement.name else { return }
        scan.recordNameHit(match, credible: false, valueDescription: description, at: placement.offset(offset),
                           location: placement.location(key: key, at: path()))
    }

    /// A string value, with Flutter's encodings undone.
    func scanString(_ text: PrefsText, path: @autoclosure () -> LayeredPath) {
        switch FlutterPrefsEncoding.decode(text.bytes) {
        case .plain:
            scanValue(text.bytes, path: path(), offset: text.offset)
        case .jsonStringList(let json):
            // A valid JSON array of strings (the decoder checked): judge each like an element.
            guard let list = FlutterPrefsEncoding.strings(inJSONStringList: json) else { return }
            list.bytes.withUnsafeBytes { bytes in
                var start = 0
                for (i, end) in list.ends.enumerated() {
                    scanValue(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), path: path().entering("list").appending(.index(i)), offset: text.offset)
                    start = end
                }
            }
        case .legacyStringList(let strings):
            for (i, string) in strings.enumerated() {
                scanValue(string, path: path().entering("legacy-list").appending(.index(i)), offset: text.offset)
            }
        case .double, .bigInteger:
            break
        case .malformed(let problem):
            // A value that claims a Flutter encoding it does not hold: reported, and scanned as text.
            scan.fail(.parse, at: placement.offset(text.offset), "a value with a Flutter list or number prefix is malformed: \(problem.message); it was scanned as text")
            scanValue(text.bytes, path: path(), offset: text.offset)
        }
    }

    /// A value scanned as it is, with no Flutter encoding to undo (a decoded list element, a
    /// DataStore `bytes` value): its layers and pattern rules, then the key's name rule.
    func scanValue(_ bytes: [UInt8], path: @autoclosure () -> LayeredPath, offset: Int) {
        bytes.withUnsafeBytes { scanValue($0, path: path(), offset: offset) }
    }

    func scanValue(_ value: UnsafeRawBufferPointer, path: @autoclosure () -> LayeredPath, offset: Int) {
        // The key's name rule and context rules, from its judgement (a value too short for any
        // pattern rule needs no context): the prefilter is not run over the key again.
        let context = value.count < scan.rules.patterns.minimumValueLength ? 0 : judgement.facts.contextRules
        // The location made only when something is found.
        scan.scanNamedString(value, name: judgement.name, at: placement.offset(offset), depth: placement.depth, context: context) {
            placement.location(key: key, at: path())
        }
    }
}
