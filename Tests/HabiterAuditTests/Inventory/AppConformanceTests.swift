@testable import AuditDetection
@testable import AuditInputs
@testable import AuditReport
import Testing

/// The contract as the real app (marius4lui/habiter) and its sync server check it: the app's
/// sensitive-name rule, canonical entity ids, date-times as Dart writes them, operations, push
/// bodies, snapshot entity states, backups as `exportJson` writes them, and the app's stores.
@Suite struct AppConformanceTests {
    typealias S = ContractSamples

    static func ruleIds(_ text: String, name: String = "input.json") -> [String] {
        let outcome = TestSupport.scan(text, name: name)
        #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.description))")
        return outcome.findings.map(\.ruleId)
    }

    @Test(arguments: ["token", "accessToken", "tokenizer", "notokens", "SECRET", "secretary", "password", "credentials",
                      "apiKey", "api_key", "apiXkey", "API-KEY", "apikey", "api\u{e9}key"])
    func theAppsSensitiveNames(_ name: String) {
        #expect(AppSensitiveName.matches(name))
    }

    @Test(arguments: ["session", "auth", "verifier", "pwd", "passcode", "privateKey", "apiXYkey", "api", "key", "tok", "name"])
    func namesTheAppAllows(_ name: String) {
        #expect(!AppSensitiveName.matches(name))
    }

    /// A payload key is a SharedPreferences key when its code units start with a plugin's
    /// prefix, as the plugins write and read them (`'flutter.' + key`, `startsWith`): a
    /// combining mark right after `flutter.` leaves it one, though `String.hasPrefix`, which
    /// compares characters, says otherwise.
    @Test(arguments: [("flutter.habits", true), ("flutter.", true), ("flutter.\u{301}x", true), ("flutte", false),
                      ("\u{1E1F}lutter.x", false), ("f\u{307}lutter.x", false), ("Flutter.x", false), ("x", false), ("", false),
                      (FlutterPrefsEncoding.secureStoragePrefix + "k", true), ("V", false), ("\u{212A}ey", false)])
    func prefsKeysAreTheirCodeUnitsPrefix(_ name: String, _ isPrefsKey: Bool) {
        var name = name
        #expect(name.withUTF8 { FlutterPrefsEncoding.pluginPrefix(of: $0) != nil } == isPrefsKey, "\(name)")
    }

    @Test(arguments: [("habit/a-b", true), ("habit/a%2Fb", true), ("habit/a%2fb", false), ("habit/a%2db", false),
                      ("habit/%C3%A9", true), ("habit/\u{e9}", false), ("habit/a:b", false), ("habit/a%3Ab", true),
                      ("habit/!~*'()", true), ("habit/%20", false), ("entry/h%201/2026-01-31", true)])
    func entityIdsAreCanonical(_ id: String, _ canonical: Bool) {
        let parsed = EntityId.parse(id)
        if canonical { #expect((try? parsed.get()) != nil, "\(id)") } else { #expect((try? parsed.get()) == nil, "\(id)") }
    }

    /// The one-pass reading of an id part (`EntityId.part`) agrees with decoding and encoding
    /// again (`partByReencoding`), and both with `decodeURIComponent` and `encodeURIComponent`
    /// written out here, on every part of up to three pieces from a set that holds each class of
    /// byte: unreserved, reserved, blank, raw and escaped non-ASCII, good and bad escapes.
    @Test func idPartsAgreeWithDecodingAndEncodingAgain() {
        let pieces = ["a", "Z", "9", "-", "~", "!", "*", "(", "%", "2", "f", "%2F", "%2f", "%41", "%7E", "%C3%A9", "%C3",
                      "\u{e9}", " ", "+", "?", "#", "\u{7F}", ":", "%20", "%E2%80%83", "\u{2003}", "%EF%BB%BF", "%0"]
        let hexDigits = Array("0123456789ABCDEFabcdef".utf8)
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'()".utf8)
        func reference(_ part: [UInt8]) -> Result<String, EntityIdProblem> {
            var decoded: [UInt8] = []
            var i = 0
            while i < part.count {
                let b = part[i]
                if b == UInt8(ascii: "%") {
                    guard i + 2 < part.count, let high = hexDigits.firstIndex(of: part[i + 1]), let low = hexDigits.firstIndex(of: part[i + 2]) else {
                        return .failure(.encoding)
                    }
                    // Lower-case a to f follow upper-case A to F in `hexDigits`.
                    func value(_ index: Int) -> Int { index < 16 ? index : index - 6 }
                    decoded.append(UInt8(value(high) * 16 + value(low)))
                    i += 3
                } else {
                    if b <= 0x20 || b == 0x7F || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") { return .failure(.encoding) }
                    decoded.append(b)
                    i += 1
                }
            }
            guard let text = String(validating: decoded, as: UTF8.self), !text.isBlank else { return .failure(.encoding) }
            let encoded = decoded.flatMap { unreserved.contains($0) ? [$0] : [UInt8(ascii: "%"), hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0xF)]] }
            return encoded == part ? .success(text) : .failure(.nonCanonical)
        }
        var parts: [[UInt8]] = [[]], longest: [[UInt8]] = [[]]
        for _ in 1...3 {
            longest = longest.flatMap { prefix in pieces.map { prefix + Array($0.utf8) } }
            parts += longest
        }
        var disagreements = 0
        for part in parts {
            let expected = reference(part)
            part.withUnsafeBufferPointer { buffer in
                let part = EntityId.part(0..<buffer.count, of: buffer).map { $0.text(in: buffer) }
                if part != expected || EntityId.partByReencoding(buffer) != expected { disagreements += 1 }
            }
        }
        #expect(parts.count == 1 + 29 + 29 * 29 + 29 * 29 * 29)
        #expect(disagreements == 0)
    }

    /// What both the app's DateTime.tryParse and V8's Date.parse accept (the spec's measurements).
    @Test(arguments: [("2026-08-20T07:42:13.518204", true), ("2026-08-20T07:42:13.518Z", true), ("2026-08-20T07:42:13Z", true),
                      ("2026-08-20 07:42", true), ("2026-08-20T07:42:13+02:00", true), ("2026-08-22T10:00:00+0200", true),
                      ("2026-08-20", true), ("2026-02-31T00:00:00Z", true), ("2026-08-20T24:00:00Z", true),
                      ("", false), ("2026", false), ("August 22, 2026", false), ("20260822", false), ("2026-13-01", false),
                      ("2026-08-20T24:30:00Z", false), ("2026-08-20T07:42:13ZZ", false), (" 2026-08-20T07:42:13Z", false)])
    func dateTimesAsDartWritesThem(_ text: String, _ valid: Bool) {
        var text = text
        #expect(text.withUTF8(DateTimeText.isDateTime) == valid, "\(text)")
    }

    static let habit = S.document("habit/h1", payload: S.habitPayload(id: "h1"))
    static let tombstone = S.document("habit/h1", payload: nil, deleted: true)

    @Test func operationsOfEveryKindAreClean() {
        let patch = S.operation(Self.habit).replacingOccurrences(of: #""kind": "create""#, with: #""kind": "patch""#)
            .replacing(#/"changedFields": \[[^\]]*\]/#, with: #""changedFields": ["name", "notificationTime"]"#)
        let restore = S.operation(Self.habit, sequence: 3).replacingOccurrences(of: #""kind": "create""#, with: #""kind": "restore""#)
        let text = #"{"operations": [\#(S.operation(Self.habit)), \#(patch), \#(S.operation(Self.tombstone, sequence: 2)), \#(restore)]}"#
        #expect(Self.ruleIds(text) == [])
    }

    @Test(arguments: [
        (#""kind": "create""#, #""kind": "update""#),
        (#""deviceId": "Qm9vdHN0cmFwRGV2aWNlMDEy", "sequence": 1}"#, #""deviceId": "dev ice", "sequence": 1}"#),
        (#""sequence": 1}"#, #""sequence": 0}"#),
        (#""sequence": 1}"#, #""sequence": 1.0}"#),
        (#""operationId": "operation/Qm9vdHN0cmFwRGV2aWNlMDEy/1""#, #""operationId": "operation/Qm9vdHN0cmFwRGV2aWNlMDEy/2""#),
        (#""changedFields": ["#, #""changedFields": ["zzz", "#),
        (#""changedMetadataFields": []"#, #""changedMetadataFields": ["b", "a"]"#),
    ])
    func malformedOperations(_ original: String, _ replacement: String) {
        let text = S.operation(Self.habit).replacingOccurrences(of: original, with: replacement)
        #expect(text != S.operation(Self.habit))
        #expect(Self.ruleIds(text) == ["contract.operation"], "\(replacement)")
    }

    @Test func aDeleteListsNoFieldsAndCarriesATombstone() {
        let delete = S.operation(Self.tombstone)
        #expect(Self.ruleIds(delete.replacingOccurrences(of: #""changedFields": []"#, with: #""changedFields": ["name"]"#)) == ["contract.operation"])
        #expect(Self.ruleIds(delete.replacingOccurrences(of: #""kind": "delete""#, with: #""kind": "restore""#)) == ["contract.operation"])
        // A delete of a live document.
        #expect(Self.ruleIds(S.operation(Self.habit).replacingOccurrences(of: #""kind": "create""#, with: #""kind": "delete""#))
                == ["contract.operation"])
    }

    @Test func aViolationIsReportedAtTheOffendingMember() {
        let text = "{\"operations\": [\n" + S.operation(Self.habit).replacingOccurrences(of: #""targetCount": 1"#, with: "\n\"targetCount\": 0") + "]}"
        let finding = TestSupport.scan(text).findings.first
        #expect(finding?.ruleId == "contract.field-value")
        #expect(finding?.key == "targetCount")
        #expect(finding?.position.line == 3)
        #expect(finding?.position.column == 16)
        #expect(finding.map { "\($0.path)" } == "/operations/0/document/payload/targetCount")
    }

    @Test func pushBodiesHoldOneToAHundredOperations() {
        #expect(Self.ruleIds(#"{"operations": []}"#) == ["contract.push-body"])
        let many = (1...101).map { S.operation(Self.tombstone, sequence: $0) }.joined(separator: ",")
        #expect(Self.ruleIds(#"{"operations": [\#(many)]}"#) == ["contract.push-body"])
        // The invented body of earlier versions: protocolVersion and deviceId beside the operations.
        #expect(Self.ruleIds(#"{"protocolVersion": 1, "deviceId": "d1", "operations": [\#(S.operation(Self.tombstone))]}"#) == ["contract.push-body"])
        // A pull page is no push body.
        let page = #"{"operations": [], "cursor": "eyJ2ZXJzaW9uIjoxLCJnZW5lcmF0aW9uIjoxLCJvZmZzZXQiOjB9", "headOffset": 0, "compactionFloor": 0, "requiresSnapshot": false, "recoveryReason": "none"}"#
        #expect(Self.ruleIds(page) == [])
    }

    /// A snapshot as `GET /v1/snapshot` returns it: a habit whose registers make a complete
    /// payload, and a deleted entry.
    static let snapshot: String = {
        let habit = try! JSONValue.parse(Array(S.habitPayload(id: "h1").utf8))
        let registers = habit.value.objectMembers!.map { member in
            #""\#(member.key)": {"value": \#(JSONOutput(member.value.value).renderedOnOneLine()), "revision": {"deviceId": "d1", "sequence": 3}}"#
        }.joined(separator: ", ")
        return #"""
        {"schemaVersion": 1, "cursor": "eyJ2ZXJzaW9uIjoxLCJnZW5lcmF0aW9uIjoxLCJvZmZzZXQiOjN9", "entities": [
          {"entityId": "habit/h1", "lifecycleRevision": {"deviceId": "d1", "sequence": 3}, "deleted": false,
           "payloadFields": {\#(registers)}, "metadataFields": {}},
          {"entityId": "entry/h1/2026-08-19", "lifecycleRevision": {"deviceId": "d1", "sequence": 4}, "deleted": true, "payloadFields": {}, "metadataFields": {}}]}
        """#
    }()

    @Test func snapshotEntityStatesAreNotDocuments() {
        #expect(Self.ruleIds(Self.snapshot) == [])
        let unregistered = Self.snapshot.replacingOccurrences(of: #"{"value": "Read", "revision": {"deviceId": "d1", "sequence": 3}}"#, with: #"{"value": "Read"}"#)
        #expect(Self.ruleIds(unregistered) == ["contract.entity-state"])
        let sensitive = Self.snapshot.replacingOccurrences(of: #""metadataFields": {}},"#, with: #""metadataFields": {"secretary": {"value": "Ann", "revision": {"deviceId": "d1", "sequence": 3}}}},"#)
        #expect(Self.ruleIds(sensitive) == ["contract.sensitive-name"])
        let nested = Self.snapshot.replacingOccurrences(of: #""metadataFields": {}},"#, with: #""metadataFields": {"notes": {"value": [{"secretary": "Ann"}], "revision": {"deviceId": "d1", "sequence": 3}}}},"#)
        #expect(Self.ruleIds(nested) == ["contract.sensitive-name"])
        let pendingDeleted = Self.snapshot.replacingOccurrences(of: #""lifecycleRevision": {"deviceId": "d1", "sequence": 4}"#, with: #""lifecycleRevision": null"#)
        #expect(Self.ruleIds(pendingDeleted) == ["contract.entity-state"])
        #expect(Self.ruleIds(Self.snapshot.replacingOccurrences(of: #""sequence": 4}"#, with: #""sequence": 0}"#)) == ["contract.entity-state"])
        // The visible registers make a payload, checked as one.
        let badCount = Self.snapshot.replacingOccurrences(of: #""targetCount": {"value": 1"#, with: #""targetCount": {"value": 0"#)
        #expect(Self.ruleIds(badCount) == ["contract.field-value"])
    }

    @Test func additionalDocumentFieldsAreScreened() {
        let document = #"{"syncTokenizer": "x", "schemaVersion": 1, "entityId": "habit/h1", "deleted": true}"#
        #expect(Self.ruleIds(document) == ["contract.sensitive-name"])
        // A name our word rules report is reported by them alone.
        let named = #"{"accessToken": "", "schemaVersion": 1, "entityId": "habit/h1", "deleted": true}"#
        #expect(Self.ruleIds(named) == ["name.token"])
    }

    @Test func aBackupAsTheAppExportsItIsBackupContext() {
        let backup = #"{"schemaVersion":1,"exportedAt":"2026-11-30T18:02:11.204Z","habits":[\#(S.habitPayload(id: "h1"))],"entries":[],"#
            + #""settings":{"theme":"dark","notifications":true,"reminderTime":"20:00","aiInsights":false,"language":"de","showRecoverySupport":false}}"#
        let outcome = TestSupport.scan(backup.replacingOccurrences(of: #""description": null"#, with: #""description": "key sk_live_4eC39HqLyjWDarjtT1zdp7dc""#))
        #expect(outcome.findings.map { "\($0.ruleId) \($0.context.rawValue)" } == ["secret.stripe-secret-key backup"])
        let names = Set(outcome.inventory.map(\.name))
        for key in ["theme", "notifications", "reminderTime", "aiInsights", "language", "showRecoverySupport"] {
            #expect(names.contains("settings snapshot: \(key)"), "\(key)")
        }
    }

    @Test func theEnvelopeIsOneFindingAndItsTimestampNoSecret() {
        let envelope = #"{"schemaVersion": 1, "migratedAt": "2026-08-01T10:00:00.000Z", "data": {"habiter_habits": []}, "quarantine": []}"#
        #expect(Self.ruleIds(S.push([S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "envelope": \#(envelope)"#))]))
                == ["contract.storage-envelope"])
        #expect(Self.ruleIds(envelope) == [])
    }

    @Test func theVaultEntriesAreSensitiveStores() {
        let vault = #"{"personal_sync.connection.v1": "{\"instanceOrigin\":\"https://sync.example.org\",\"deviceId\":\"d1\"}"}"#
        #expect(Self.ruleIds(vault) == ["inventory.sensitive-store"])
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.habiter_personal_sync_engine_v1\">{}</string>\n</map>\n"
        let outcome = TestSupport.scan(prefs, name: "FlutterSharedPreferences.xml")
        #expect(outcome.findings.isEmpty)
        #expect(outcome.inventory.contains { $0.storeId == "habiter_personal_sync_engine_v1" && $0.verdict == .note })
    }

    @Test func theLegacyBackupIsAnErrorInAPrefsExport() {
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.habiter_storage_backup_v0\">{&quot;schemaVersion&quot;:0,&quot;raw&quot;:{}}</string>\n</map>\n"
        #expect(Self.ruleIds(prefs, name: "FlutterSharedPreferences.xml") == ["inventory.sensitive-store"])
    }
}
