@testable import AuditBytes
@testable import AuditDetection
import Testing

/// The perfect-hash table of the inventory's stores, held to a dictionary: every key finds its
/// first value, anything else finds nothing. A hash that cannot tell some keys apart makes the
/// build search for seeds without end, so the suite has a time limit.
@Suite(.timeLimit(.minutes(1))) struct PerfectByteTableTests {
    /// Random vocabularies (empty keys, duplicates, keys of 1 to 80 bytes, few and many) and
    /// near misses of each key: one byte changed, one more or one fewer.
    @Test func findsExactlyWhatADictionaryFinds() {
        var generator = SeededGenerator(seed: 23)
        for round in 0..<300 {
            let size = round < 10 ? round : Int.random(in: 0...400, using: &generator)
            var entries: [(key: [UInt8], value: Int)] = []
            for i in 0..<size {
                let length = Int.random(in: 0...(i % 7 == 0 ? 80 : 16), using: &generator)
                var key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                // Keys alike but for a byte, and duplicates with another value.
                if i > 0 && i % 5 == 0, let earlier = entries.randomElement(using: &generator)?.key {
                    key = earlier
                    if !key.isEmpty && i % 10 == 0 { key[key.count - 1] ^= 1 }
                }
                entries.append((key, i))
            }
            var expected: [[UInt8]: Int] = [:]
            for entry in entries where expected[entry.key] == nil { expected[entry.key] = entry.value }
            let table = PerfectByteTable(entries)
            #expect(table.count == expected.count)
            #expect(table.slotCount <= max(8, 4 * expected.count), "the table stays compact")
            for (key, value) in expected {
                #expect(key.withUnsafeBufferPointer { table.value($0) } == value)
                var misses = [key + [0x61], Array(key.dropLast())]
                if !key.isEmpty {
                    var changed = key
                    changed[Int.random(in: 0..<key.count, using: &generator)] &+= 1
                    misses.append(changed)
                }
                for miss in misses {
                    #expect(miss.withUnsafeBufferPointer { table.value($0) } == expected[miss])
                }
            }
        }
    }

    /// Keys that differ only in one high byte of their last eight: a hash whose low bits never
    /// see that byte puts them in one slot under every seed.
    @Test func keysThatDifferOnlyInAHighByte() {
        for length in [4, 8, 15, 16] {
            let keys = (0...255).map { byte -> [UInt8] in
                var key = [UInt8](repeating: 0x61, count: length)
                key[length - 1] = UInt8(byte)
                return key
            }
            let table = PerfectByteTable(keys.enumerated().map { ($1, $0) })
            #expect(table.count == 256)
            #expect(table.slotCount == 512, "keys one slot apart, not spread over more slots")
            for (i, key) in keys.enumerated() {
                #expect(key.withUnsafeBufferPointer { table.value($0) } == i)
            }
        }
    }

    /// The inventory's lookups through it, name by name, against the stores' own lists.
    @Test func theInventoryFindsEveryStoreByItsNames() {
        let inventory = TestSupport.builtinPack.inventory
        for (i, store) in inventory.stores.enumerated() {
            for key in store.prefsKeys {
                #expect(inventory.store(prefsKey: key).map { inventory.stores[$0].prefsKeys.contains(key) } == true, "\(key)")
                #expect(inventory.store(prefsKey: key) ?? i <= i, "the first store naming \(key) keeps it")
            }
            for key in store.secureStorageKeys {
                #expect(inventory.store(secureStorageKey: key).map { inventory.stores[$0].secureStorageKeys.contains(key) } == true, "\(key)")
            }
            for field in store.jsonFields {
                let found = Array(field.utf8).withUnsafeBufferPointer { inventory.store(jsonField: $0) }
                #expect(found != nil && found == inventory.store(jsonField: field), "\(field)")
            }
        }
        #expect(inventory.store(prefsKey: "habiter_habits_") == nil)
        #expect(inventory.store(jsonField: "") == nil)
    }
}
