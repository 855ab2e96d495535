@testable import AuditDetection
import Testing

extension EntityId {
    /// `parse` of a string's UTF-8, as the tests write entity ids.
    static func parse(_ text: String) -> Result<EntityId, EntityIdProblem> {
        var text = text
        return text.withUTF8(parse)
    }
}

/// An entity id's parts are checked byte by byte against what `encodeURIComponent` leaves as it
/// is, by a bit table computed without branches.
@Suite struct EntityIdTests {
    @Test func theBitTableIsEncodeURIComponentsUnreservedSet() {
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'()".utf8)
        for b in UInt8.min...UInt8.max {
            #expect(EntityId.unreservedBit(b) == (unreserved.contains(b) ? 1 : 0), "byte \(b)")
        }
    }

    @Test func partsOfUnreservedBytesAreTakenAsTheyAre() {
        #expect(EntityId.parse("habit/f768064f-9585-47ad-a39e-ed24c2c063fe") == .success(.habit(id: "f768064f-9585-47ad-a39e-ed24c2c063fe")))
        #expect(EntityId.parse("setting/quiet_hours") == .success(.setting(key: "quiet_hours")))
        #expect(EntityId.parse("setting/quiet%20hours") == .success(.setting(key: "quiet hours")))
        #expect(EntityId.parse("setting/quiet hours") == .failure(.encoding))
        #expect(EntityId.parse("setting/caf\u{E9}") == .failure(.nonCanonical))
    }
}
