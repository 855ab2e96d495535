@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// How the text report words its summary and shows the inventory (issue 22): counts read
/// naturally, names are never cut, an encrypted entry name is shown by its length.
@Suite struct ReportWordingTests {
    static func input(findingsIn artifacts: [String], of inputs: [String], inventory: [InventoryEntry] = []) -> ReportInput {
        let findings = artifacts.map { artifact in
            Finding(ruleId: "secret.jwt", level: .error, family: .secret, message: "m", key: nil, context: .payload,
                    inventoryClass: nil, artifact: artifact, position: SourcePosition(line: 1, column: 1, byteOffset: 0),
                    path: LayeredPath(), confidence: .high, preview: "", fingerprint: "0")
        }
        let result = ScanResult(findings: findings, errors: [],
                                artifacts: inputs.map { ArtifactSummary(name: $0, format: "json", byteCount: 1) }, inventory: inventory)
        return ReportInput(result: result, rules: [], exitCode: findings.isEmpty ? 0 : 1, failOn: .error)
    }

    @Test(arguments: [
        ([], ["a"], "No findings in 1 input. Gate passed."),
        ([], ["a", "b"], "No findings in 2 inputs. Gate passed."),
        (["a"], ["a"], "1 finding (1 error) in 1 input. Gate failed (--fail-on error)."),
        (["a", "b"], ["a", "b"], "2 findings (2 errors) in 2 inputs. Gate failed (--fail-on error)."),
        (["a"], ["a", "b"], "1 finding (1 error) in 1 of 2 inputs. Gate failed (--fail-on error)."),
    ])
    func summaryLineReadsNaturally(_ findingsIn: [String], _ inputs: [String], _ expected: String) {
        #expect(TextReport.summaryLine(Self.input(findingsIn: findingsIn, of: inputs)) == expected)
    }

    @Test func inventoryNamesAreShownWhole() {
        let long = "settings snapshot: classly_authentication_refresh_material_quarantine_v2"
        let entries = [
            InventoryEntry(storeId: "a", name: "short", classes: [.deviceLocal], contexts: [.prefs], verdict: .note, artifacts: ["a"], notes: ["why"]),
            InventoryEntry(storeId: "b", name: long, classes: [.sensitive], contexts: [.backup], verdict: .error, artifacts: ["a"], notes: []),
        ]
        let text = TextReport.render(Self.input(findingsIn: [], of: ["a"], inventory: entries), colour: false)
        let width = TextReport.inventoryNameColumn
        #expect(long.count > width)
        // The long name on a line of its own, its columns aligned with the others' below it.
        #expect(text.contains("\n  \(long)\n  \(String(repeating: " ", count: width + 2))error    sensitive in backup\n"))
        #expect(text.contains("\n  \("short".padding(toLength: width + 2))note     device-local in prefs\n"))
    }

    @Test func encryptedEntryNamesAreShownByTheirLength() throws {
        let url = TestSupport.repoRoot.appendingPathComponent("corpus/prefs/FlutterSecureStorage-encrypted-prefs.xml")
        let result = TestSupport.scan(bytes: Array(try Data(contentsOf: url)), name: "FlutterSecureStorage.xml")
        #expect(result.errors.isEmpty)
        #expect(result.inventory.map(\.name).sorted() == ["encrypted key (120 chars)", "encrypted key (136 chars)", "encrypted key (140 chars)"])
        #expect(result.inventory.allSatisfy { $0.notes == ["an EncryptedSharedPreferences entry: its name is encrypted, so its store cannot be told"] })
    }

    @Test func anEncryptedNameIsTinkCiphertextInBase64() {
        // Tink's prefix 1, a key id, a synthetic IV and a name: 0x01 then 25 bytes.
        let ciphertext = [UInt8(1), 0x31, 0x50, 0xA2, 0x8A] + (0..<21).map { UInt8($0 * 37 & 0xFF) }
        let name = Data(ciphertext).base64EncodedString()
        #expect(FlutterPrefsEncoding.isEncryptedEntryName(name))
        #expect(!FlutterPrefsEncoding.isEncryptedEntryName(Data([UInt8(2)] + ciphertext.dropFirst()).base64EncodedString()), "not Tink's prefix")
        #expect(!FlutterPrefsEncoding.isEncryptedEntryName(Data(ciphertext.prefix(21)).base64EncodedString()), "too short for an IV and a name")
        #expect(!FlutterPrefsEncoding.isEncryptedEntryName(Data("A plain preference key, base64".utf8).base64EncodedString()))
        #expect(!FlutterPrefsEncoding.isEncryptedEntryName("habiter_storage_envelope"))
        #expect(!FlutterPrefsEncoding.isEncryptedEntryName(FlutterPrefsEncoding.secureStoragePrefix + "token"))
    }
}
