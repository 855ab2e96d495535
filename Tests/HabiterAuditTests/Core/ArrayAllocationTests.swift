import AuditBytes
import Testing

/// The arrays made through the growth path (`ArrayAllocation.swift`) are those the standard
/// library's initialisers make.
@Suite struct ArrayAllocationTests {
    @Test func fillingIsRepeating() {
        for count in [0, 1, 2, 7, 64, 1000] {
            #expect([String?](filling: nil, count: count) == [String?](repeating: nil, count: count), "\(count)")
            #expect([String?](filling: "a value", count: count) == [String?](repeating: "a value", count: count), "\(count)")
            #expect([Bool](filling: true, count: count) == [Bool](repeating: true, count: count), "\(count)")
        }
    }

    /// Each capacity, with every length written into it (the room given is the capacity asked
    /// for, not what the allocator rounded it up to).
    @Test func bytesWrittenInPlaceAreTheUninitializedInitialisers() {
        for capacity in [0, 1, 3, 16, 33, 4097] {
            for length in Set([0, capacity / 2, capacity]) {
                var room = -1
                let made = [UInt8](uninitializedCapacity: capacity) { out in
                    room = out.count
                    for i in 0..<length { out[i] = UInt8(truncatingIfNeeded: i &* 31 &+ capacity) }
                    return length
                }
                let plain = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
                    for i in 0..<length { out[i] = UInt8(truncatingIfNeeded: i &* 31 &+ capacity) }
                    count = length
                }
                // Compared apart from the expectation, which would print every byte of both.
                let same = made == plain
                #expect(made.count == plain.count, "capacity \(capacity), length \(length)")
                #expect(same, "capacity \(capacity), length \(length)")
                #expect(room == capacity, "capacity \(capacity)")
                #expect(made.capacity >= capacity)
            }
        }
    }

    /// An array made this way grows and is copied on write as any other.
    @Test func theBytesAreAnOrdinaryArray() {
        var made = [UInt8](uninitializedCapacity: 4) { out in
            out[0] = 1
            out[1] = 2
            return 2
        }
        let copy = made
        made.append(contentsOf: [3, 4, 5, 6, 7])
        #expect(made == [1, 2, 3, 4, 5, 6, 7])
        #expect(copy == [1, 2])
    }
}
