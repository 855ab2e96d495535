import AuditBytes
import AuditInputs

/// An operation's list of field names (`changedFields`, `changedMetadataFields`) as a set of
/// names compared by their bytes, as the app compares them: `_validatedChangedFields` makes Dart
/// `Set<String>`s, whose names are equal when their code units are, so two spellings of `café`
/// are two names. The names stay where the captured list holds them; the set is their places
/// there in byte order, without duplicates. The app writes its lists sorted (`APP-FORMATS.md`), so
/// most are taken as they are. The names a list is compared with (a document's payload keys)
/// are looked up in it one by one: neither side is made into `String`s, nor the other sorted.
struct FieldNameSet {
    /// The list, every element a string, kept so that `names` stay valid: its distinct names,
    /// in its memory, in byte order.
    private let list: CapturedJSON
    private var names: [UnsafeBufferPointer<UInt8>] = []

    /// The strings of the array at `i` (every element a string: the caller checked).
    init(stringsOf i: Int, in tree: CapturedJSON) {
        list = tree
        names.reserveCapacity(tree.count(i))
        for element in tree.children(i) { names.append(tree.textBytes(element)) }
        if names.indices.dropFirst().allSatisfy({ names[$0 - 1].byteOrder(names[$0]) < 0 }) { return }
        names.sort { $0.byteOrder($1) < 0 }
        var unique = 0
        for i in names.indices where unique == 0 || names[i].byteOrder(names[unique - 1]) != 0 {
            names.swapAt(unique, i)
            unique += 1
        }
        names.removeSubrange(unique...)
    }

    var isEmpty: Bool { names.isEmpty }

    /// The names, in byte order.
    var strings: [String] { withExtendedLifetime(list) { names.map { String(decoding: $0, as: UTF8.self) } } }

    /// Compares the set with the names `available` gives (each once or more): whether every
    /// name of the set is among them, and whether every one of them is in the set.
    func compare(with available: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> (setIsAvailable: Bool, availableAreInSet: Bool) {
        var availableAreInSet = true
        let setIsAvailable = withUnsafeTemporaryAllocation(of: Bool.self, capacity: names.count) { found in
            found.initialize(repeating: false)
            withExtendedLifetime(list) {
                available { name in
                    // A binary search of the sorted names.
                    var (low, high) = (0, names.count)
                    while low < high {
                        let middle = (low + high) / 2
                        let order = names[middle].byteOrder(name)
                        if order == 0 {
                            found[middle] = true
                            return
                        }
                        if order < 0 { low = middle + 1 } else { high = middle }
                    }
                    availableAreInSet = false
                }
            }
            return found.allSatisfy { $0 }
        }
        return (setIsAvailable, availableAreInSet)
    }
}
