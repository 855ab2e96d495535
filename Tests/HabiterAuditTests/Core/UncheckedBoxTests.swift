@testable import AuditBytes
import Testing

/// The box the scan's per-value state lives in: changed in place, and what it holds released
/// with it.
@Suite struct UncheckedBoxTests {
    private final class Tracked {}

    @Test func changesItsValueInPlace() {
        let box = UncheckedBox<[Int]>([])
        for i in 0..<1_000 { box.value.append(i) }
        #expect(box.value.count == 1_000 && box.value.last == 999)
        box.value.removeAll(keepingCapacity: true)
        #expect(box.value.isEmpty && box.value.capacity >= 1_000, "the array was changed in place, not copied")
    }

    @Test func releasesWhatItHoldsWithIt() {
        weak var tracked: Tracked?
        do {
            let object = Tracked()
            tracked = object
            let box = UncheckedBox([object])
            #expect(box.value.count == 1)
        }
        #expect(tracked == nil)
    }
}
