import AuditBytes

/// Shapes of containers that decide the context of everything inside them (the app's wire
/// formats, `APP-FORMATS.md` sections 1, 2 and 5).
public enum ContainerShape {
    /// `{"schemaVersion":…,"entityId":…,"deleted":…,"payload":…}` or a tombstone.
    case entityDocument
    /// A snapshot's or replica's entity state: `entityId` with `payloadFields`,
    /// `metadataFields` or `lifecycleRevision` (field registers, not a document).
    case entityState
    /// A push body (`{"operations":[…]}`), a pull page (`operations` with `cursor`,
    /// `headOffset`, …), a snapshot (`entities` with `cursor`) or push receipts.
    case syncMessage
    /// An operation: a `document` with `operationId`, `revision` or `changedFields`.
    case syncOperation
    /// The root of a backup export: `schemaVersion`, `exportedAt`, `habits` and `entries`
    /// (what `DataPortabilityService.exportJson` writes), or `"format": "habiter.backup"`.
    case backup
    /// Password-hashing parameters: a `salt` with its `iterations` (the sign-in's login
    /// challenge, a stored password verifier). Implies no context; it makes a `salt` password
    /// verifier material (`name.password-verifier`, see `ArtifactScan.isKDFSalt`).
    case kdfParameters
}

/// Keys of an object that reveal its shape.
public struct ShapeKeys: OptionSet, BitwiseCopyable, Sendable {
    public let rawValue: UInt32
    public static let entityId = ShapeKeys(rawValue: 1 << 0)
    public static let schemaVersion = ShapeKeys(rawValue: 1 << 1)
    public static let payload = ShapeKeys(rawValue: 1 << 2)
    public static let deleted = ShapeKeys(rawValue: 1 << 3)
    public static let protocolVersion = ShapeKeys(rawValue: 1 << 4)
    public static let operations = ShapeKeys(rawValue: 1 << 5)
    public static let operationId = ShapeKeys(rawValue: 1 << 6)
    public static let kind = ShapeKeys(rawValue: 1 << 7)
    static let revision = ShapeKeys(rawValue: 1 << 8)
    public static let document = ShapeKeys(rawValue: 1 << 9)
    static let changedFields = ShapeKeys(rawValue: 1 << 10)
    static let changedMetadataFields = ShapeKeys(rawValue: 1 << 11)
    static let payloadFields = ShapeKeys(rawValue: 1 << 12)
    static let metadataFields = ShapeKeys(rawValue: 1 << 13)
    static let lifecycleRevision = ShapeKeys(rawValue: 1 << 14)
    static let cursor = ShapeKeys(rawValue: 1 << 15)
    static let headOffset = ShapeKeys(rawValue: 1 << 16)
    static let compactionFloor = ShapeKeys(rawValue: 1 << 17)
    static let requiresSnapshot = ShapeKeys(rawValue: 1 << 18)
    static let entities = ShapeKeys(rawValue: 1 << 19)
    static let receipts = ShapeKeys(rawValue: 1 << 20)
    static let exportedAt = ShapeKeys(rawValue: 1 << 21)
    static let habits = ShapeKeys(rawValue: 1 << 22)
    static let entries = ShapeKeys(rawValue: 1 << 23)
    public static let backupFormat = ShapeKeys(rawValue: 1 << 24)
    public static let migratedAt = ShapeKeys(rawValue: 1 << 25)
    public static let quarantine = ShapeKeys(rawValue: 1 << 26)
    static let salt = ShapeKeys(rawValue: 1 << 27)
    static let iterations = ShapeKeys(rawValue: 1 << 28)

    // The sets below are computed, not stored: a stored `static let` made of an array literal
    // is initialised lazily, and every read from another module went through `swift_once`
    // (every JSON key read two of them). Computed, they fold to constants.

    /// Keys whose values the contract checks record.
    public static var documentKeys: ShapeKeys { [
        .entityId, .schemaVersion, .deleted, .payload, .protocolVersion, .migratedAt, .quarantine, .operations,
        .operationId, .kind, .revision, .document, .changedFields, .changedMetadataFields, .payloadFields,
        .metadataFields, .lifecycleRevision,
    ] }
    /// Document keys whose values the contract checks read whole (as a tree).
    public static var capturedMembers: ShapeKeys { [
        .payload, .revision, .changedFields, .changedMetadataFields, .payloadFields, .metadataFields, .lifecycleRevision,
    ] }
    /// The members of an entity document; any other is an additional field (metadata).
    public static var entityDocumentMembers: ShapeKeys { [.schemaVersion, .entityId, .deleted, .payload] }
    /// Keys only a pull page has.
    private static var pullPageKeys: ShapeKeys { [.cursor, .headOffset, .compactionFloor, .requiresSnapshot] }

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The key names and their flags.
    static let names: [(name: String, flag: ShapeKeys)] = [
        ("entityId", .entityId), ("schemaVersion", .schemaVersion), ("payload", .payload), ("deleted", .deleted),
        ("protocolVersion", .protocolVersion), ("operations", .operations), ("operationId", .operationId),
        ("kind", .kind), ("revision", .revision), ("document", .document), ("changedFields", .changedFields),
        ("changedMetadataFields", .changedMetadataFields), ("payloadFields", .payloadFields),
        ("metadataFields", .metadataFields), ("lifecycleRevision", .lifecycleRevision), ("cursor", .cursor),
        ("headOffset", .headOffset), ("compactionFloor", .compactionFloor), ("requiresSnapshot", .requiresSnapshot),
        ("entities", .entities), ("receipts", .receipts), ("exportedAt", .exportedAt), ("habits", .habits),
        ("entries", .entries), ("migratedAt", .migratedAt), ("quarantine", .quarantine), ("salt", .salt),
        ("iterations", .iterations),
    ]
    /// Each name's flag (its raw value) by a perfect hash: a key met for the first time is
    /// judged (`KeyFactsCache`), and an input of a million distinct keys judges a million.
    private static let table = PerfectByteTable(names.map { (key: Array($0.name.utf8), value: Int($0.flag.rawValue)) })

    /// The flag of a key name, or none.
    public static func flag(of key: UnsafeBufferPointer<UInt8>) -> ShapeKeys {
        table.value(key).map { ShapeKeys(rawValue: UInt32($0)) } ?? []
    }

    /// The container shape these keys make, if any. `isTextRoot`: the object is the root of its
    /// JSON text (an input, a line or a body); `isInputRoot`: of the input itself.
    public func shape(isTextRoot: Bool, isInputRoot: Bool) -> ContainerShape? {
        if contains(.entityId) && !isDisjoint(with: [.payloadFields, .metadataFields, .lifecycleRevision]) { return .entityState }
        if contains(.entityId) && !isDisjoint(with: [.schemaVersion, .payload, .deleted]) { return .entityDocument }
        if contains(.document) && !isDisjoint(with: [.operationId, .revision, .changedFields]) { return .syncOperation }
        if contains(.operations) && (isTextRoot || !isDisjoint(with: ShapeKeys.pullPageKeys)) { return .syncMessage }
        if contains(.entities) && contains(.cursor) { return .syncMessage }
        if contains(.receipts) && isTextRoot { return .syncMessage }
        if isInputRoot && (contains(.backupFormat) || isSuperset(of: [.schemaVersion, .exportedAt, .habits, .entries])) { return .backup }
        if contains([.salt, .iterations]) { return .kdfParameters }
        return nil
    }
}
