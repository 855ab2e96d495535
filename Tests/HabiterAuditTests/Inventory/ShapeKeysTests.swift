@testable import AuditDetection
import Testing

/// The key names that make a container's shape, looked up by their bytes (a perfect hash):
/// each name finds its own flag, and a name that is almost one finds none.
@Suite struct ShapeKeysTests {
    static let names: [(String, ShapeKeys)] = [
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

    static func flag(_ name: String) -> ShapeKeys {
        Array(name.utf8).withUnsafeBufferPointer { ShapeKeys.flag(of: $0) }
    }

    @Test func everyNameFindsItsOwnFlag() {
        for (name, flag) in Self.names {
            #expect(Self.flag(name) == flag, "\(name)")
            #expect(flag.rawValue.nonzeroBitCount == 1, "\(name)")
        }
        #expect(Set(Self.names.map(\.1.rawValue)).count == Self.names.count, "no two names share a flag")
    }

    /// Another case, a byte more or fewer, one byte changed, and names of no shape.
    @Test func aNearMissFindsNone() {
        for (name, _) in Self.names {
            var changed = Array(name.utf8)
            changed[changed.count / 2] ^= 0x01
            for miss in [name.uppercased(), name + "s", String(name.dropLast()), String(name.dropFirst()), " " + name,
                         String(decoding: changed, as: UTF8.self)] {
                #expect(Self.flag(miss) == [], "\(miss)")
            }
        }
        for other in ["", "id", "name", "payloads", "entityID", "k0", "flutter.payload"] {
            #expect(Self.flag(other) == [], "\(other)")
        }
    }
}
