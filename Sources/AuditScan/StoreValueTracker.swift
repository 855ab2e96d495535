import AuditCore
import AuditDetection

/// The inventory stores among a JSON scan's members: a store is reported at its value (at its
/// key until the value begins), and the scan notes whether that value holds anything. A
/// container under a store holds nothing until a string in it that is no placeholder says
/// otherwise.
struct StoreValueTracker {
    /// The hit of the current key's store, until its value begins.
    private var pendingHit: Int?
    /// The hit of the store whose value is being read, until its kind is known.
    private var hitForValue: Int?
    /// Stores whose value is an open container: their hit, and the depth of that container.
    private var openContainers: [(hit: Int, depth: Int)] = []

    /// Whether a store's value begins with the next value.
    var isPending: Bool { pendingHit != nil }
    /// Whether the value being read is a store's value itself (not inside it).
    var isStoreValue: Bool { hitForValue != nil }
    /// Whether the value being read is, or is inside, a store's value.
    var isInStore: Bool { hitForValue != nil || !openContainers.isEmpty }

    /// The current key is a store: its hit.
    mutating func keyIsStore(hit: Int) {
        pendingHit = hit
    }

    /// The pending store's value begins at `position`: its hit moves there.
    mutating func valueBegins(at position: SourcePosition, scan: ArtifactScan) {
        guard let hit = pendingHit else { return }
        scan.moveHit(hit, to: position)
        hitForValue = hit
        pendingHit = nil
    }

    /// A scalar value: the store whose value it is holds nothing if `holdsNothing`; a summary
    /// (a number, a boolean, null, a date) is about the store, not the store.
    mutating func scalar(holdsNothing: Bool, isSummary: Bool = false, scan: ArtifactScan) {
        guard let hit = hitForValue else { return }
        scan.noteStoreValue(hit, holdsNothing: holdsNothing, isSummary: isSummary)
        hitForValue = nil
    }

    /// What a string in a store says about it, as the store's verdict asks: a placeholder (a
    /// redacted copy's) holds nothing a secret could be; so does a date, when it is the store's
    /// own value (`isStoreValue`), a summary about the store. JSON's and prefs' stores alike.
    static func kind(of value: UnsafeRawBufferPointer, isStoreValue: Bool) -> (isPlaceholder: Bool, isDate: Bool) {
        let placeholder = value.withMemoryRebound(to: UInt8.self) { Placeholders.isPlaceholder($0) }
        let isDate = isStoreValue && value.count <= 40 && SafeShapes.isDateOrTime(String(decoding: value, as: UTF8.self))
        return (placeholder, isDate)
    }

    /// A string, inside a store's value or as one: a placeholder holds nothing; a date is a
    /// summary.
    mutating func string(isPlaceholder: Bool, isDate: Bool, scan: ArtifactScan) {
        scalar(holdsNothing: isPlaceholder || isDate, isSummary: isDate, scan: scan)
        if !isPlaceholder {
            for open in openContainers { scan.noteStoreValue(open.hit, holdsNothing: false) }
        }
    }

    /// A container opens as a store's value, at `depth` (counting it).
    mutating func containerOpens(depth: Int, scan: ArtifactScan) {
        guard let hit = hitForValue else { return }
        scalar(holdsNothing: true, scan: scan)
        openContainers.append((hit, depth))
    }

    /// The container at `depth` (counting it) closes.
    mutating func containerCloses(depth: Int) {
        if let last = openContainers.last, last.depth == depth { openContainers.removeLast() }
    }

    /// Whether the value being read is in a store of the app's own device-local state (not a
    /// sensitive one): its identifiers (the widget's undo tokens and action ids, UUIDs) are
    /// judged by the store's verdict, not by a name such as `undoToken`.
    func isInDeviceLocalStore(scan: ArtifactScan) -> Bool {
        guard isInStore else { return false }
        if let hit = hitForValue, scan.storeIsSensitive(hit) { return false }
        return !openContainers.contains { scan.storeIsSensitive($0.hit) }
    }

    /// Whether any store's container is open (a cheap test before `containerCloses`).
    var hasOpenContainers: Bool { !openContainers.isEmpty }
}
