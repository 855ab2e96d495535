@testable import AuditCore
import Foundation
import Testing

/// The built-in check ids have one source, `BuiltinCheck` (and `SpecialRule` for pack rules the
/// code treats specially): the rule files describe exactly those checks, and no other source
/// file spells one.
@Suite struct BuiltinCheckTests {
    @Test func everyBuiltinCheckIsDescribedByAContractOrInventoryRule() {
        let pack = TestSupport.builtinPack
        for check in BuiltinCheck.allCases {
            let kind = pack.rule(id: check.rawValue)?.kind
            #expect(kind == .contract || kind == .inventory, "\(check.rawValue): \(String(describing: kind))")
        }
        let described = Set(pack.rules.filter { $0.kind == .contract || $0.kind == .inventory }.map(\.id))
        #expect(described == Set(BuiltinCheck.allCases.map(\.rawValue)))
    }

    @Test func everySpecialRuleIsInTheBuiltinPack() {
        for rule in SpecialRule.allCases {
            #expect(TestSupport.builtinPack.rule(id: rule.rawValue) != nil, "\(rule.rawValue)")
        }
    }

    /// A check's id written as a literal anywhere else would be a second source.
    @Test func noOtherSourceFileSpellsABuiltinId() throws {
        let sources = TestSupport.repoRoot.appendingPathComponent("Sources")
        let ids = BuiltinCheck.allCases.map(\.rawValue) + SpecialRule.allCases.map(\.rawValue)
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        for case let file as URL in files where file.pathExtension == "swift"
            && !["BuiltinCheck.swift", "BuiltinRuleFiles.swift"].contains(file.lastPathComponent) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for id in ids { #expect(!text.contains("\"\(id)\""), "\(file.lastPathComponent) spells \(id)") }
            checked += 1
        }
        #expect(checked > 100)
    }
}
