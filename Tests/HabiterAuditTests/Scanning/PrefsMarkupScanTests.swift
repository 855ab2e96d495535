@testable import AuditCore
@testable import AuditInputs
import Foundation
import Testing

/// Fake, format-valid secrets (as in RedactFixtures).
private let github = "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"
private let google = "AIzao-qaOPBnfupBPM1gXwlMNBAcFu1778WMFMx"

private let header = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n"

/// `rule path line:column key=…` of each secret finding: what a failing expectation prints.
private func summaries(_ findings: [Finding]) -> [String] {
    findings.filter { $0.family == .secret }.map { f in
        "\(f.ruleId) \(f.pathText) \(f.position.line):\(f.position.column) key=\(f.key ?? "-")"
    }
}

/// Text that holds no value in a prefs export (issue 18): unknown attributes, attributes of
/// `<map>` and of elements inside other entries, comments anywhere, names of unknown elements and
/// attributes, entry names. Each is scanned with the pattern rules and found at its line:column,
/// at a path that never spells the secret.
@Suite struct PrefsMarkupScanTests {
    /// Each place: the export, with `TOKEN` standing for the token, and the finding expected.
    @Test(arguments: [
        // An attribute other than `name` on a known entry: the issue's example.
        ("<map>\n    <string name=\"flutter.api_token\" value=\"TOKEN\"/>\n</map>\n", "/flutter.api_token/@value 3:45 key=value"),
        ("<map>\n<boolean name=\"flutter.b\" value=\"true\" note=\"TOKEN\" />\n</map>\n", "/flutter.b/@note 3:46 key=note"),
        ("<map token=\"TOKEN\">\n</map>\n", "/@token 2:13 key=token"),
        ("<map>\n<list name=\"flutter.l\"><string note=\"TOKEN\">x</string></list>\n</map>\n", "/flutter.l/#element/0/@note 3:38 key=note"),
        ("<map>\n<map name=\"flutter.m\" extra=\"TOKEN\"><string name=\"k\">v</string></map>\n</map>\n", "/flutter.m/@extra 3:30 key=extra"),
        ("<map>\n<map name=\"flutter.m\"><int name=\"n\" value=\"1\"/><string name=\"k\" extra=\"TOKEN\">v</string></map>\n</map>\n", "/flutter.m/#element/1/@extra 3:72 key=extra"),
        ("<map>\n<set name=\"flutter.s\"><string>a</string><string note=\"TOKEN\">b</string></set>\n</map>\n", "/flutter.s/1/@note 3:55 key=note"),
        // Comments before the root, between entries, inside a string, inside a set, after the root.
        ("<!-- TOKEN -->\n<map/>\n", "/#comment/0 2:5 key=-"),
        ("<!-- a -->\n<map>\n<string name=\"flutter.a\">x</string>\n  <!-- TOKEN -->\n</map>\n", "/#comment/1 5:7 key=-"),
        ("<map>\n<string name=\"flutter.k\">x<!-- TOKEN -->y</string>\n</map>\n", "/flutter.k/#comment/0 3:31 key=k"),
        ("<map>\n<set name=\"flutter.s\"><!-- TOKEN --><string>a</string></set>\n</map>\n", "/flutter.s/#comment/0 3:27 key=s"),
        ("<map/>\n<!-- TOKEN -->", "/#comment/0 3:5 key=-"),
        // Names: of an element inside another entry, of an unknown entry element, of an attribute,
        // of the entry itself.
        ("<map>\n<list name=\"flutter.l\"><string>x</string><TOKEN/></list>\n</map>\n", "/flutter.l/#element/1/#name 3:43 key=-"),
        ("<map>\n<TOKEN name=\"flutter.x\"/>\n</map>\n", "/flutter.x/#name 3:2 key=-"),
        ("<map>\n<string name=\"flutter.k\" TOKEN=\"1\">x</string>\n</map>\n", "/flutter.k/@[REDACTED] 3:26 key=-"),
        ("<map>\n<string name=\"TOKEN\">x</string>\n</map>\n", "/[REDACTED]/@name 3:15 key=-"),
        // CDATA in the text of another entry (found before, kept).
        ("<map>\n<list name=\"flutter.l\"><string><![CDATA[TOKEN]]></string></list>\n</map>\n", "/flutter.l/0 3:32 key=l"),
    ] as [(String, String)])
    func eachPlaceIsScannedAtItsPosition(_ template: String, _ expected: String) {
        let text = header + template.replacingOccurrences(of: "TOKEN", with: github)
        let outcome = TestSupport.scan(text, name: "FlutterSharedPreferences.xml")
        #expect(outcome.errors.isEmpty)
        #expect(summaries(outcome.findings) == ["secret.github-token \(expected)"])
        for finding in outcome.findings {
            let leaks = [finding.pathText, finding.key ?? "", finding.message].contains { $0.contains(github) }
            #expect(!leaks, "\(finding.ruleId) at \(finding.position.line) names the secret")
        }
        #expect(!outcome.inventory.contains { $0.name.contains(github) })
    }

    /// An attribute value is a value like any other: JSON in it is opened as a layer.
    @Test func jsonInAnAttributeIsOpened() {
        let text = header + "<map>\n<string name=\"flutter.k\" meta=\"{&quot;apiKey&quot;:&quot;\(google)&quot;}\">x</string>\n</map>\n"
        let outcome = TestSupport.scan(text, name: "FlutterSharedPreferences.xml")
        #expect(outcome.errors.isEmpty)
        #expect(summaries(outcome.findings) == ["secret.google-api-key /flutter.k/@meta!json/apiKey 3:32 key=apiKey"])
    }

    /// Markup is scanned in document order with the entry's value, so findings come out by
    /// position whatever the order of attributes.
    @Test func findingsOfOneEntryAreInDocumentOrder() {
        let text = header + "<map>\n<string a=\"\(github)\" name=\"flutter.k\" b=\"\(github)\">\(google)<!-- \(github) --></string>\n</map>\n"
        let outcome = TestSupport.scan(text, name: "FlutterSharedPreferences.xml")
        #expect(outcome.errors.isEmpty)
        #expect(summaries(outcome.findings) == [
            "secret.github-token /flutter.k/@a 3:12 key=a",
            "secret.github-token /flutter.k/@b 3:74 key=b",
            "secret.google-api-key /flutter.k 3:116 key=k",
            "secret.github-token /flutter.k/#comment/0 3:159 key=k",
        ])
    }

    /// The names of a secure-storage dump are what it holds, expected in it: the prefix and the
    /// keysets' names are not reported, a token in the user key after the prefix is.
    @Test func secureStorageNamesAreScannedAfterTheirPrefix() {
        let prefix = FlutterPrefsEncoding.secureStoragePrefix
        let text = header + """
        <map>
        <string name="__androidx_security_crypto_encrypted_prefs_key_keyset__">12a9010a</string>
        <string name="\(prefix)settings_locale">de</string>
        <string name="\(prefix)\(github)">de</string>
        </map>

        """
        let outcome = TestSupport.scan(text, name: "FlutterSecureStorage.xml")
        #expect(outcome.errors.isEmpty)
        #expect(summaries(outcome.findings) == ["secret.github-token /[REDACTED]/@name 5:15 key=-"])
    }

    /// The issue's example through the command line: findings (exit status 1), where it scanned
    /// clean before.
    @Test func theCommandLineReportsAnUnknownAttribute() throws {
        let directory = TestSupport.temporaryDirectory()
        let file = directory.appendingPathComponent("FlutterSharedPreferences.xml")
        try Data((header + "<map>\n    <string name=\"flutter.api_token\" value=\"\(github)\"/>\n</map>\n").utf8).write(to: file)
        let result = TestSupport.runCLI(["scan", "--no-config", file.path])
        #expect(result.status == ExitStatus.findings)
        #expect(!result.stdout.contains(github) && !result.stderr.contains(github))
        try? FileManager.default.removeItem(at: directory)
    }
}
