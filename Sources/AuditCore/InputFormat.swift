/// The input formats `--input-format` accepts; `auto` detects by content.
public enum InputFormat: String, Sendable, CaseIterable {
    case auto, json, ndjson, har
    case prefsXML = "prefs-xml"
    case http
    /// Jetpack DataStore preferences (`*.preferences_pb`, protobuf).
    case datastore
    /// JSON with `//` and `/* */` comments and trailing commas (`tsconfig.json`, `*.jsonc`).
    case jsonc
    /// Any XML that is not a SharedPreferences `<map>` (manifests, layouts, plists).
    case xml
    /// None of the structured formats: scanned as text with the pattern rules.
    case text
}
