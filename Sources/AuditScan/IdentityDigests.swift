/// The identities of one worker's findings (`FingerprintIdentity`) as sorted hashes: what the
/// merge of a shared input needs to tell whether two workers found the same identity. Equal
/// identities have equal hashes, so when no two workers' lists share a hash, no identity is
/// shared; a hash shared by chance costs only the recount that a shared identity costs.
///
/// Each worker makes its list beside the others, and frees its identities' dictionary there
/// too. The merge, on one thread after the workers, walks sorted lists once. When it looked each
/// identity up in another worker's dictionary, and the dictionaries were freed after it, the
/// merge and the scan's end after it took 5.8 and 8.2 ms of a `--jobs 2` scan of the 100 MB
/// bench HAR (18,000 findings; two runs of seven, uprobes); with the lists, 3.0 and 2.7 ms.
struct IdentityDigests: Sendable, Equatable {
    /// The identities' hash values, ascending; of this process (the workers of one scan share
    /// it), never stored.
    let sorted: [Int]

    init(_ identities: some Sequence<FingerprintIdentity>) {
        sorted = identities.map(\.hashValue).sorted()
    }

    /// Whether any two of `lists` share a hash.
    static func anyTwoShare(_ lists: [IdentityDigests]) -> Bool {
        for (index, list) in lists.enumerated() {
            for other in lists[(index + 1)...] where list.shares(with: other) { return true }
        }
        return false
    }

    /// Whether the two sorted lists have a hash in common, in one walk through both.
    func shares(with other: IdentityDigests) -> Bool {
        var (i, j) = (0, 0)
        let (a, b) = (sorted, other.sorted)
        while i < a.count && j < b.count {
            if a[i] == b[j] { return true }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return false
    }
}
