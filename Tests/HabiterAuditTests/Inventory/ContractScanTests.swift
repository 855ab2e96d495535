@testable import AuditCore
@testable import AuditInputs
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// Entity documents, operations and push bodies written the way the Habiter app writes them
/// (`Habit.toMap`, `HabitEntry.toMap`, `PersonalSyncOperation.toJson`; APP-FORMATS.md).
enum ContractSamples {
    /// The 13 required habit fields in `Habit.toMap` order, `id` first.
    static func habitPayload(id: String, extra: String = "") -> String {
        ##"{"id": "\##(id)", "name": "Read", "description": null, "color": "#1E88E5", "icon": "book", "frequency": "daily", "##
            + #""targetCount": 1, "category": "learning", "customDays": null, "createdAt": "2026-01-04T08:00:00.000Z", "#
            + #""isActive": true, "notificationEnabled": true, "notificationTime": "07:30"\#(extra)}"#
    }

    static func entryPayload(habitId: String, date: String, extra: String = "") -> String {
        #"{"id": "e1", "habitId": "\#(habitId)", "date": "\#(date)", "completed": true, "count": 1, "timestamp": "\#(date)T07:31:00.000"\#(extra)}"#
    }

    static func document(_ entityId: String, payload: String?, deleted: Bool = false) -> String {
        #"{"schemaVersion": 1, "entityId": "\#(entityId)", "deleted": \#(deleted)"# + (payload.map { #", "payload": \#($0)"# } ?? "") + "}"
    }

    static let deviceId = "Qm9vdHN0cmFwRGV2aWNlMDEy"

    /// The habit payload's keys as a create's `changedFields` lists them.
    static let habitFieldList = ["category", "color", "createdAt", "customDays", "description", "frequency", "icon", "id",
                                 "isActive", "name", "notificationEnabled", "notificationTime", "targetCount"].map { "\"\($0)\"" }.joined(separator: ", ")

    /// An operation carrying `document`: a delete for a tombstone, else a create listing every
    /// payload key (a document that is not JSON, or whose payload is not an object, lists none).
    static func operation(_ document: String, sequence: Int = 1) -> String {
        let parsed = try? JSONValue.parse(Array(document.utf8))
        let deleted = parsed?.value["deleted"]?.boolValue == true
        let keys = deleted ? [] : (parsed?.value["payload"]?.objectMembers?.map(\.key).sorted() ?? [])
        let changed = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"protocolVersion": 1, "operationId": "operation/\#(deviceId)/\#(sequence)", "kind": "\#(deleted ? "delete" : "create")", "#
            + #""revision": {"deviceId": "\#(deviceId)", "sequence": \#(sequence)}, "document": \#(document), "#
            + #""changedFields": [\#(changed)], "changedMetadataFields": []}"#
    }

    static func push(_ documents: [String]) -> String {
        let operations = documents.enumerated().map { i, document in operation(document, sequence: i + 1) }
        return #"{"operations": [\#(operations.joined(separator: ",\n"))]}"#
    }
}

/// The contract validator through real scans: every rule, on what it reports, where, under
/// which key, and only in sync context.
@Suite struct ContractScanTests {
    typealias S = ContractSamples

    static func contractFindings(_ text: String, options: ScanOptions = ScanOptions()) -> [String] {
        let result = TestSupport.scan(text, options: options)
        #expect(result.errors.isEmpty, "\(result.errors.map(\.description))")
        return result.findings.filter { $0.family != .transport }.map { "\($0.ruleId) key=\($0.key ?? "-")" }
    }

    @Test func conformingDocumentsAreClean() {
        let text = S.push([
            S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "pauses": [{"startedAt": "2026-02-01T00:00:00.000", "endedAt": null}], "archivedAt": "2026-03-01T09:00:00.000Z", "restoredAt": "2026-03-02T09:00:00.000Z", "source": {"kind": "classlyCompatible", "externalId": "evt-1", "occursOn": "2026-03-03"}"#)),
            S.document("habit/morning%20run%2Fjog", payload: S.habitPayload(id: "morning run/jog")),
            S.document("entry/h1/2028-02-29", payload: S.entryPayload(habitId: "h1", date: "2028-02-29")),
            S.document("setting/reminders.quietHours", payload: #"{"value": [{"start": "12:00", "end": "13:00"}, {"start": "22:30", "end": "06:30"}]}"#),
            S.document("setting/appearance.theme", payload: #"{"value": "dark"}"#),
            S.document("habit/h2", payload: nil, deleted: true),
        ])
        #expect(Self.contractFindings(text) == [])
    }

    /// An operation's `operationId` and its document's `entityId` are kept as bytes while the
    /// operation is open (`ContractDrafts.texts`, cut back as objects close): read right whether
    /// the operation names its id before its document or after it, and when both are wrong.
    @Test func operationAndEntityIdsAreReadInEitherOrder() {
        let document = S.document("habit/h1", payload: S.habitPayload(id: "h1"))
        let badDocument = document.replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": 2"#)
        func findings(_ document: String, operationId: String, idFirst: Bool) -> [String] {
            let id = #""operationId": "\#(operationId)""#
            let rest = #""protocolVersion": 1, "kind": "create", "revision": {"deviceId": "\#(S.deviceId)", "sequence": 1}, "#
                + #""document": \#(document), "changedFields": [\#(S.habitFieldList)], "changedMetadataFields": []"#
            let operation = idFirst ? "{\(id), \(rest)}" : "{\(rest), \(id)}"
            return Self.contractFindings(#"{"operations": [\#(operation)]}"#)
        }
        let good = "operation/\(S.deviceId)/1", wrong = "operation/\(S.deviceId)/2"
        for idFirst in [true, false] {
            #expect(findings(document, operationId: good, idFirst: idFirst) == [], "id first: \(idFirst)")
            #expect(findings(document, operationId: wrong, idFirst: idFirst) == ["contract.operation key=operationId"], "id first: \(idFirst)")
            #expect(findings(badDocument, operationId: wrong, idFirst: idFirst).sorted()
                    == ["contract.operation key=operationId", "contract.schema-version key=habit/h1"], "id first: \(idFirst)")
        }
    }

    /// Payload fields are found in any order: the app's order is only the one tried first.
    @Test func payloadFieldsAreFoundInAnyOrder() {
        let inOrder = #"{"id": "e1", "habitId": "h1", "date": "2026-01-05", "completed": "yes", "count": 1, "timestamp": "2026-01-05T07:31:00.000"}"#
        let reversed = #"{"timestamp": "2026-01-05T07:31:00.000", "count": 1, "completed": "yes", "date": "2026-01-05", "habitId": "h1", "id": "e1"}"#
        let findings = [inOrder, reversed].map { Self.contractFindings(S.push([S.document("entry/h1/2026-01-05", payload: $0)])) }
        #expect(findings[0] == ["contract.field-value key=completed"])
        #expect(findings[1] == findings[0])
    }

    @Test(arguments: [
        (S.document("habit/h1", payload: S.habitPayload(id: "h1")).replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": 2"#),
         "contract.schema-version key=habit/h1"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1")).replacingOccurrences(of: #""schemaVersion": 1, "#, with: ""),
         "contract.schema-version key=habit/h1"),
        (S.document("habits/h1", payload: S.habitPayload(id: "h1")), "contract.entity-id key=habits/h1"),
        (S.document("habit/h1/x", payload: S.habitPayload(id: "h1")), "contract.entity-id key=habit/h1/x"),
        (S.document("habit/h%2", payload: S.habitPayload(id: "h")), "contract.entity-id key=habit/h%2"),
        (S.document("habit/a b", payload: S.habitPayload(id: "a b")), "contract.entity-id key=habit/a b"),
        (S.document("entry/h1/2026-02-29", payload: S.entryPayload(habitId: "h1", date: "2026-02-29")), "contract.entity-id key=entry/h1/2026-02-29"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1")).replacingOccurrences(of: #""deleted": false"#, with: #""deleted": "false""#),
         "contract.deleted-flag key=habit/h1"),
        (S.document("habit/h1", payload: #"{}"#, deleted: true), "contract.tombstone-payload key=payload"),
        (S.document("habit/h1", payload: "null", deleted: true), "contract.tombstone-payload key=payload"),
        (S.document("habit/h1", payload: nil), "contract.missing-payload key=habit/h1"),
        (S.document("habit/h1", payload: #""{\"id\": \"h1\"}""#), "contract.missing-payload key=habit/h1"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h2")), "contract.identity-mismatch key=id"),
        (S.document("habit/morning%20run", payload: S.habitPayload(id: "morning%20run")), "contract.identity-mismatch key=id"),
        (S.document("entry/h1/2026-03-01", payload: S.entryPayload(habitId: "h1", date: "2026-03-02")), "contract.identity-mismatch key=date"),
        (S.document("entry/h1/2026-03-01", payload: S.entryPayload(habitId: "h9", date: "2026-03-01")), "contract.identity-mismatch key=habitId"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""icon": "book", "#, with: "")),
         "contract.required-field key=habit/h1"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""description": null, "#, with: "")),
         "contract.required-field key=habit/h1"),
        (S.document("entry/h1/2026-03-01", payload: #"{"id": "e1", "habitId": "h1", "date": "2026-03-01"}"#), "contract.required-field key=entry/h1/2026-03-01"),
        (S.document("setting/reminders.quietHour", payload: #"{"value": []}"#), "contract.setting-unknown key=setting/reminders.quietHour"),
        (S.document("setting/Appearance.theme", payload: #"{"value": "dark"}"#), "contract.setting-unknown key=setting/Appearance.theme"),
        (S.document("setting/ai.apiKey", payload: nil, deleted: true), "contract.setting-unknown key=setting/ai.apiKey"),
        (S.document("setting/appearance.theme", payload: #"{"value": "dark", "updatedBy": "d1"}"#), "contract.setting-payload key=updatedBy"),
        (S.document("setting/appearance.theme", payload: #"{"key": "appearance.theme"}"#), "contract.setting-payload key=key"),
        (S.document("setting/reminders.globalDailyLimit", payload: #"{"value": 65}"#), "contract.setting-value key=setting/reminders.globalDailyLimit"),
        (S.document("setting/reminders.globalDailyLimit", payload: #"{"value": 12.0}"#), "contract.setting-value key=setting/reminders.globalDailyLimit"),
        (S.document("setting/reminders.quietHours", payload: #"{"value": [{"start": "22:00", "end": "07:00"}, {"start": "06:30", "end": "08:00"}]}"#),
         "contract.setting-value key=setting/reminders.quietHours"),
        // The end minute is covered: touching ranges overlap.
        (S.document("setting/reminders.quietHours", payload: #"{"value": [{"start": "22:00", "end": "23:00"}, {"start": "23:00", "end": "23:30"}]}"#),
         "contract.setting-value key=setting/reminders.quietHours"),
        (S.document("setting/reminders.quietHours", payload: #"{"value": [{"from": "22:00", "to": "07:00"}]}"#), "contract.setting-value key=setting/reminders.quietHours"),
        (S.document("habit/a%2db", payload: S.habitPayload(id: "a-b")), "contract.entity-id key=habit/a%2db"),
        (S.document("habit/%20", payload: S.habitPayload(id: " ")), "contract.entity-id key=habit/%20"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: ##""color": "#1E88E5""##, with: #""color": 3"#)),
         "contract.field-value key=color"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""frequency": "daily""#, with: #""frequency": "Daily""#)),
         "contract.field-value key=frequency"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""customDays": null"#, with: #""customDays": [8]"#)),
         "contract.field-value key=customDays"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""customDays": null"#, with: #""customDays": [1, 7, 7.0]"#)),
         "contract.field-value key=customDays"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""targetCount": 1"#, with: #""targetCount": -1"#)),
         "contract.field-value key=targetCount"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""targetCount": 1"#, with: #""targetCount": 12.0"#)),
         "contract.field-value key=targetCount"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""targetCount": 1"#, with: #""targetCount": 9007199254740993"#)),
         "contract.field-value key=targetCount"),
        // The smallest Int, whose absolute value does not fit one, and one below it.
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""targetCount": 1"#, with: #""targetCount": -9223372036854775808"#)),
         "contract.field-value key=targetCount"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""targetCount": 1"#, with: #""targetCount": -9223372036854775809"#)),
         "contract.field-value key=targetCount"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""createdAt": "2026-01-04T08:00:00.000Z""#, with: #""createdAt": """#)),
         "contract.field-value key=createdAt"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""notificationTime": "07:30""#, with: #""notificationTime": "24:00""#)),
         "contract.field-value key=notificationTime"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1").replacingOccurrences(of: #""notificationTime": "07:30""#, with: #""notificationTime": " 07:00""#)),
         "contract.field-value key=notificationTime"),
        (S.document("entry/h1/2026-03-01", payload: S.entryPayload(habitId: "h1", date: "2026-03-01").replacingOccurrences(of: #""count": 1"#, with: #""count": "1""#)),
         "contract.field-value key=count"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "tokenizer": "words""#)), "contract.sensitive-name key=tokenizer"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "notes": {"secretary": "Ann"}"#)), "contract.sensitive-name key=secretary"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "apiXkey": "none""#)), "contract.sensitive-name key=apiXkey"),
        // Escaped, in an array: the scan tells the checks which payloads hold such a name.
        (S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "notes": [{"to\u006Benizer": "words"}]"#)), "contract.sensitive-name key=tokenizer"),
        (S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: #", "flutter.habiter_last_screen": "today""#)), "contract.prefs-dump key=flutter.habiter_last_screen"),
    ])
    func eachViolationIsReportedOnItsDocument(_ document: String, _ expected: String) {
        #expect(Self.contractFindings(document) == [expected])
        // The same document in a push body and as a line of an operation log (the operation's
        // own checks aside: a delete of a live document, say).
        let operationRules = ["contract.operation", "contract.push-body"]
        #expect(Self.contractFindings(S.push([document])).filter { !operationRules.contains(String($0.prefix { $0 != " " })) } == [expected])
        #expect(Self.contractFindings(S.operation(document) + "\n" + document).filter { !operationRules.contains(String($0.prefix { $0 != " " })) }
                == [expected, expected])
    }

    @Test func protocolVersionsOutsideTheWindowSayWhoMustUpgrade() {
        let operation = S.operation(S.document("habit/h1", payload: nil, deleted: true))
        let below = TestSupport.scan(operation.replacingOccurrences(of: #""protocolVersion": 1"#, with: #""protocolVersion": 0"#)).findings
        #expect(below.map(\.ruleId) == ["contract.protocol-version"])
        #expect(below.first?.message.contains("must upgrade its server") == true)
        #expect(below.first?.key == "protocolVersion")
        let above = TestSupport.scan(operation.replacingOccurrences(of: #""protocolVersion": 1"#, with: #""protocolVersion": 2"#)).findings
        #expect(above.first?.message.contains("must upgrade its client") == true)
        #expect(TestSupport.scan(operation.replacingOccurrences(of: #""protocolVersion": 1"#, with: #""protocolVersion": "1""#)).findings.map(\.ruleId)
                == ["contract.protocol-version"])
        #expect(TestSupport.scan(operation.replacingOccurrences(of: #""protocolVersion": 1, "#, with: "")).findings.map(\.ruleId)
                == ["contract.protocol-version"])
    }

    /// A push body larger than the input's window (4 MiB): when it closes, its `operations`
    /// value has left the window, and the violation still sits there, not where the scan is.
    @Test func aViolationOfAnEarlyValueSitsThereInAnObjectLargerThanTheWindow() throws {
        let tombstone = S.document("habit/h1", payload: nil, deleted: true)
        let operations = (1...16_000).map { S.operation(tombstone, sequence: $0) }
        let text = "{\n  \"operations\": [\n" + operations.joined(separator: ",\n") + "\n]}"
        #expect(text.utf8.count > 4 << 20)
        let file = TestSupport.temporaryDirectory().appendingPathComponent("push.json")
        try Data(text.utf8).write(to: file)
        let run = TestSupport.runCLI(["scan", "--no-config", "--format", "github", file.path])
        let lines = run.stdout.split(separator: "\n").filter { $0.contains("contract.push-body") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("line=2,col=17") == true, "\(lines)")
    }

    @Test func aWholeDocumentViolationSitsOnItsEntityId() {
        let text = "{\"schemaVersion\": 1,\n  \"deleted\": \"yes\",\n  \"entityId\": \"habit/h1\", \"payload\": {}}"
        let finding = TestSupport.scan(text).findings.first { $0.ruleId == "contract.deleted-flag" }
        #expect(finding?.position.line == 3)
        #expect(finding?.position.column == 15)
        #expect(finding?.key == "habit/h1")
        #expect(finding?.family == .policy)
    }

    /// Issue 20's class 9: a violation of one member sits at that member (line, column, path,
    /// key), not at the document's `entityId` a few lines up.
    @Test(arguments: [
        ("{\"schemaVersion\": 1,\n  \"deleted\": true,\n  \"entityId\": \"habit/h1\",\n  \"payload\": {}}", "contract.tombstone-payload", 4, 14, "/payload", "payload"),
        ("{\"schemaVersion\": 1, \"entityId\": \"setting/appearance.theme\", \"deleted\": false,\n  \"payload\": {\"value\": \"dark\",\n    \"updatedBy\": \"d1\"}}",
         "contract.setting-payload", 3, 18, "/payload/updatedBy", "updatedBy"),
        ("{\"schemaVersion\": 1, \"entityId\": \"entry/h1/2026-03-01\", \"deleted\": false,\n  \"payload\": {\"id\": \"e1\", \"habitId\": \"h1\",\n    \"date\": \"2026-03-02\", \"completed\": true, \"count\": 1, \"timestamp\": \"2026-03-02T07:31:00.000\"}}",
         "contract.identity-mismatch", 3, 13, "/payload/date", "date"),
    ])
    func aMemberViolationSitsOnTheMember(_ text: String, _ rule: String, _ line: Int, _ column: Int, _ path: String, _ key: String) {
        let finding = TestSupport.scan(text).findings.first { $0.ruleId == rule }
        #expect(finding?.position.line == line)
        #expect(finding?.position.column == column)
        #expect(finding?.pathText == path)
        #expect(finding?.key == key)
    }

    @Test func anEntityIdThatIsASecretIsNeverEchoed() {
        let token = "ghp_" + "Qk2vT8xLm4Rz7WcYp1Nd5Hs9Bf3Jg6Ua0EiZ"
        let document = S.document("habit/\(token)", payload: S.habitPayload(id: "h1"))
            .replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": 2"#)
        let findings = TestSupport.scan(document).findings
        #expect(findings.contains { $0.ruleId == "contract.schema-version" && $0.key == Redaction.maskedKey })
        #expect(findings.contains { $0.ruleId == "contract.identity-mismatch" && $0.key == "id" })
        #expect(!findings.contains { $0.message.contains(token) || ($0.key ?? "").contains(token) })
    }

    @Test func outsideSyncTheContractDoesNotApply() {
        let document = S.document("habit/h1", payload: #"{"id": "h2"}"#)
        #expect(Self.contractFindings(document, options: ScanOptions(context: .payload)) == [])
        #expect(Self.contractFindings(document, options: ScanOptions(context: .backup)) == [])
    }

    /// A pull response body in a HAR, once as base64 and once as base64 of gzip (mitmproxy keeps
    /// undecoded bodies so): the document inside is checked all the same.
    @Test(arguments: [
        "eyJvcGVyYXRpb25zIjpbeyJwcm90b2NvbFZlcnNpb24iOjEsIm9wZXJhdGlvbklkIjoib3BlcmF0aW9uL1FtOXZkSE4wY21Gd1JHVjJhV05sTURFeS8xIiwia2luZCI6ImNyZWF0ZSIsInJldmlzaW9uIjp7ImRldmljZUlkIjoiUW05dmRITjBjbUZ3UkdWMmFXTmxNREV5Iiwic2VxdWVuY2UiOjF9LCJkb2N1bWVudCI6eyJzY2hlbWFWZXJzaW9uIjoxLCJlbnRpdHlJZCI6InNldHRpbmcvcmVtaW5kZXJzLmdsb2JhbERhaWx5TGltaXQiLCJkZWxldGVkIjpmYWxzZSwicGF5bG9hZCI6eyJ2YWx1ZSI6OTl9fSwiY2hhbmdlZEZpZWxkcyI6WyJ2YWx1ZSJdLCJjaGFuZ2VkTWV0YWRhdGFGaWVsZHMiOltdfV0sImN1cnNvciI6ImV5SjJaWEp6YVc5dUlqb3hMQ0puWlc1bGNtRjBhVzl1SWpveExDSnZabVp6WlhRaU9qRjkiLCJoZWFkT2Zmc2V0IjoxLCJjb21wYWN0aW9uRmxvb3IiOjAsInJlcXVpcmVzU25hcHNob3QiOmZhbHNlLCJyZWNvdmVyeVJlYXNvbiI6Im5vbmUifQ==",
        "H4sIAAAAAAACA3VQy27CMBD8F5+j8pB6CNfStCAegkqAUnHY2gsx9SPYTtqA8u9d0wq49Ob1zM7OzJnZEh0EaY1ng/czK50Nllu1Qufpkw16yY0yEmxwmzoLndbiddblOvtavqz6sJ6p6fC56fRYwj6liWzuEALS7LCWv4pnJujN8aL2nwZteDxWaDiShzZhwvJKowlx3/MCNdxbJECG5qLoMQRp9h2HmiwQ52Gv7AeoIUjVTKSWgbQFKgxI9B0ojwkroVEWRBSvQVV0M01busoLMHsUmUQlYkF/6PaKTDGAgABXxraNYOW8dWQGm3E/34xPsE6r0cF+T57GJl8/Korbvfurc52f8s1Czg9ZSvYKBDHf7SjKJR23ugQeO8+Ujbrd2Oexkg79m4HSFzZcozjktkbXLBF8bIcZa5C1PzEzH2TqAQAA",
    ])
    func encodedBodiesAreChecked(_ body: String) {
        let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "10"}, "entries": [
          {"request": {"method": "GET", "url": "https://sync.habiter.app/v1/pull?cursor=eyJ2ZXJzaW9uIjoxLCJnZW5lcmF0aW9uIjoxLCJvZmZzZXQiOjB9&limit=100", "headers": []},
           "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "encoding": "base64",
             "text": "\#(body)"}}}]}}
        """#
        let findings = TestSupport.scan(har, name: "pull.har").findings
        #expect(findings.map(\.ruleId) == ["contract.setting-value"])
        #expect(findings.first?.key == "setting/reminders.globalDailyLimit")
        #expect(findings.first.map { "\($0.path)".hasSuffix("!json/operations/0/document/payload/value") } == true)
        #expect(findings.first?.context == .sync)
        #expect(findings.first?.position.line == 4)
    }
}

extension ContractScanTests {
    /// An operation log as a request body: each line is a document of the `!ndjson` layer.
    @Test func ndjsonBodiesAreReadDocumentByDocument() {
        let lines = [S.document("entry/h1/2026-03-01", payload: S.entryPayload(habitId: "h1", date: "2026-03-01")),
                     S.document("setting/reminders.snoozeMinutes", payload: #"{"value": 10}"#)]
        let body = String(JSONOutput.string(lines.joined(separator: "\n") + "\n").renderedOnOneLine())
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "url": "https://sync.habiter.app/v1/import", "postData": {"mimeType": "application/x-ndjson", "text": \#(body)}}, "response": {"status": 204}}]}}"#
        let findings = TestSupport.scan(har, name: "import.har").findings
        #expect(findings.map { "\($0.ruleId) \($0.path)" } == [
            "contract.setting-unknown /log/entries/0/request/postData/text!ndjson/1",
        ])
        // Lines that are not all JSON are text: no layer, nothing recorded from the JSON lines.
        let mixed = String(JSONOutput.string(lines[1] + "\nnot json\n").renderedOnOneLine())
        #expect(TestSupport.scan(har.replacingOccurrences(of: body, with: mixed), name: "import.har").findings.isEmpty)
    }
}

/// The inventory's verdicts through real scans: sync, backups, prefs exports.
@Suite struct InventoryScanTests {
    typealias S = ContractSamples

    @Test func localDerivedUnsupportedAndSensitiveDataInASyncPayload() {
        let extra = #", "plannedReminders": [], "aiInsights": false, "classly_token": """#
        let findings = TestSupport.scan(S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: extra))).findings
        #expect(findings.map { "\($0.ruleId) \($0.family.rawValue) key=\($0.key ?? "-")" } == [
            "inventory.local-data-in-sync policy key=plannedReminders",
            "inventory.unsupported-in-sync policy key=aiInsights",
            "inventory.sensitive-store policy key=classly_token",
        ])
        // With a value, the store carries a secret.
        let credential = #", "classly_token": "Fy0rn7CxI4zRMXXHMjlBP8PpTl6qAOl82xka""#
        #expect(TestSupport.scan(S.document("habit/h1", payload: S.habitPayload(id: "h1", extra: credential))).findings
            .contains { $0.ruleId == "inventory.sensitive-store" && $0.family == .secret })
        #expect(findings.allSatisfy { $0.inventoryClass != nil && $0.context == .sync })
    }

    @Test func prefsKeysInJSONNameTheirStores() {
        let dump = #"{"sharedPreferences": {"flutter.classly_token": "Fy0rn7CxI4zRMXXHMjlBP8PpTl6qAOl82xka", "flutter.habiter_onboarding_v2": "{}"}}"#
        let result = TestSupport.scan(dump)
        #expect(result.findings.map { "\($0.ruleId) key=\($0.key ?? "-")" } == ["inventory.sensitive-store key=flutter.classly_token"])
        #expect(result.inventory.contains { $0.storeId == "habiter_onboarding_v2" && $0.verdict == .note })
    }

    @Test func aStorageEnvelopeInSyncData() {
        let envelope = S.operation(#"{"schemaVersion": 1, "migratedAt": "2026-01-01T00:00:00.000Z", "data": {}, "quarantine": []}"#)
        let ids = TestSupport.scan(envelope).findings.map(\.ruleId)
        #expect(ids.contains("contract.storage-envelope"))
    }

    @Test func backupsListLocalDataAndReportSensitiveStores() {
        let backup = #"""
        {"format": "habiter.backup", "schemaVersion": 1, "habits": [], "entries": [],
         "reminders": {"plannedReminders": [], "signals": {}},
         "settings": {"theme": "dark", "reminderTime": "20:00", "aiInsights": true, "habiter_storage_backup_v0": "{}", "fontScale": 1}}
        """#
        let result = TestSupport.scan(backup, name: "backup.json")
        #expect(result.findings.map { "\($0.ruleId) \($0.context.rawValue) key=\($0.key ?? "-")" }
                == ["inventory.sensitive-store backup key=habiter_storage_backup_v0"])
        let lines = Dictionary(result.inventory.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(lines["settings snapshot: theme"]?.notes == ["inspection snapshot of a backup, not applied on import; maps to the registry key appearance.theme"])
        #expect(lines["settings snapshot: reminderTime"]?.verdict == .allowed)
        #expect(lines["settings snapshot: fontScale"]?.classes == [.unsupported])
        #expect(lines["settings snapshot: habiter_storage_backup_v0"]?.verdict == .error)
        #expect(result.inventory.contains { $0.storeId == "habiter_smart_reminders_v1.plannedReminders" && $0.verdict == .note && $0.contexts == [.backup] })
    }

    static let prefs = #"""
    <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
    <map>
        <string name="flutter.classly_token">Fy0rn7CxI4zRMXXHMjlBP8PpTl6qAOl82xka</string>
        <string name="flutter.experimental_ai_api_key"></string>
        <string name="flutter.habiter_widget_undo_tokens">[&quot;u1&quot;]</string>
        <string name="flutter.habiter_ai_config">{&quot;enabled&quot;:true,&quot;provider&quot;:&quot;openai&quot;,&quot;model&quot;:&quot;gpt-4o-mini&quot;}</string>
        <string name="flutter.habiter_storage_backup_v0">{&quot;habits&quot;:[]}</string>
        <string name="flutter.habiter_mystery_flag">on</string>
        <string name="flutter.habiter_debug_dump">xoxb-2214367045-5283012467829-Zq8bWn3RtY6kLm1Pv4Xc7Hd0</string>
    </map>
    """#

    @Test func keysWithoutAStoreAreListedUpToALimitThenCounted() {
        let entries = (0..<300).map { #"<boolean name="flutter.experiment_\#($0)" value="true" />"# }.joined(separator: "\n")
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n\(entries)\n</map>\n"
        let inventory = TestSupport.scan(prefs, name: "p.xml").inventory
        #expect(inventory.count == ArtifactScan.listedKeysLimit + 1)
        #expect(inventory.contains { $0.name == "\(300 - ArtifactScan.listedKeysLimit) further keys without a store" && $0.contexts == [.prefs] })
        // A listed key met again is listed already; an unlisted one is counted each time.
        let repeats = (Array(0..<10) + Array(290..<300)).map { #"<boolean name="flutter.experiment_\#($0)" value="true" />"# }.joined(separator: "\n")
        let repeated = TestSupport.scan(prefs.replacingOccurrences(of: "</map>", with: repeats + "\n</map>"), name: "p.xml").inventory
        #expect(repeated.count == ArtifactScan.listedKeysLimit + 1)
        #expect(repeated.contains { $0.name == "\(300 - ArtifactScan.listedKeysLimit + 10) further keys without a store" })
        let settings = (0..<300).map { #""legacy_\#($0)": 1"# }.joined(separator: ", ")
        let backup = TestSupport.scan(#"{"format": "habiter.backup", "schemaVersion": 1, "settings": {\#(settings)}}"#).inventory
        #expect(backup.count == ArtifactScan.listedKeysLimit + 1)
        #expect(backup.contains { $0.name == "\(300 - ArtifactScan.listedKeysLimit) further keys without a store" && $0.contexts == [.backup] })
    }

    @Test func prefsKeysAreClassifiedByTheInventory() {
        let result = TestSupport.scan(Self.prefs, name: "FlutterSharedPreferences.xml")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map { "\($0.ruleId) \($0.family.rawValue) \($0.position.line) key=\($0.key ?? "-")" } == [
            "inventory.sensitive-store secret 3 key=classly_token",
            "inventory.sensitive-store secret 7 key=habiter_storage_backup_v0",
            "secret.slack-token secret 9 key=habiter_debug_dump",
        ])
        let byName = Dictionary(result.inventory.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let undo = result.inventory.first { $0.name.hasPrefix("habiter_widget_undo_tokens") }
        #expect(undo?.notes == ["its name looks sensitive; the inventory classifies it"])
        #expect(undo?.verdict == .note)
        #expect(byName["experimental_ai_api_key"]?.notes == ["the value is empty or a placeholder"])
        #expect(byName["experimental_ai_api_key"]?.verdict == .note)
        #expect(byName["habiter_ai_config (enabled, provider, model)"]?.notes == ["kept in plain prefs by design"])
        // Recovery material: a prefs export carries it off the device.
        #expect(byName["habiter_storage_backup_v0"]?.verdict == .error)
        #expect(byName["habiter_mystery_flag"]?.classes == [.unsupported])
        #expect(byName["habiter_mystery_flag"]?.storeId == nil)
        #expect(byName["habiter_debug_dump"]?.classes == [.unsupported])
    }
}
