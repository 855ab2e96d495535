@testable import AuditBytes
import Testing

/// A call through `Unretained` reaches the object and adds no reference to it, during the call
/// or after it (a strong reference, as a plain call holds one, would make it shared).
@Suite struct UnretainedTests {
    final class Counter {
        var calls = 0
    }

    @Test func aCallReachesTheObjectWithoutRetainingIt() {
        var counter = Counter()
        let unretained = Unretained(counter)
        let uniqueDuringTheCall = unretained.call { object -> Bool in
            object.calls += 1
            return isKnownUniquelyReferenced(&counter)
        }
        #expect(uniqueDuringTheCall)
        #expect(counter.calls == 1)
        #expect(isKnownUniquelyReferenced(&counter))
    }
}
