import AuditBytes

/// A set of field names (an operation's `changedFields`, its document's payload keys) as a sorted
/// array without duplicates. The checks compare two such sets per operation; hashing every name
/// into `Set<String>`s cost more than a tenth of a push body's scan, sorting a few short names
/// and merging them costs a fraction of that. `String`'s order agrees with its equality, so the
/// answers are `Set<String>`'s.
struct FieldNameSet: Equatable {
    private(set) var names: [String]

    /// `names` is consumed: a list made for the set is sorted in place, not copied.
    init(_ names: consuming [String]) {
        var sorted = names
        // The app writes its field lists sorted (`APP-FORMATS.md`): such a list is taken as it
        // is, after one comparison per name (a payload's keys are found unsorted within a few).
        if sorted.indices.dropFirst().allSatisfy({ sorted[$0 - 1] < sorted[$0] }) {
            self.names = sorted
            return
        }
        sorted.sort()
        var unique = 0
        for i in sorted.indices where unique == 0 || sorted[i] != sorted[unique - 1] {
            sorted.swapAt(unique, i)
            unique += 1
        }
        sorted.truncate(to: unique)
        self.names = sorted
    }

    var isEmpty: Bool { names.isEmpty }

    func isSubset(of other: FieldNameSet) -> Bool {
        guard names.count <= other.names.count else { return false }
        var j = 0
        for name in names {
            while j < other.names.count && other.names[j] < name { j += 1 }
            guard j < other.names.count, other.names[j] == name else { return false }
            j += 1
        }
        return true
    }
}
