import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import HabiterAudit

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
}
