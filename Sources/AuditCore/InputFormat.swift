/// The input formats `--input-format` accepts; `auto` detects by content.
public enum InputFormat: String, Sendable, CaseIterable {
    case auto, json, ndjson, har
    case prefsXML = "prefs-xml"
    case http
    /// Jetpack DataStore preferences (`*.preferences_pb`, protobuf).
    case datastore
}
