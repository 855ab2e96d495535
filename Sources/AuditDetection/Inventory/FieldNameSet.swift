import AuditBytes
import AuditInputs

/// An operation's list of field names (`changedFields`, `changedMetadataFields`) as a set of
/// names compared by their bytes, as the app compares them: `_validatedChangedFields` makes Dart
/// `Set<String>`s, whose names are equal when their code units are, so two spellings of `café`
/// are two names. The names stay where the captured list holds them. A comparison puts them in
/// a hash table on the stack and looks the other side's names (a document's payload keys) up in
/// it: no `String` is made, nothing sorted and nothing allocated.
struct FieldNameSet {
    /// The list, every element a string, and how many elements it has.
    private let list: CapturedJSON
    private let count: Int

    /// The strings of the array at the list's root (every element a string: the caller checked).
    init(stringsOf list: CapturedJSON) {
        self.list = list
        count = list.count(list.root)
    }

    var isEmpty: Bool { count == 0 }

    /// The distinct names, in byte order.
    var strings: [String] {
        Set(list.children(list.root).map { list.withText($0) { Array($0) } }).sorted { $0.lexicographicallyPrecedes($1) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with each name of the list, in its order, duplicates included.
    func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withExtendedLifetime(list) {
            for element in list.children(list.root) { body(list.textBytes(element)) }
        }
    }

    /// Compares the set with the names `available` gives (each once or more): whether every
    /// name of the set is among them, and whether every one of them is in the set.
    func compare(with available: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> (setIsAvailable: Bool, availableAreInSet: Bool) {
        // An empty list (an operation's `changedMetadataFields`, almost always): nothing to look
        // up, only whether there is anything available, without building a table.
        if count == 0 {
            var noneAvailable = true
            available { _ in noneAvailable = false }
            return (true, noneAvailable)
        }
        // Open addressing, at most half full: each slot holds an element's index or -1.
        var capacity = 8
        while capacity < count * 2 { capacity *= 2 }
        let mask = capacity - 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { slots in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { found in
                slots.initialize(repeating: -1)
                // A duplicate's flag stays true: it is found where its first occurrence is.
                found.initialize(repeating: true)
                return withExtendedLifetime(list) {
                    func slot(of name: UnsafeBufferPointer<UInt8>) -> Int {
                        // The high bits of the fold multiplied once more: the table holds a few
                        // dozen names at most, each compared in full on a hit.
                        var slot = Int(truncatingIfNeeded: (WordHash.fold(name) &* WordHash.multiplier) &>> 32) & mask
                        while slots[slot] >= 0 && !list.textBytes(slots[slot]).equals(name) { slot = (slot + 1) & mask }
                        return slot
                    }
                    // The elements, strings all, are the entries after the root: element `k` is
                    // `root + 1 + k`.
                    let first = list.root + 1
                    for element in list.children(list.root) {
                        let s = slot(of: list.textBytes(element))
                        if slots[s] < 0 {
                            slots[s] = element
                            found[element - first] = false
                        }
                    }
                    var availableAreInSet = true
                    available { name in
                        let s = slot(of: name)
                        if slots[s] >= 0 { found[slots[s] - first] = true } else { availableAreInSet = false }
                    }
                    return (found.allSatisfy { $0 }, availableAreInSet)
                }
            }
        }
    }
}
