import AuditBytes
import AuditCore
import AuditInputs

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
    /// Request paths of a sync API other than the app's (`syncPaths` in the configuration): a
    /// captured call whose path contains one is in `sync` context. The app's own calls are
    /// recognised without them, by the end of their path (`HabiterAPI`): `…/v1/push`, `…/v1/pull`
    /// and `…/v1/snapshot` are sync calls, its sign-in and metadata calls never are.
    public var syncPathMarkers: [String]

    /// `/v1/sync/` is no path the app calls: it is kept for captures of earlier test servers and
    /// prototypes (the labelled corpus has them), where it still means sync data, and it cannot
    /// misjudge the app's calls, which never hold it. A configured `syncPaths` replaces it.
    public static let defaultSyncPathMarkers = ["/v1/sync/"]
    /// When set, every secret found gets a keyed digest (`Finding.valueDigest`) to match it
    /// against a baseline made with the same salt.
    public var valueDigester: ValueDigester?
    /// The size from which one NDJSON or HAR file is scanned by several workers when `--jobs`
    /// leaves some idle (`ScanShare`): below it, starting them costs more than they save.
    public var minimumSharedBytes = 16 << 20
    /// Whether a string value in which nothing was found is remembered, and not scanned again
    /// where it recurs with the same settings (`QuietValues`). Off only to show that the answers
    /// do not depend on it.
    public var remembersQuietValues = true
    /// Whether a layer's JSON text is read with a visitor that read one before in full
    /// (`ArtifactScan.takeLayerVisitor`). Off only to show that the answers do not depend on it.
    public var reusesLayerVisitors = true
    /// Whether the string that carries a layer is located only when something in the layer asks
    /// for it (`LayerOrigin`), not as the layer opens. Off only to show that the answers do not
    /// depend on it.
    public var locatesLayersWhenAsked = true
    /// Whether a HAR body declared base64 takes the base64 decoder's look at it from the scan of
    /// its text (`ArtifactScan.base64RecognisedOutside`), not asking the decoder again when
    /// `content` closes. Off only to show that the answers do not depend on it.
    public var keepsBase64Verdicts = true
    /// Whether a quiet name hit (the value no secret) in a JSON text is recorded by the parts of
    /// its location (`JSONPathTracker.appendQuietHit`), not through a `HitLocation` made for it.
    /// Off only to show that the answers do not depend on it.
    public var recordsQuietHitsByParts = true

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
