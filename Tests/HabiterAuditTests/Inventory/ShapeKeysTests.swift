@testable import AuditDetection
import Testing

/// The key names that make a container's shape, looked up by their bytes (a perfect hash):
/// each name finds its own flag, and a name that is almost one finds none.
@Suite struct ShapeKeysTests {
    static func flag(_ name: String) -> ShapeKeys {
        Array(name.utf8).withUnsafeBufferPointer { ShapeKeys.flag(of: $0) }
    }

    @Test func everyNameFindsItsOwnFlag() {
        for (name, flag) in ShapeKeys.names {
            #expect(Self.flag(name) == flag, "\(name)")
            #expect(flag.rawValue.nonzeroBitCount == 1, "\(name)")
        }
        #expect(Set(ShapeKeys.names.map(\.flag.rawValue)).count == ShapeKeys.names.count, "no two names share a flag")
        // The names the shapes are made of (APP-FORMATS.md sections 1, 2 and 5), spelled here too.
        for name in ["entityId", "schemaVersion", "payload", "deleted", "operations", "operationId", "kind", "revision",
                     "document", "changedFields", "changedMetadataFields", "cursor", "entities", "receipts", "salt", "iterations"] {
            #expect(Self.flag(name) != [], "\(name)")
        }
    }

    /// Another case, a byte more or fewer, one byte changed, and names of no shape.
    @Test func aNearMissFindsNone() {
        for (name, _) in ShapeKeys.names {
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
