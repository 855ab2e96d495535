import AuditBytes
import AuditInputs

/// An operation's list of field names (`changedFields`, `changedMetadataFields`) as a set of
/// names compared by their bytes, as the app compares them: `_validatedChangedFields` makes Dart
/// `Set<String>`s, whose names are equal when their code units are, so two spellings of `café`
/// are two names. The names stay where the captured list holds them. A comparison puts them in
/// a hash table on the stack and looks the other side's names (a document's payload keys) up in
/// it: no `String` is made, nothing sorted and nothing allocated.
///
/// The set is the list itself, an array at a captured tree's root whose every element is a
/// string (the caller checked), read where the tree holds it: a set holding a copy of the tree
/// retained and released its storage at every operation.
enum FieldNameSet {
    static func isEmpty(_ list: CapturedJSON.View) -> Bool { list.descendants(list.root).isEmpty }

    /// Calls `body` with each name of the list, in its order, duplicates included.
    static func forEachName(_ list: CapturedJSON.View, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = list.allChildren(of: list.root) { _, name in
            body(name)
            return true
        }
    }

    /// Compares the set of `list`'s names with the names `available` gives (each once or
    /// more): whether every name of the set is among them, and whether every one of them is in
    /// the set.
    static func compare(_ list: CapturedJSON.View, with available: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void)
        -> (setIsAvailable: Bool, availableAreInSet: Bool) {
        // The root's descendants are its strings.
        let count = list.descendants(list.root).count
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
                for element in first..<(first + count) {
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
