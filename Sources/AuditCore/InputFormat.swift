/// The input formats `--input-format` accepts; `auto` detects by content.
public enum InputFormat: String, Sendable, CaseIterable {
    case auto, json, ndjson, har
    case prefsXML = "prefs-xml"
    case http
    /// Jetpack DataStore preferences (`*.preferences_pb`, protobuf).
    case datastore
    /// mitmproxy's flow files (`mitmdump -w`, tnetstrings).
    case mitmproxy
    /// JSON with `//` and `/* */` comments and trailing commas (`tsconfig.json`, `*.jsonc`).
    case jsonc
    /// Any XML that is not a SharedPreferences `<map>` (manifests, layouts, plists).
    case xml
    /// None of the structured formats: scanned as text with the pattern rules.
    case text

    /// A format as a report names it: `format`, then the text's encoding when it was not UTF-8,
    /// then the compression of the whole input (`har+utf16le+gzip`).
    public static func reportName(_ format: String, encoding: String?, compression: String?) -> String {
        [format, encoding, compression].compactMap { $0 }.joined(separator: "+")
    }
}
