import AuditCore
import AuditInputs

/// Scans Jetpack DataStore preferences files, where Flutter's `SharedPreferencesAsync` keeps
/// the app's main stores on Android: the file reads as the `preferences` map of its protobuf
/// (`/preferences/habiter_storage_envelope!json/data/habiter_ai_config/apiKey`), keyed by the
/// key as the app wrote it (no `flutter.` prefix), and is judged in prefs context as an XML
/// export is. Strings go through Flutter's encodings (a `List<String>` is a string behind the
/// list prefix); `bytes` values are scanned as they are; numbers and booleans by their name.
/// Positions are byte offsets: line 1, column offset + 1.
public enum DataStoreInputScanner {
    static func scan(_ scan: ArtifactScan, start: Int) {
        scan.window.isBinary = true
        var reader = DataStoreReader(window: scan.window)
        var visitor = DataStoreScanVisitor(scan: scan)
        do {
            try reader.read(&visitor)
        } catch let error as DataStoreError {
            if scan.window.failure == nil { scan.fail(.parse, at: error.offset, error.reason.message) }
        } catch {
            scan.fail(.parse, at: nil, "cannot read the DataStore preferences file: \(error)")
        }
        scan.finishDocument(defaultContext: .prefs)
    }

    /// The layered path of a preference: `/preferences/<key>`, after the protobuf's map field
    /// (the scanner and the redactor build it alike).
    public static func path(of key: String, under root: LayeredPath) -> LayeredPath {
        root.appending(.key("preferences")).appending(.key(key))
    }
}

/// Judges each preference as it is read.
struct DataStoreScanVisitor: DataStoreVisitor {
    let scan: ArtifactScan

    mutating func entry(_ entry: DataStoreEntry) {
        // Entries are independent documents: what one holds never changes how another is judged.
        defer { scan.finishDocument(defaultContext: .prefs) }
        // The key judged once (a preference's name is met once in its file).
        let judgement = scan.judgeKey(entry.key)
        // A key that is itself a secret: found where it stands, and shown as `[REDACTED]` in
        // the entry's paths, messages and inventory (its value is then judged by what it holds).
        var found = 0
        if judgement.facts.matchesPattern {
            var key = entry.key
            let masked = DataStoreInputScanner.path(of: Redaction.maskedKey, under: scan.rootPath)
            found = key.withUTF8 { bytes in
                scan.scanPatterns(UnsafeRawBufferPointer(bytes), offset: entry.keyOffset) { HitLocation(key: nil, path: masked, ancestry: []) }
            }
        }
        let values = found > 0 ? PrefsValueScanner(scan: scan, key: Redaction.maskedKey)
            : PrefsValueScanner(scan: scan, key: entry.key, judgement: judgement)
        let path = DataStoreInputScanner.path(of: values.key, under: scan.rootPath)
        // The store first, told what the value holds, then the value.
        switch entry.value {
        case .string(let text):
            values.classify(secure: false, path: path, offset: entry.valueOffset, value: text)
            values.scanString(text, path: path)
        case .stringSet(let members):
            values.classify(secure: false, path: path, offset: entry.valueOffset)
            for (i, member) in members.enumerated() { values.scanString(member, path: path.appending(.index(i))) }
        case .bytes(let bytes):
            values.classify(secure: false, path: path, offset: entry.valueOffset)
            values.scanValue(bytes.bytes, path: path, offset: bytes.offset)
        case .boolean:
            values.classify(secure: false, path: path, offset: entry.valueOffset, isScalar: true)
            values.scanScalar(description: "a boolean", path: path, offset: entry.valueOffset)
        case .float, .integer, .long, .double:
            values.classify(secure: false, path: path, offset: entry.valueOffset, isScalar: true)
            values.scanScalar(description: "a number", path: path, offset: entry.valueOffset)
        }
    }
}
