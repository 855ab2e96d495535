@testable import AuditCore
@testable import AuditDetection
@testable import AuditScan
import Foundation
import Testing

/// The values the scan remembers as holding nothing (`QuietValues`): the answers are the same
/// with them and without, and a value is skipped only where everything its outcome depends on
/// is the same.
@Suite struct QuietValuesTests {
    static let withoutQuietValues = TestSupport.options(without: \.remembersQuietValues)

    /// Every file of the corpus (sync logs, captures, backups, prefs: their values recur) gives
    /// the same findings and errors, in the same order, with remembered values and without.
    @Test func theAnswersDoNotDependOnRememberedValues() throws {
        #expect(try TestSupport.expectSameAnswersOnTheCorpus(with: Self.withoutQuietValues) > 100)
    }

    static let token = ContextRuleTests.token

    /// A value that held nothing under a neutral key holds a secret under a key that names its
    /// provider: the key's context rules are part of what is remembered.
    @Test func aRepeatUnderAProvidersKeyIsScannedAgain() {
        let text = #"{"mirror": "\#(Self.token)", "CF_API_TOKEN": "\#(Self.token)", "copy": "\#(Self.token)"}"#
        let found = TestSupport.scan(text).findings.filter { $0.ruleId == "secret.cloudflare-api-token" }
        #expect(found.map(\.pathText) == ["/CF_API_TOKEN"])
    }

    /// A value found again where it recurs: only values with nothing in them are remembered.
    @Test func aSecretIsFoundAtEveryRepeat() {
        let key = "AKIA" + "Z7XK2M4QW6RT3PLN"
        let text = #"{"a": "\#(key)", "b": ["\#(key)", "\#(key)"], "c": {"d": "\#(key)"}}"#
        let paths = TestSupport.scan(text).findings.filter { $0.ruleId.hasPrefix("secret.aws") }.flatMap { [$0.pathText] + $0.relatedLocations.map(\.pathText) }
        #expect(Set(paths) == ["/a", "/b/0", "/b/1", "/c/d"])
    }

    @Test func aValueIsRememberedWithItsSettings() {
        let values = QuietValues()
        let settings = QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: nil)
        func isRemembered(_ text: String, _ settings: QuietValues.Settings) -> Bool? {
            Array(text.utf8).withUnsafeBytes { values.lookUp($0, settings)?.isRemembered }
        }
        func remember(_ text: String, _ settings: QuietValues.Settings) {
            Array(text.utf8).withUnsafeBytes { bytes in values.lookUp(bytes, settings).map { values.remember(bytes, $0) } }
        }
        let value = "a value of some length"
        #expect(isRemembered(value, settings) == false)
        remember(value, settings)
        #expect(isRemembered(value, settings) == true)
        for other in [QuietValues.Settings(context: 1, excluded: 0, depth: 0, kind: nil), QuietValues.Settings(context: 0, excluded: 1, depth: 0, kind: nil),
                      QuietValues.Settings(context: 0, excluded: 0, depth: 1, kind: nil), QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: .text)] {
            #expect(isRemembered(value, other) == false)
        }
        // The same length, one byte apart; a prefix.
        for other in ["a value of some lengtH", "a value of some"] {
            remember(other, QuietValues.Settings(context: 0, excluded: 0, depth: 0, kind: .code))
            #expect(isRemembered(other, settings) == false, "\(other)")
        }
        // The table grows to its full size, and a value remembered then is found.
        for i in 0..<(QuietValues.slotCounts.last * 2) { remember("value number \(i)", settings) }
        #expect(values.slotCount == QuietValues.slotCounts.last)
        remember("the last value", settings)
        #expect(isRemembered("the last value", settings) == true)
        // Too short and too long to be kept.
        for other in ["short", String(repeating: "y", count: QuietValues.lengths.upperBound + 1)] {
            #expect(isRemembered(other, settings) == nil)
        }
    }
}
