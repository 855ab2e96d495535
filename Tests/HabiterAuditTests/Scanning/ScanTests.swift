@testable import AuditCore
@testable import AuditReport
@testable import AuditScan
import Testing

private let github = "ghp_eN4QrCIu1isc4UxdJDJmATl4GjUQg1AoeaSY"

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.family.rawValue) \(f.context.rawValue) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

@Suite struct EmbeddedLayerTests {
    @Test func jsonInAStringIsAnInnerLayerWithTheOuterPosition() {
        let text = """
        {
          "entries": [
            {"note": "{\\"apiKey\\": \\"\(github)\\", \\"inner\\": \\"{\\\\\\"password\\\\\\": \\\\\\"Tr1cky-Wombat\\\\\\"}\\"}"}
          ]
        }
        """
        let findings = TestSupport.scan(text).findings.map(summary)
        #expect(findings == [
            "secret.github-token secret payload 3:14 /entries/0/note!json/apiKey key=apiKey",
            "name.password secret payload 3:14 /entries/0/note!json/inner!json/password key=password",
        ])
    }

    @Test func aStringThatIsNotJSONIsScannedAsText() {
        let text = #"{"note": "{not json} but \#(github)"}"#
        #expect(TestSupport.scan(text).findings.map(summary) == ["secret.github-token secret payload 1:10 /note key=note"])
    }

    @Test func layerDepthIsCapped() {
        var inner = #"{"token": "q8Zr-Wm3v-Tt5x"}"#
        for _ in 0..<12 {
            let escaped = String(JSONOutput.string(inner).rendered().dropLast())
            inner = "{\"x\": \(escaped)}"
        }
        // Past the cap the string is scanned as text and the check is reported incomplete: no
        // crash, no name finding that deep, never a silent pass.
        let result = TestSupport.scan(inner, options: ScanOptions(maxLayerDepth: 8))
        #expect(result.errors.map(\.description) == ["input.json:1:7: encoded layers nested deeper than the limit of 8: the json layer inside is not checked"])
        #expect(result.errors.map(\.kind) == [.limit])
        #expect(result.findings.allSatisfy { $0.path.layers.count <= 9 })
    }
}

@Suite struct ContextTests {
    @Test func entityPayloadsAreSyncAndFailClosedOnNames() {
        let text = """
        {"schemaVersion": 1, "entityId": "habit/h1", "deleted": false,
         "payload": {"id": "h1", "accessToken": "", "syncPassword": true, "apiKey": "q8Zr-Wm3v-Tt5x", "tokenType": "Bearer"}}
        """
        let findings = TestSupport.scan(text).findings.map(summary)
        #expect(findings == [
            "contract.required-field policy sync 1:34  key=habit/h1",
            "name.token policy sync 2:41 /payload/accessToken key=accessToken",
            "name.password policy sync 2:61 /payload/syncPassword key=syncPassword",
            "name.api-key secret sync 2:77 /payload/apiKey key=apiKey",
            "name.token policy sync 2:108 /payload/tokenType key=tokenType",
        ])
    }

    @Test func outsideSyncOnlyCredibleValuesAreReported() {
        let text = #"{"accessToken": "", "syncPassword": true, "apiKey": "q8Zr-Wm3v-Tt5x", "tokenType": "Bearer", "password": "<redacted>"}"#
        #expect(TestSupport.scan(text).findings.map(summary) == ["name.api-key secret payload 1:53 /apiKey key=apiKey"])
    }

    @Test func keyOrderDoesNotMatter() {
        // The payload comes before the keys that make the object an entity document.
        let text = #"{"payload": {"secret": ""}, "entityId": "habit/h1", "schemaVersion": 1}"#
        let findings = TestSupport.scan(text).findings
        #expect(findings.contains { $0.ruleId == "name.secret" && $0.key == "secret" })
        #expect(Set(findings.map(\.context)) == [.sync])
    }

    @Test func pushBodiesOperationLogsAndBackups() {
        // A push body is exactly {"operations": [...]}: other members are findings of their own.
        let push = #"{"authToken": "", "operations": []}"#
        #expect(TestSupport.scan(push).findings.filter { $0.key == "authToken" }.map(\.context) == [.sync])
        let operation = #"{"operationId": "o1", "document": {"x": 1}, "token": ""}"#
        #expect(TestSupport.scan(operation).findings.filter { $0.ruleId == "name.token" }.map(\.context) == [.sync])
        let backup = #"{"format": "habiter.backup", "schemaVersion": 1, "habits": [{"name": "x", "pwd": "hunter2-Kiwi"}]}"#
        #expect(TestSupport.scan(backup).findings.map(summary) == ["name.password secret backup 1:82 /habits/0/pwd key=pwd"])
        // The app's export has no marker: its shape is a backup.
        let export = #"{"schemaVersion": 1, "exportedAt": "2026-11-30T18:02:11.204Z", "habits": [{"name": "x", "pwd": "hunter2-Kiwi"}], "entries": [], "settings": {}}"#
        #expect(TestSupport.scan(export).findings.map(\.context) == [.backup])
        let notBackup = #"{"a": {"format": "habiter.backup"}, "pwd": "hunter2-Kiwi"}"#
        #expect(TestSupport.scan(notBackup).findings.map(\.context) == [.payload])
    }

    @Test func forcedContextWins() {
        let text = #"{"secret": ""}"#
        #expect(TestSupport.scan(text).findings.isEmpty)
        #expect(TestSupport.scan(text, options: ScanOptions(context: .sync)).findings.map(summary) == ["name.secret policy sync 1:12 /secret key=secret"])
    }

    @Test func aPatternHitReplacesTheNameHitOnTheSameValue() {
        let text = #"{"token": "\#(github)"}"#
        #expect(TestSupport.scan(text).findings.map(\.ruleId) == ["secret.github-token"])
    }

    @Test func aSecretUsedAsAKeyIsReportedAndMasked() {
        let text = #"{"seen": {"\#(github)": {"password": "Tr1cky-Wombat"}}}"#
        let findings = TestSupport.scan(text).findings
        #expect(findings.map(summary) == [
            "secret.github-token secret payload 1:11 /seen/[REDACTED] key=-",
            "name.password secret payload 1:68 /seen/[REDACTED]/password key=password",
        ])
    }

    @Test func pointersEscapeTildeAndSlash() {
        let text = #"{"a/b~c": {"pwd": "hunter2-Kiwi"}}"#
        #expect(TestSupport.scan(text).findings.map { $0.path.description } == ["/a~1b~0c/pwd"])
        #expect(TestSupport.scan(text).findings.map(\.pathText) == ["/a~1b~0c/pwd"])
    }

    /// A path with a token to come is rendered as the path with the token appended would be.
    @Test func aPathIsRenderedWithItsLastTokenAsIfAppended() {
        let path = LayeredPath().appending(.key("log")).appending(.index(3)).entering("json").appending(.key("a/b~c"))
        for token in [nil, PathToken.key("x~y/z"), .index(12), .key("")] {
            #expect(path.description(appending: token) == (token.map { path.appending($0) } ?? path).description)
        }
    }
}

@Suite struct NDJSONTests {
    @Test func linesAreDocumentsAndBlankLinesAreAllowed() {
        let text = "{\"a\": 1}\n\n{\"pwd\": \"hunter2-Kiwi\"}\r\n   \n[\"\(github)\"]"
        let result = TestSupport.scan(text)
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == [
            "name.password secret payload 3:9 /pwd key=pwd",
            "secret.github-token secret payload 5:2 /0 key=-",
        ])
    }

    @Test func anErrorNamesItsLineAndScanningGoesOn() {
        let text = "{\"a\": 1}\n{\"b\": }\n{\"pwd\": \"hunter2-Kiwi\"}\n"
        let result = TestSupport.scan(text)
        #expect(result.errors.map(\.description) == ["input.json:2:7: expected a value"])
        #expect(result.findings.count == 1)
    }

    /// One visitor reads every line: a line that broke off inside containers leaves none of
    /// them on the next line's path.
    @Test func aLineThatBreaksOffLeavesNothingOpen() {
        let result = TestSupport.scan("{\"a\": {\"b\": [\n{\"pwd\": \"hunter2-Kiwi\"}\n", options: ScanOptions(inputFormat: .ndjson))
        #expect(result.errors.map(\.description) == ["input.json:1:14: NDJSON document continues past the end of its line"])
        #expect(result.findings.map(summary) == ["name.password secret payload 2:9 /pwd key=pwd"])
    }

    /// A line's settings snapshot is its own: a backup on a later line lists only its keys.
    @Test func aLinesSettingsSnapshotIsNotTheNextLines() {
        let text = #"{"settings": {"legacy_a": 1}}"# + "\n" + #"{"format": "habiter.backup", "schemaVersion": 1, "settings": {"theme": "dark"}}"#
        let names = TestSupport.scan(text, options: ScanOptions(inputFormat: .ndjson)).inventory.map(\.name).filter { $0.hasPrefix("settings snapshot") }
        #expect(names == ["settings snapshot: theme"])
    }

    @Test func aDocumentMayNotSpanLines() {
        let result = TestSupport.scan("{\"a\": 1}\n{\"b\":\n 2}\n")
        #expect(result.errors.map(\.description) == [
            "input.json:2:6: NDJSON document continues past the end of its line",
            "input.json:3:3: unexpected content after the JSON value",
        ])
    }

    @Test func prettyJSONFollowedByMoreIsAnError() {
        let result = TestSupport.scan("{\n\"a\": 1\n}\n{\"b\": 2}\n")
        #expect(result.errors.map(\.description) == ["input.json:4:1: unexpected content after the JSON value"])
    }

    @Test func forcedFormats() {
        #expect(TestSupport.scan("{\"a\":1}\n{\"b\":2}", options: ScanOptions(inputFormat: .json)).errors.map(\.description)
                == ["input.json:2:1: unexpected content after the JSON value"])
        #expect(TestSupport.scan("", options: ScanOptions(inputFormat: .ndjson)).errors.map(\.description) == ["input.json:1:1: empty input: no JSON document"])
        #expect(TestSupport.scan("42", options: ScanOptions(inputFormat: .json)).errors.isEmpty)
    }
}

@Suite struct InputErrorTests {
    @Test(arguments: [
        ("", "input.json:1:1: empty input"),
        (" \n ", "input.json:2:2: the input holds only whitespace"),
        ("hello", "input.json:1:1: the input format cannot be determined: not JSON, NDJSON, a HAR capture, SharedPreferences XML, a DataStore preferences file or an HTTP message (it starts with a letter)"),
        ("{\"a\": [1, 2", "input.json:1:12: unexpected end of input"),
        ("{\"a\": \"\\q\"}", "input.json:1:8: invalid escape sequence in a string"),
    ])
    func failClosedWithPosition(_ text: String, _ message: String) {
        let result = TestSupport.scan(text)
        #expect(result.errors.map(\.description) == [message])
    }

    @Test func findingsBeforeAParseErrorAreKept() {
        let result = TestSupport.scan("{\"pwd\": \"hunter2-Kiwi\", \"b\": }")
        #expect(result.errors.count == 1)
        #expect(result.findings.count == 1)
    }
}
