/// The input formats `--input-format` accepts; `auto` detects by content.
public enum InputFormat: String, Sendable, CaseIterable {
    case auto, json, ndjson, har
    case prefsXML = "prefs-xml"
    case http
    /// Jetpack DataStore preferences (`*.preferences_pb`, protobuf).
    case datastore
}

/// How to scan, independent of what is scanned.
public struct ScanOptions: Sendable {
    /// A context forced on every value (`--context`); nil decides per file and per value.
    public var context: ScanContext?
    public var inputFormat: InputFormat
    /// Maximum nesting of arrays and objects in one JSON text.
    public var maxDepth: Int
    /// Maximum number of nested embedded layers (JSON in a string in JSON …).
    public var maxLayerDepth: Int
    /// Maximum number of hits that wait for the end of their document (a hit's context depends
    /// on what follows it in the document): bounds the memory one huge document can take.
    public var maxDocumentHits = ScanOptions.defaultMaxDocumentHits
    public static let defaultMaxDocumentHits = 250_000
    /// Request paths that belong to the sync API: a captured call whose path contains one is in
    /// `sync` context.
    public var syncPathMarkers: [String]

    public static let defaultSyncPathMarkers = ["/v1/sync/"]
    /// When set, every secret found gets a keyed digest (`Finding.valueDigest`) to match it
    /// against a baseline made with the same salt.
    public var valueDigester: ValueDigester?

    public init(context: ScanContext? = nil, inputFormat: InputFormat = .auto,
                maxDepth: Int = JSONReader.defaultMaxDepth, maxLayerDepth: Int = 8,
                syncPathMarkers: [String] = ScanOptions.defaultSyncPathMarkers) {
        self.context = context
        self.inputFormat = inputFormat
        self.maxDepth = maxDepth
        self.maxLayerDepth = maxLayerDepth
        self.syncPathMarkers = syncPathMarkers
    }
}
