@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditScan
import Foundation
import TestHelpers
import Testing

private typealias D = DataStoreFixture

/// Fake, format-valid secrets (as in RedactFixtures).
private let google = "AIzao-qaOPBnfupBPM1gXwlMNBAcFu1778WMFMx"
private let github = "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"

private let storeName = "files/datastore/FlutterSharedPreferences.preferences_pb"

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.family.rawValue) \(f.context.rawValue) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

/// Remembers the value offset of one key.
private struct OffsetFinder: DataStoreVisitor {
    let key: String
    var offset: Int?
    mutating func entry(_ entry: DataStoreEntry) { if entry.key == key { offset = entry.valueOffset } }
}

/// The offset of the value under `key`, as the reader gives it.
private func valueOffset(of key: String, in bytes: [UInt8]) -> Int? {
    var finder = OffsetFinder(key: key)
    bytes.withUnsafeBytes { buffer in
        var reader = DataStoreReader(buffer)
        try? reader.read(&finder)
    }
    return finder.offset
}

/// DataStore files (`SharedPreferencesAsync` on Android) scanned in prefs context, as an XML
/// export is: name rules, pattern rules, inventory stores, JSON in strings opened as layers.
@Suite struct DataStoreScanTests {
    @Test func theAPIKeyInTheStorageEnvelopeIsFoundAtTheValuesByteOffset() throws {
        let store = D.habiterStore(apiKey: google)
        let result = TestSupport.scan(bytes: store, name: storeName)
        #expect(result.errors.isEmpty)
        let envelope = try #require(valueOffset(of: "habiter_storage_envelope", in: store))
        let key = try #require(result.findings.first { $0.ruleId == "secret.google-api-key" })
        #expect(summary(key) == "secret.google-api-key secret prefs 1:\(envelope + 1) /preferences/habiter_storage_envelope!json/data/habiter_ai_config/apiKey key=apiKey")
        #expect(key.position.byteOffset == envelope)
        // The stores the app keeps there are classified; unknown keys are listed, not reported.
        let stores = Set(result.inventory.compactMap(\.storeId))
        #expect(stores.isSuperset(of: ["habiter_storage_envelope", "habiter_smart_reminders_v1", "habiter_ai_config", "habiter_widget_undo_tokens"]))
        #expect(result.inventory.contains { $0.storeId == nil && $0.name == "launch_count" })
        #expect(result.findings.allSatisfy { $0.context == .prefs && $0.position.line == 1 })
    }

    /// A key is text too (issue 18): a secret used as a key is found at the key's offset and
    /// never shown, in paths, messages or the inventory section.
    @Test func aSecretUsedAsAKeyIsFoundAndMasked() throws {
        let store = D.file([("launch_count", .long(3)), (github, .boolean(true))])
        let result = TestSupport.scan(bytes: store, name: storeName)
        #expect(result.errors.isEmpty)
        let keyOffset = D.entry("launch_count", .long(3)).count + 4
        #expect(result.findings.map(summary) == ["secret.github-token secret prefs 1:\(keyOffset + 1) /preferences/[REDACTED] key=-"])
        for finding in result.findings { #expect(!finding.message.contains(github)) }
        #expect(!result.inventory.contains { $0.name.contains(github) })
    }

    /// A key that is a secret is judged as `[REDACTED]`, never by the words beside the secret:
    /// the value under it is judged by what it holds. Each entry's name is judged once, outside
    /// the key cache; this holds the masked key to its own judgement, in a store and in XML.
    /// The key's provider name would make the value a Cloudflare token (a context rule).
    @Test func aValueUnderASecretKeyIsNotJudgedByTheKeysWords() throws {
        let (key, value) = ("cloudflare_\(github)", ContextRuleTests.token)
        let fromStore = TestSupport.scan(bytes: D.file([(key, .string(value))]), name: storeName)
        let fromXML = TestSupport.scan("<map><string name=\"flutter.\(key)\">\(value)</string></map>", name: "FlutterSharedPreferences.xml")
        #expect(fromStore.errors.isEmpty && fromXML.errors.isEmpty)
        #expect(fromStore.findings.map(\.ruleId) == ["secret.github-token"])
        #expect(fromXML.findings.map(\.ruleId) == ["secret.github-token"])
        // Not a secret, the same key names the provider of its value.
        let plain = TestSupport.scan("<map><string name=\"flutter.cloudflare_zone\">\(value)</string></map>", name: "FlutterSharedPreferences.xml")
        #expect(plain.findings.map(\.ruleId) == ["secret.cloudflare-api-token"])
    }

    @Test func aCleanStoreHasNoFindingAndNoError() {
        let store = D.file([
            ("habiter_smart_reminders_v1", .string(#"{"schemaVersion":1,"preferences":{},"policies":[]}"#)),
            ("classly_last_sync", .long(1_764_489_600_000)), ("habiter_onboarding_v2", .boolean(true)),
            ("reminder_volume", .double(0.5)), ("recent_icons", .string(D.flutterList(["school"]))),
        ])
        let result = TestSupport.scan(bytes: store, name: storeName)
        #expect(result.findings.isEmpty && result.errors.isEmpty)
    }

    /// The same values as a SharedPreferences XML export give the same findings: only the root
    /// of the path (`/flutter.KEY` there, `/preferences/KEY` here) and the position differ.
    @Test func findingsMatchThoseOfTheSameValuesInPrefsXML() throws {
        let values: [(String, String)] = [
            ("habiter_storage_envelope", #"{"schemaVersion":1,"migratedAt":"2026-11-30T08:00:00.000Z","data":{"habiter_ai_config":{"provider":"gemini","apiKey":"\#(google)"}},"quarantine":[]}"#),
            ("note", "the token is \(github)"),
            ("habiter_ai_config", #"{"provider":"gemini","apiKey":""}"#),
            ("recent", D.flutterList(["ok", "password=Tr0ub4dor-K9q!x"])),
        ]
        let store = D.file(values.map { ($0.0, .string($0.1)) })
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n" + values.map { key, value in
            "    <string name=\"flutter.\(key)\">\(String(decoding: PrefsXMLRedactor.escape(Array(value.utf8)), as: UTF8.self))</string>\n"
        }.joined() + "</map>\n"
        func comparable(_ findings: [Finding], root: String) -> [String] {
            findings.map { f in
                "\(f.ruleId) \(f.family.rawValue) \(f.level) \(f.key ?? "-") \(f.pathText.replacingOccurrences(of: root, with: "/ROOT/"))"
            }.sorted()
        }
        let fromStore = TestSupport.scan(bytes: store, name: storeName)
        let fromXML = TestSupport.scan(xml, name: "FlutterSharedPreferences.xml")
        #expect(fromStore.errors.isEmpty && fromXML.errors.isEmpty)
        #expect(fromStore.findings.count >= 3)
        #expect(comparable(fromStore.findings, root: "/preferences/") == comparable(fromXML.findings, root: "/flutter."))
    }

    @Test func setMembersBytesAndListsAreScanned() {
        let legacy = FlutterPrefsEncoding.listPrefix + Data(JavaStringListWriter.serialize([Array("fine".utf8), Array(github.utf8)])).base64EncodedString()
        let store = D.file([
            ("tags", .stringSet(["clean", "token \(github)"])),
            ("blob", .bytes(Array("raw \(github)".utf8))),
            ("recent", .string(D.flutterList(["a", github]))),
            ("old", .string(legacy)),
        ])
        let result = TestSupport.scan(bytes: store, name: storeName)
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.path)" } == [
            "secret.github-token /preferences/tags/1",
            "secret.github-token /preferences/blob",
            "secret.github-token /preferences/recent!list/1",
            "secret.github-token /preferences/old!legacy-list/1",
        ])
    }

    @Test func numbersAndBooleansAreJudgedByTheirNameInSyncDataOnly() {
        let store = D.file([
            ("api_token", .long(42)), ("sync_password", .boolean(true)), ("secret_ratio", .double(0.5)),
            ("token_count", .integer(3)), ("key_float", .float(1)),
        ])
        #expect(TestSupport.scan(bytes: store, name: storeName).findings.isEmpty)
        let sync = TestSupport.scan(bytes: store, name: storeName, options: ScanOptions(context: .sync))
        #expect(sync.findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.key ?? "-")" } == [
            "name.token policy api_token", "name.password policy sync_password", "name.secret policy secret_ratio", "name.token policy token_count",
        ])
        #expect(sync.findings.allSatisfy { $0.message.contains("a number") || $0.message.contains("a boolean") })
    }

    @Test func aMalformedStoreIsAParseErrorWithItsPositionAfterTheEntriesBeforeIt() {
        let good = D.entry("note", .string("token \(github)"))
        let cut = good + Array(D.entry("rest", .string("more")).dropLast(2))
        let result = TestSupport.scan(bytes: cut, name: storeName)
        #expect(result.findings.map(\.ruleId) == ["secret.github-token"])
        #expect(result.errors.map(\.description) == ["\(storeName):1:\(good.count + 2): a length of 14 bytes runs past the end of the input (12 left)"])
        #expect(result.errors.map(\.kind) == [.parse])
        // Content that is not DataStore under a DataStore name: an error, never a pass.
        let json = TestSupport.scan(#"{"a": 1}"#, name: storeName)
        #expect(json.errors.map(\.description) == ["\(storeName):1:1: wire type 3 (DataStore uses varint, 64-bit, length-delimited and 32-bit fields only)"])
    }

    /// Protobuf has no terminator, so a cut between entries is a shorter, valid store; a cut
    /// anywhere else is a parse error on line 1 at the cut's column.
    @Test func everyCutIsAnErrorUnlessItFallsBetweenEntries() {
        let entries = D.habiterStoreEntries(apiKey: "not-a-key")
        var boundaries: Set<Int> = [0]
        var end = 0
        for (key, value) in entries {
            end += D.entry(key, value).count
            boundaries.insert(end)
        }
        let store = D.file(entries)
        for length in 1..<store.count {
            let result = TestSupport.scan(bytes: Array(store[..<length]), name: "cut", options: ScanOptions(inputFormat: .datastore))
            if boundaries.contains(length) {
                #expect(result.errors.isEmpty, "cut at \(length), between entries")
            } else {
                #expect(result.errors.map(\.kind) == [.parse], "cut at \(length)")
                #expect(result.errors.allSatisfy { $0.position.map { $0.line == 1 && $0.column == $0.byteOffset + 1 && $0.byteOffset <= length } == true })
            }
        }
    }

    @Test func theFormatIsDetectedByContentAndCanBeForced() {
        let store = D.entry("note", .string("token \(github)"))
        #expect(TestSupport.scan(bytes: store, name: "-").findings.map(\.ruleId) == ["secret.github-token"])
        let forced = TestSupport.scan(bytes: store, name: "store.bin", options: ScanOptions(inputFormat: .datastore))
        #expect(forced.findings.map(\.ruleId) == ["secret.github-token"])
        let notAStore = TestSupport.scan(#"{"a": 1}"#, name: "x.json", options: ScanOptions(inputFormat: .datastore))
        #expect(notAStore.errors.map(\.description) == ["x.json:1:1: wire type 3 (DataStore uses varint, 64-bit, length-delimited and 32-bit fields only)"])
    }
}
