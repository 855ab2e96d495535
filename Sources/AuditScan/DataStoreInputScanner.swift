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
        let values = PrefsValueScanner(scan: scan)
        var key = entry.key
        // A key that is itself a secret: found where it stands, and shown as `[REDACTED]` in
        // the entry's paths, messages and inventory (its value is then judged by what it holds).
        let found = Array(key.utf8).withUnsafeBufferPointer { bytes in
            guard scan.keyFacts(bytes).matchesPattern else { return 0 }
            let masked = DataStoreInputScanner.path(of: Redaction.maskedKey, under: scan.rootPath)
            return scan.scanPatterns(UnsafeRawBufferPointer(bytes), offset: entry.keyOffset) { HitLocation(key: nil, path: masked, ancestry: []) }
        }
        if found > 0 { key = Redaction.maskedKey }
        let path = DataStoreInputScanner.path(of: key, under: scan.rootPath)
        values.classify(key, secure: false, path: path, offset: entry.valueOffset)
        switch entry.value {
        case .string(let text):
            values.scanString(text, key: key, path: path)
        case .stringSet(let members):
            for (i, member) in members.enumerated() { values.scanString(member, key: key, path: path.appending(.index(i))) }
        case .bytes(let bytes):
            values.scanValue(bytes.bytes, key: key, path: path, offset: bytes.offset)
        case .boolean:
            values.scanScalar(key: key, description: "a boolean", path: path, offset: entry.valueOffset)
        case .float, .integer, .long, .double:
            values.scanScalar(key: key, description: "a number", path: path, offset: entry.valueOffset)
        }
    }
}
