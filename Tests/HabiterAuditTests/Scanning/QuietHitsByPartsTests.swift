@testable import AuditCore
@testable import AuditScan
import Testing

/// A quiet name hit in a JSON text recorded by the parts of its location
/// (`JSONPathTracker.appendQuietHit`, `ScanOptions.recordsQuietHitsByParts`) gives the answers
/// of one recorded through a `HitLocation`: in sync data, where quiet hits become findings, with
/// the hits of containers interleaved (a container's, a nested one's, the first's again), in
/// arrays, under names of containers and literals, and in a JSON layer.
@Suite struct QuietHitsByPartsTests {
    static let without = TestSupport.options(without: \.recordsQuietHitsByParts)

    static let payload = #"""
        {"id": "af593830-9649-4296-bca0-036cbc27f634", "name": "Check", "token": "",
         "sensor": {"apiKey": "", "password": null, "nested": {"secret": "changeme", "pin": 4}, "clientSecret": "-",
                    "tokens": ["", null, 3, {"accessToken": "********"}], "sessionId": {}},
         "refreshToken": "{{token}}",
         "blob": "{\"password\": \"\", \"inner\": {\"apiKey\": null, \"token\": \"TODO\"}, \"secret\": \"n/a\"}",
         "credentials": false, "list": [{"token": ""}, {"token": ""}, {"auth": "none"}], "passwd": "REDACTED"}
        """#

    static let push: String = {
        let operations = (1...2).map { sequence in
            #"{"protocolVersion": 1, "operationId": "operation/fbe044cc-35c4-4e08-9526-667b6fec0c54/\#(sequence)", "kind": "create", "#
                + #""revision": {"deviceId": "fbe044cc-35c4-4e08-9526-667b6fec0c54", "sequence": \#(sequence)}, "#
                + #""document": {"schemaVersion": 1, "entityId": "habit/af593830-9649-4296-bca0-036cbc27f634", "deleted": false, "#
                + #""payload": \#(payload)}}"#
        }
        return #"{"operations": [\#(operations.joined(separator: ", "))]}"#
    }()

    @Test func quietHitsInSyncDataGiveTheSameFindings() {
        let (byParts, _) = TestSupport.expectSameAnswers(bytes: Array(Self.push.utf8), name: "push.json", with: Self.without)
        let paths = Set(byParts.findings.filter { $0.ruleId.hasPrefix("name.") }.map(\.pathText))
        for expected in ["/operations/0/document/payload/token", "/operations/0/document/payload/sensor/apiKey",
                         "/operations/0/document/payload/sensor/nested/secret", "/operations/0/document/payload/sensor/clientSecret",
                         "/operations/1/document/payload/list/1/token", "/operations/1/document/payload/blob!json/inner/apiKey"] {
            #expect(paths.contains(expected), "\(expected) not among \(paths.sorted())")
        }
    }

    @Test func theCorpusGivesTheSameAnswers() throws {
        #expect(try TestSupport.expectSameAnswersOnTheCorpus(with: Self.without) > 100)
    }
}
