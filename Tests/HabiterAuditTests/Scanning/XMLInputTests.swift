@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Testing

/// Fake, format-valid secrets (as in CaptureTests).
private let github = "ghp_Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

/// XML that is not a SharedPreferences `<map>`: attribute values and text nodes, each at an
/// XPath-like path, with no DTD and no entities (issue 22).
@Suite struct XMLInputTests {
    static let manifest = """
    <?xml version="1.0" encoding="utf-8"?>
    <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="app.habiter">
        <uses-permission android:name="android.permission.INTERNET"/>
        <application android:label="Habiter" android:icon="@mipmap/ic_launcher">
            <meta-data android:name="flutterEmbedding" android:value="2"/>
            <meta-data android:name="api_key" android:value="\(github)"/>
            <activity android:name=".MainActivity" android:exported="true"/>
        </application>
    </manifest>

    """

    @Test func aKeyInAManifestAttributeIsFoundAtItsPath() {
        let result = TestSupport.scan(Self.manifest, name: "android/app/src/main/AndroidManifest.xml")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == ["secret.github-token 6:58 /manifest/application/meta-data[2]/@android:value key=api_key"])
    }

    @Test func anOrdinaryManifestAndLayoutHaveNoFinding() {
        let clean = Self.manifest.replacingOccurrences(of: "<meta-data android:name=\"api_key\" android:value=\"\(github)\"/>", with: "")
        let layout = """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- The sign-in screen. -->
        <LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
            android:layout_width="match_parent" android:orientation="vertical">
            <EditText android:id="@+id/password" android:inputType="textPassword" android:hint="@string/password_hint"/>
            <TextView android:text="Forgot your password?"/>
        </LinearLayout>
        """
        let strings = "<resources>\n  <string name=\"password_hint\">Password</string>\n  <string name=\"app_name\">Habiter</string>\n</resources>\n"
        for (text, name) in [(clean, "AndroidManifest.xml"), (layout, "res/layout/sign_in.xml"), (strings, "res/values/strings.xml")] {
            let result = TestSupport.scan(text, name: name)
            #expect(result.errors.isEmpty, "\(name)")
            #expect(result.findings.isEmpty, "\(name): \(result.findings.map(summary))")
        }
    }

    @Test func aValueIsJudgedByTheNameTheFileGivesIt() {
        let strings = "<resources>\n  <string name=\"client_secret\">Xk9mQ2vL7pR4wzT8aB3n</string>\n</resources>\n"
        #expect(TestSupport.scan(strings, name: "res/values/secrets.xml").findings.map(summary)
                == ["name.client-secret 2:32 /resources/string/text() key=client_secret"])
        // A plist names a value by the <key> before it; its external DTD is never read.
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>CFBundleName</key>
            <string>Habiter</string>
            <key>client_secret</key>
            <string>Xk9mQ2vL7pR4wzT8aB3n</string>
        </dict>
        </plist>
        """
        let result = TestSupport.scan(plist, name: "ios/Runner/Info.plist")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == ["name.client-secret 8:13 /plist/dict/string[2]/text() key=client_secret"])
    }

    /// A `key` attribute names its element's `value` and text as `name` does: NuGet's and .NET's
    /// `<add key="…" value="…"/>` and Java's XML properties gave no finding before.
    @Test func aKeyAttributeNamesTheValue() {
        let nuget = """
        <?xml version="1.0" encoding="utf-8"?>
        <configuration>
          <packageSourceCredentials>
            <github>
              <add key="Username" value="octocat" />
              <add key="ClearTextPassword" value="Nb4-vQ7r!Lm2" />
            </github>
          </packageSourceCredentials>
        </configuration>
        """
        #expect(TestSupport.scan(nuget, name: "NuGet.config").findings.map(summary)
                == ["name.password 6:43 /configuration/packageSourceCredentials/github/add[2]/@value key=ClearTextPassword"])
        let properties = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE properties SYSTEM "http://java.sun.com/dtd/properties.dtd">
        <properties><entry key="db.user">app</entry><entry key="db.password">Xk9mQ2vL7pR4wzT8aB3n</entry></properties>
        """
        #expect(TestSupport.scan(properties, name: "config.xml").findings.map(summary)
                == ["name.password 3:70 /properties/entry[2]/text() key=db.password"])
    }

    /// A named element's children that have no sensitive name of their own are judged by its
    /// name, as an array's elements are by the array's: Android's `<string-array>` items and
    /// SAML's attribute values gave no finding before.
    @Test func aNamedElementNamesItsChildrensText() {
        let strings = """
        <resources>
            <string-array name="planets"><item>Mercury</item></string-array>
            <string-array name="api_keys"><item>Xk9mQ2vL7pR4wzT8aB3n</item></string-array>
        </resources>
        """
        #expect(TestSupport.scan(strings, name: "res/values/arrays.xml").findings.map(summary)
                == ["name.api-key 3:41 /resources/string-array[2]/item/text() key=api_keys"])
        let saml = #"<saml:AttributeStatement xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"><saml:Attribute Name="uid"><saml:AttributeValue>alice</saml:AttributeValue></saml:Attribute><saml:Attribute Name="password"><saml:AttributeValue>Xk9mQ2vL7pR4wzT8aB3n</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>"#
        #expect(TestSupport.scan(saml, name: "assertion.xml").findings.map(summary)
                == ["name.password 1:222 /saml:AttributeStatement/saml:Attribute[2]/saml:AttributeValue/text() key=password"])
    }

    @Test(arguments: [
        ("<?xml version='1.0'?>\n<!DOCTYPE manifest [<!ENTITY a \"aaaa\">]>\n<manifest>&a;</manifest>\n",
         "layout.xml:2:21: ENTITY declarations are not allowed"),
        ("<manifest><!ENTITY a \"b\"></manifest>", "layout.xml:1:11: ENTITY declarations are not allowed"),
        ("<?xml version='1.0'?>\n<!DOCTYPE r [<!ELEMENT r ANY>\n%p;]><r/>", "layout.xml:3:1: a parameter-entity reference in a DOCTYPE is not allowed (a DTD may declare elements, attribute lists and notations; no entity definitions or external entities)"),
        ("<?xml version='1.0'?>\n<!DOCTYPE r [<!ATTLIST r a CDATA %p;>]><r/>", "layout.xml:2:34: a parameter-entity reference in a DOCTYPE is not allowed (a DTD may declare elements, attribute lists and notations; no entity definitions or external entities)"),
        ("<?xml version='1.0'?>\n<!DOCTYPE r [<!FOO r>]><r/>", "layout.xml:2:14: unknown markup declaration after '<!'"),
        ("<?xml version='1.0'?>\n<!DOCTYPE r [<!ELEMENT r ANY>] [<!ELEMENT s ANY>]><r/>", "layout.xml:2:32: unexpected '[' in markup"),
        ("<?xml version='1.0'?>\n<!DOCTYPE r [<!ELEMENT r ANY>", "layout.xml:2:30: unexpected end of input inside a tag"),
    ])
    func aDTDOrAnEntityIsRefused(_ text: String, _ error: String) {
        let result = TestSupport.scan(text, name: "layout.xml")
        #expect(result.errors.map(\.description) == [error])
    }

    /// A DTD that declares elements, attribute lists and notations, with comments and processing
    /// instructions (Burp Suite's exports have one), describes the document and changes nothing
    /// in it: the document is read. Its declarations are scanned as text (a default value is text).
    @Test func aDTDOfDeclarationsIsRead() {
        let document = """
        <?xml version="1.0"?>
        <!DOCTYPE config [
        <!ELEMENT config (password)>
        <!-- defaults -->
        <?note ignored?>
        <!ATTLIST config token CDATA "\(github)">
        <!NOTATION png SYSTEM "image/png">
        ]>
        <config><password>Xk9mQ2vL7pR4wzT8aB3n</password></config>
        """
        let result = TestSupport.scan(document, name: "config.xml")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == ["secret.github-token 2:19 /comment() key=-", "name.password 9:19 /config/password/text() key=password"])
    }

    @Test func forcedXMLThatDoesNotParseIsAnError() {
        let options = ScanOptions(inputFormat: .xml)
        #expect(TestSupport.scan("<a><b></a>", name: "x.xml", options: options).errors.map(\.description)
                == ["x.xml:1:7: end tag does not match the open element"])
        #expect(TestSupport.scan("<a>&nbsp;</a>", name: "x.xml", options: options).errors.map(\.reason)
                == ["undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)"])
    }
}
