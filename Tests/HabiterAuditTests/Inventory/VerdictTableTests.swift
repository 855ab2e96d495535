@testable import AuditCore
@testable import AuditDetection
import Testing

/// The inventory's verdicts, read from a flat table by the ranks of class and context, against
/// the nested dictionary they are built from.
@Suite struct VerdictTableTests {
    /// Each rank is the case's place among `allCases`, which is the order `<` promises.
    @Test func ranksAreTheOrderOfAllCases() {
        #expect(DataClass.allCases.map(\.rank) == Array(DataClass.allCases.indices))
        #expect(Verdict.allCases.map(\.rank) == Array(Verdict.allCases.indices))
        #expect(ScanContext.allCases.map(\.rank) == Array(ScanContext.allCases.indices))
    }

    /// Every class in every context, and every pair and the empty list of classes (the strictest
    /// verdict), as the dictionary says; `.error` where it says nothing.
    @Test func verdictsAreTheDictionarysVerdicts() {
        let inventory = TestSupport.builtinPack.inventory
        var sparse = inventory.verdicts
        sparse[.derived]?[.backup] = nil
        sparse[.sensitive] = nil
        for verdicts in [inventory.verdicts, sparse] {
            let table = Inventory(stores: inventory.stores, settings: inventory.settings, verdicts: verdicts)
            for context in ScanContext.allCases {
                #expect(table.verdict(for: [], in: context) == .error)
                for a in DataClass.allCases {
                    let expected = verdicts[a]?[context] ?? .error
                    #expect(table.verdict(for: a, in: context) == expected, "\(a) in \(context)")
                    for b in DataClass.allCases {
                        let strictest = max(expected, verdicts[b]?[context] ?? .error)
                        #expect(table.verdict(for: [a, b], in: context) == strictest, "\(a), \(b) in \(context)")
                    }
                }
            }
        }
    }
}
