@testable import AuditCore
import Testing

/// `String(unsharedCopyOf:)`: what the workers of one shared input each hold.
@Suite struct UnsharedStringTests {
    @Test func aCopyIsEqualAndHasStorageOfItsOwn() throws {
        let original = String(repeating: "builtin:secrets.json/", count: 3)
        let copy = String(unsharedCopyOf: original)
        #expect(copy == original)
        let originalStorage = try #require(StringStorage.address(of: original))
        #expect(StringStorage.address(of: copy) != originalStorage)
        #expect(StringStorage.address(of: original) == originalStorage, "a plain copy shares the storage")
        #expect(String(unsharedCopyOf: "é-short") == "é-short")
    }
}
