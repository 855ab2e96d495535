/// What is known about a container once it has closed, for the hits inside it.
struct ContainerFacts {
    var shape: ContainerShape?
    /// A context the reader decided for everything inside (a HAR entry to the sync API).
    var context: ScanContext?
    /// `transport` when the protocol carries what is inside (a credential header, a token
    /// exchange's bodies).
    var carrier: Family?
    /// Everything inside is a protocol field (a header, cookie or parameter), not sync data.
    var isProtocolField = false
    /// The name of the value inside: a HAR header's `name`, for the hits in its `value`.
    var valueName: String?
}

/// Shapes of containers that decide the context of everything inside them.
enum ContainerShape {
    /// `{"schemaVersion":…,"entityId":…,"payload":…}` or a tombstone.
    case entityDocument
    /// A push or pull body: `protocolVersion` with `operations` or `changes`.
    case syncMessage
    /// A push operation or pull change: a `document` with `operationId`, `idempotencyKey` or
    /// `serverRevision`.
    case syncOperation
    /// The root of a backup file: `"format": "habiter.backup"`.
    case backup
}

/// Keys of an object that reveal its shape.
struct ShapeKeys: OptionSet {
    let rawValue: UInt16
    static let entityId = ShapeKeys(rawValue: 1 << 0)
    static let schemaVersion = ShapeKeys(rawValue: 1 << 1)
    static let payload = ShapeKeys(rawValue: 1 << 2)
    static let deleted = ShapeKeys(rawValue: 1 << 3)
    static let protocolVersion = ShapeKeys(rawValue: 1 << 4)
    static let operations = ShapeKeys(rawValue: 1 << 5)
    static let changes = ShapeKeys(rawValue: 1 << 6)
    static let operationId = ShapeKeys(rawValue: 1 << 7)
    static let idempotencyKey = ShapeKeys(rawValue: 1 << 8)
    static let document = ShapeKeys(rawValue: 1 << 9)
    static let serverRevision = ShapeKeys(rawValue: 1 << 10)
    static let backupFormat = ShapeKeys(rawValue: 1 << 11)
    static let migratedAt = ShapeKeys(rawValue: 1 << 12)
    static let quarantine = ShapeKeys(rawValue: 1 << 13)

    /// Keys whose values the contract checks record.
    static let documentKeys: ShapeKeys = [.entityId, .schemaVersion, .deleted, .payload, .protocolVersion, .migratedAt, .quarantine]

    init(rawValue: UInt16) { self.rawValue = rawValue }

    private static let names: [([UInt8], ShapeKeys)] = ([
        ("entityId", .entityId), ("schemaVersion", .schemaVersion), ("payload", .payload),
        ("deleted", .deleted), ("protocolVersion", .protocolVersion), ("operations", .operations),
        ("changes", .changes), ("operationId", .operationId), ("idempotencyKey", .idempotencyKey),
        ("document", .document), ("serverRevision", .serverRevision), ("migratedAt", .migratedAt),
        ("quarantine", .quarantine),
    ] as [(String, ShapeKeys)]).map { (Array($0.0.utf8), $0.1) }

    /// The flag of a key name, or none.
    static func flag(of key: UnsafeBufferPointer<UInt8>) -> ShapeKeys {
        guard key.count >= 7 && key.count <= 15 else { return [] }
        for (name, flag) in names where name.count == key.count {
            if name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }) { return flag }
        }
        return []
    }

    /// The container shape these keys make, if any.
    func shape(isRoot: Bool) -> ContainerShape? {
        if contains(.entityId) && !isDisjoint(with: [.schemaVersion, .payload, .deleted]) { return .entityDocument }
        if contains(.protocolVersion) && !isDisjoint(with: [.operations, .changes]) { return .syncMessage }
        if contains(.document) && !isDisjoint(with: [.operationId, .idempotencyKey, .serverRevision]) { return .syncOperation }
        if isRoot && contains(.backupFormat) { return .backup }
        return nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
