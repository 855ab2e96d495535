@testable import AuditDetection
import Testing

extension EntityId {
    /// An entity id with its parts as text, as the tests write them.
    enum Resolved: Equatable {
        case habit(id: String)
        case entry(habitId: String, date: String)
        case setting(key: String)
    }

    /// `parse` of a string's UTF-8, as the tests write entity ids, with the parts made text.
    static func parse(_ text: String) -> Result<Resolved, EntityIdProblem> {
        var text = text
        return text.withUTF8 { id in
            parse(id).map { parsed in
                switch parsed {
                case .habit(let part): .habit(id: part.text(in: id))
                case .entry(let habitId, let date): .entry(habitId: habitId.text(in: id), date: date.text(in: id))
                case .setting(let key): .setting(key: key.text(in: id))
                }
            }
        }
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
        #expect(EntityId.parse("entry/f768064f-9585-47ad-a39e-ed24c2c063fe/2026-02-29") == .failure(.date))
        #expect(EntityId.parse("entry/habit%201/2026-02-28") == .success(.entry(habitId: "habit 1", date: "2026-02-28")))
    }

    /// Parts read eight bytes at a time while they look like UUIDs: any byte at any place of a
    /// UUID gives what decoding and encoding again gives.
    @Test func everyByteAtEveryPlaceOfAUUID() {
        let uuid = Array("f768064f-9585-47ad-a39e-ed24c2c063fe".utf8)
        var disagreements = 0
        for place in uuid.indices {
            for byte in UInt8.min...UInt8.max {
                var part = uuid
                part[place] = byte
                part.withUnsafeBufferPointer { buffer in
                    let expected = EntityId.partByReencoding(buffer)
                    if EntityId.part(0..<buffer.count, of: buffer).map({ $0.text(in: buffer) }) != expected { disagreements += 1 }
                }
            }
        }
        #expect(disagreements == 0)
    }

    /// A part the id spells as it is stands where it is in the id's bytes; one that needs
    /// decoding is decoded.
    @Test func plainPartsAreRangesOfTheId() {
        var id = "entry/f768064f-9585-47ad-a39e-ed24c2c063fe/2026-02-28"
        #expect(id.withUTF8(EntityId.parse) == .success(.entry(habitId: .bytes(6..<42), date: .bytes(43..<53))))
        id = "setting/quiet%20hours"
        #expect(id.withUTF8(EntityId.parse) == .success(.setting(key: .decoded("quiet hours"))))
    }
}
