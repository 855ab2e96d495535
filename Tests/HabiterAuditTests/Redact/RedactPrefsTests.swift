import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import AuditCore
@testable import AuditInputs

private typealias F = RedactFixtures

/// Parses XML with Foundation's parser (independent of the scanner's reader) and collects the
/// text of each `string` element by its `name`.
final class XMLStrings: NSObject, XMLParserDelegate {
    var values: [String: String] = [:]
    private var current: String?
    private var text = ""

    static func parse(_ bytes: [UInt8]) -> [String: String]? {
        let delegate = XMLStrings()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = delegate
        return parser.parse() ? delegate.values : nil
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        current = name == "string" ? attributes["name"] : nil
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if let current { values[current] = text }
        current = nil
    }
}

/// SharedPreferences XML: a redacted value is escaped as Android writes it, and the export still
/// parses (with Foundation's XML parser as well as the scanner's reader).
@Suite struct RedactPrefsTests {
    private static let header = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"

    @Test func redactedTextIsEscapedAsAndroidWritesIt() throws {
        let input = Self.header + """
            <string name="flutter.note">He said &quot;a &amp; b&quot; &lt;ok&gt;: \(F.github)&#10;second line</string>
            <string name="flutter.settings_locale">de</string>
            <boolean name="flutter.classly_enabled" value="true" />
        </map>
        """
        let result = try F.redact(input, name: "FlutterSharedPreferences.xml")
        expectText(result.output, equals: Self.header + """
            <string name="flutter.note">He said &quot;a &amp; b&quot; &lt;ok&gt;: [REDACTED:github-token]&#10;second line</string>
            <string name="flutter.settings_locale">de</string>
            <boolean name="flutter.classly_enabled" value="true" />
        </map>
        """)
        let parsed = try #require(XMLStrings.parse(result.output), "the redacted export is not well-formed XML")
        expectText(parsed["flutter.note"], equals: "He said \"a & b\" <ok>: [REDACTED:github-token]\nsecond line", "the parsed note")
        expectClean(result, leaking: [F.github])
    }

    @Test func jsonInAPrefsStringKeepsItsEntities() throws {
        let input = Self.header + """
            <string name="flutter.habiter_ai_config">{&quot;provider&quot;:&quot;gemini&quot;,&quot;apiKey&quot;:&quot;\(F.google)&quot;}</string>
        </map>
        """
        let result = try F.redact(input)
        expectHolds(result.output, "<string name=\"flutter.habiter_ai_config\">{&quot;provider&quot;:&quot;gemini&quot;,&quot;apiKey&quot;:&quot;[REDACTED:google-api-key]&quot;}</string>")
        expectClean(result, leaking: [F.google])
    }

    @Test func cdataAndSetMembersAreRewrittenAsEscapedText() throws {
        let input = Self.header + """
            <string name="flutter.debug"><![CDATA[<b>token</b> \(F.slack)]]></string>
            <set name="flutter.notes">
                <string>clean member</string>
                <string>key \(F.aws)</string>
            </set>
        </map>
        """
        let result = try F.redact(input)
        let parsed = try #require(XMLStrings.parse(result.output))
        expectText(parsed["flutter.debug"], equals: "<b>token</b> [REDACTED:slack-token]", "the parsed CDATA value")
        expectHolds(result.output, "<string>clean member</string>")
        expectHolds(result.output, "<string>key [REDACTED:aws-access-key-id]</string>")
        expectClean(result, leaking: [F.slack, F.aws])
    }

    @Test func aPlaintextSecureStorageValueIsReplacedAndCiphertextKept() throws {
        let prefix = FlutterPrefsEncoding.secureStoragePrefix
        let ciphertext = "ItwFwotcT1mdlyIViT2KWhJgD+p0l8yjQxPdx/JnPWRWbB2i6g9qOotlm/Ze6tId&#10;"
        let input = Self.header + """
            <string name="\(prefix)habiter_sync_refresh_token">\(ciphertext)</string>
            <string name="\(prefix)classly_token">\(F.password)-Xq9Lm2Vw7Tz</string>
        </map>
        """
        let result = try F.redact(input, name: "FlutterSecureStorage.xml")
        expectHolds(result.output, ciphertext)
        expectHolds(result.output, "<string name=\"\(prefix)classly_token\">[REDACTED:token]</string>")
        expectClean(result, leaking: ["\(F.password)-Xq9Lm2Vw7Tz"])
    }

    /// Markup the scan reads (issue 18) is redacted in place: attribute values (in either quote),
    /// comments anywhere, entry names. `TOKEN` stands for the token; the second string is the
    /// line as it must be written.
    @Test(arguments: [
        ("<string name=\"flutter.api_token\" value=\"TOKEN\"/>", "<string name=\"flutter.api_token\" value=\"[REDACTED:github-token]\"/>"),
        ("<string name='flutter.k' note='it&apos;s TOKEN'>x</string>", "<string name='flutter.k' note='it&apos;s [REDACTED:github-token]'>x</string>"),
        ("<list name=\"flutter.l\"><string note=\"TOKEN\">x</string></list>", "<list name=\"flutter.l\"><string note=\"[REDACTED:github-token]\">x</string></list>"),
        ("<set name=\"flutter.s\"><string note=\"TOKEN\">x</string></set>", "<set name=\"flutter.s\"><string note=\"[REDACTED:github-token]\">x</string></set>"),
        ("<!-- between TOKEN -->", "<!-- between [REDACTED:github-token] -->"),
        ("<string name=\"flutter.k\">a<!-- TOKEN -->b</string>", "<string name=\"flutter.k\">a<!-- [REDACTED:github-token] -->b</string>"),
        ("<string name=\"TOKEN\">x</string>", "<string name=\"[REDACTED:github-token]\">x</string>"),
        // A text that is redacted is written again whole, comments inside it included.
        ("<string name=\"flutter.k\">OTHER<!-- TOKEN --></string>", "<string name=\"flutter.k\">[REDACTED:github-token]</string>"),
        ("<string name=\"flutter.k\" meta=\"{&quot;apiKey&quot;:&quot;GOOGLE&quot;}\">x</string>",
         "<string name=\"flutter.k\" meta=\"{&quot;apiKey&quot;:&quot;[REDACTED:google-api-key]&quot;}\">x</string>"),
    ] as [(String, String)])
    func markupIsRedactedInPlace(_ template: String, _ expected: String) throws {
        func export(_ line: String) -> String {
            Self.header + "    \(line)\n    <string name=\"flutter.settings_locale\">de</string>\n</map>\n"
        }
        let input = export(template.replacingOccurrences(of: "TOKEN", with: F.github).replacingOccurrences(of: "GOOGLE", with: F.google)
            .replacingOccurrences(of: "OTHER", with: F.github2))
        let result = try F.redact(input, name: "FlutterSharedPreferences.xml")
        expectText(result.output, equals: export(expected))
        #expect(XMLStrings.parse(result.output) != nil, "the redacted export is not well-formed XML")
        expectClean(result, leaking: [F.github, F.github2, F.google])
    }

    /// Comments outside `<map>`, on both sides, and the root's own attributes.
    @Test func commentsAroundTheRootAndItsAttributesAreRedacted() throws {
        let input = "<!-- \(F.github) -->\n<map note=\"\(F.aws)\">\n    <string name=\"flutter.a\">x</string>\n</map>\n<!-- \(F.slack) -->\n"
        let result = try F.redact(input, name: "FlutterSharedPreferences.xml")
        expectText(result.output, equals: "<!-- [REDACTED:github-token] -->\n<map note=\"[REDACTED:aws-access-key-id]\">\n    <string name=\"flutter.a\">x</string>\n</map>\n<!-- [REDACTED:slack-token] -->\n")
        expectClean(result, leaking: [F.github, F.aws, F.slack])
    }

    /// A secret in an element or attribute name cannot be replaced (a placeholder is no XML
    /// name): the redaction is refused, naming the place, and nothing is written.
    @Test(arguments: [
        ("<list name=\"flutter.l\"><TOKEN/></list>", "/flutter.l/#element/0/#name", "element"),
        ("<string name=\"flutter.k\" TOKEN=\"1\">x</string>", "/flutter.k/@[REDACTED]", "attribute"),
    ] as [(String, String, String)])
    func aSecretInANameIsRefused(_ template: String, _ path: String, _ kind: String) throws {
        let input = Self.header + "    \(template.replacingOccurrences(of: "TOKEN", with: F.github))\n</map>\n"
        do {
            _ = try F.redact(input, name: "FlutterSharedPreferences.xml")
            Issue.record("a secret in an \(kind) name was redacted")
        } catch {
            guard case .incomplete = error else {
                Issue.record("refused for another reason: \(error.lines.count) lines")
                return
            }
            #expect(error.lines.contains("FlutterSharedPreferences.xml: a secret in an \(kind) name at \(path) cannot be replaced in place"))
            #expect(error.lines.last == "FlutterSharedPreferences.xml: 1 secret could not be redacted; nothing was written")
            #expect(!F.holds(error.description, F.github))
        }
    }

    @Test func theCommandLineRefusesASecretInANameWithExitStatus2() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("FlutterSharedPreferences.xml")
        let copy = directory.appendingPathComponent("redacted.xml")
        try Data((Self.header + "    <list name=\"flutter.l\"><\(F.github)/></list>\n</map>\n").utf8).write(to: file)
        let result = TestSupport.runCLI(["redact", "--quiet", file.path, "-o", copy.path])
        #expect(result.status == ExitStatus.inputError)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(!F.holds(result.stdout + result.stderr, F.github))
    }
}
