@testable import AuditDetection
@testable import AuditScan
import Testing

/// Every suppression heuristic, through a real scan: what it suppresses, and the near miss it
/// must still report. Values outside sync context unless the case says otherwise.
@Suite struct FalsePositiveControlTests {
    static func ruleIds(_ text: String, name: String = "input.json") -> [String] {
        let result = TestSupport.scan(text, name: name)
        #expect(result.errors.isEmpty, "\(result.errors.map(\.description))")
        return result.findings.map(\.ruleId)
    }

    static let github = "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"

    @Test(arguments: [
        // Placeholders: masks, templates, instructions, documentation examples, status words.
        (#"{"apiKey": "<redacted>"}"#, [String]()),
        (#"{"apiKey": "********"}"#, []),
        (#"{"apiKey": "YOUR_API_KEY"}"#, []),
        (#"{"apiKey": "xxxxxxxxxxxxxxxx"}"#, []),
        (#"{"password": "changeme"}"#, []),
        (#"{"apiKey": "${API_KEY}"}"#, []),
        (#"{"apiKey": "{{ api_key }}"}"#, []),
        (#"{"password": "%s"}"#, []),
        (#"{"password": "too_short"}"#, []),
        (#"{"accessKeyId": "AKIAIOSFODNN7EXAMPLE"}"#, []),
        (#"{"apiKey": "q8Zr-Wm3v-Tt5x"}"#, ["name.api-key"]),
        (#"{"password": "Sh4rp-Otter-19"}"#, ["name.password"]),
        // In sync data the contract fails closed on the name, placeholder or not.
        (#"{"schemaVersion": 1, "entityId": "setting/appearance.theme", "deleted": false, "payload": {"value": "dark", "apiKey": "<redacted>"}}"#,
         ["contract.setting-payload", "name.api-key"]),
    ])
    func placeholders(_ text: String, _ expected: [String]) {
        #expect(Self.ruleIds(text) == expected, "\(text)")
    }

    @Test(arguments: [
        // Identifiers of this domain: UUIDs, numeric ids, idempotency keys, hex colours.
        (#"{"habitId": "f768064f-9585-47ad-a39e-ed24c2c063fe", "id": 1234567890, "idempotencyKey": "946a0998-d656-4964-afba-a4dd12f034c1"}"#, [String]()),
        (##"{"color": "#1E88E5", "accentToken": "#1E88E5"}"##, []),
        // A UUID as a password is still a password.
        (#"{"password": "f768064f-9585-47ad-a39e-ed24c2c063fe"}"#, ["name.password"]),
        // Dates and times, also under a sensitive name.
        (#"{"token": "2026-11-30T07:30:00.000Z", "passwordUpdatedAt": "2026-11-30"}"#, []),
        // Hashes and ETags.
        (#"{"etag": "\"0483aea62ffe1b2e5ab4e303f5eb15491eb88166480811beaa712f70f1322ca5\"", "manifestSha256": "c232a4a4670892aee842af1d182622d887c28d19b3dd8f7cf06f20de350d1cec"}"#, []),
        // Pagination cursors, also under token names.
        (#"{"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3", "continuation_token": "b2Zmc2V0PTIwMA", "cursor": "eyJvZmZzZXQiOjEwMH0"}"#, []),
        (#"{"refreshToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3"}"#, ["name.refresh-token"]),
        // A JWT-shaped cursor whose header does not decode as a JWT header.
        (#"{"next": "eyJvZmZzZXQiOjEwMH0.eyJwYWdlIjoyfQ.c2lnbmF0dXJl"}"#, []),
        // PKCE: the challenge is public, the verifier is not.
        (#"{"code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"}"#, []),
        (#"{"code_verifier": "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"}"#, ["name.pkce-verifier"]),
        // Material icon names, also ones that name secrets.
        (#"{"icon": "vpn_key", "icons": ["password", "key", "lock"], "passwordIcon": "visibility_off"}"#, []),
        // Base64 image data is decoded and found clean; base64 text holding a token is not.
        (#"{"avatar": "iVBORw0KGgr0Kn2M4Jcb1op+Fd++onCm9EoO304RAxf0t579QPGvXfQ0fv1ZGlTT4Xxyt/S+tTDXSDmqR1R8WEYILcTUNmmhjY7IyVDJvl4T7ndnM5dsX990JrXf/MxQJBU="}"#, []),
        (#"{"attachment": "R0lUSFVCX1RPS0VOPWdocF9NdUpZVEM1VVp6TTdOYkRpU01yWlF5RTZOMW1vZksyRTZwNnoK"}"#, ["secret.github-token"]),
        // Labels and prompts under sensitive names, in any language.
        (#"{"confirmPassword": "Confirm password", "passwordHint": "At least 12 characters, one digit."}"#, []),
        (#"{"forgotPassword": "Passwort vergessen?"}"#, []),
        // Identifiers under credential-like names: Twilio resource SIDs, push registration tokens.
        (#"{"twilioAccountSid": "AC3f9c2b7e1d5a48c6b0e2f4a6c8d0e1f2", "fcmRegistrationToken": "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"}"#, []),
        (#"{"sessionSid": "k3Lp9QzR7mW2xT5v"}"#, ["name.session"]),
        // Tokens their vendors publish.
        (#"{"mapboxAccessToken": "pk.eyJ1IjoiaGFiaXRlciIsImEiOiJjbGZ0eTJ0In0.Q8ZrWm3vTt5xLp2NcH7jK4", "stripeKey": "pk_live_51HqLp9QzR7mW2xT5v"}"#, []),
        (#"{"mapboxAccessToken": "sk.eyJ1IjoiaGFiaXRlciIsImEiOiJjbGZ0eTJ0In0.Q8ZrWm3vTt5xLp2NcH7jK4"}"#, ["secret.mapbox-secret-token"]),
        // German prose after a trigger phrase: words, not passwords.
        (#"{"note": "Das Passwort ist geändert. Türcode: übermorgen neu. PIN lautet später."}"#, []),
        (#"{"note": "Das WLAN-Passwort ist Gartenzwerg#12"}"#, ["secret.credential-in-prose"]),
    ])
    func safeShapes(_ text: String, _ expected: [String]) {
        #expect(Self.ruleIds(text) == expected, "\(text)")
    }

    @Test func encryptedSecureStorageValuesAreNotScanned() {
        // Base64.DEFAULT of a 16-byte IV and two AES blocks, with Android's trailing line break.
        let cipher = "goIeL9TA8YbZ25ST3u2cHM+HnAVmKSvLb1q+cazcg3l2uPxhdB70ZORgK3vK3ce7&#10;"
        let prefs = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIHNlY3VyZSBzdG9yYWdlCg_classly_token\">\(cipher)</string>\n</map>\n"
        #expect(Self.ruleIds(prefs, name: "FlutterSecureStorage.xml") == [])
    }

    @Test func entropyIsCalibratedToTheCharacterSet() {
        #expect(EntropyCalibration.alphabetSize(Array("0123456789".utf8).withUnsafeBytes { $0 }) == 10)
        #expect(EntropyCalibration.looksRandom("3f786850e387550fdab836ed7e6dc881de23001b"))  // random hex
        #expect(EntropyCalibration.looksRandom("kqzvmtrhwxbyplsjgdncfaeu"))                  // random lowercase
        #expect(EntropyCalibration.looksRandom("Q8ZrWm3vTt5xLp2NcH7jK4sD"))                  // random base62
        #expect(!EntropyCalibration.looksRandom("abababababababababababab"))
        #expect(!EntropyCalibration.looksRandom("passwordpasswordpassword"))
        #expect(!EntropyCalibration.looksRandom("aaaaaaaaaaaaaaaaaaaaaaaa"))
        // A fixed 3.5-bit threshold would call random hex (at most 4 bits) and English alike.
        #expect(EntropyCalibration.expectedEntropy(length: 40, alphabet: 16) < 4)
        #expect(EntropyCalibration.expectedEntropy(length: 20, alphabet: 62) < EntropyCalibration.expectedEntropy(length: 200, alphabet: 62))
    }
}

/// Issue 20's classes 2 and 3: templates and placeholders (also percent-encoded), and
/// identifiers under a bare session name.
@Suite struct TemplateAndIdentifierTests {
    static func ruleIds(_ text: String, name: String = "input.json") -> [String] {
        FalsePositiveControlTests.ruleIds(text, name: name)
    }

    @Test(arguments: [
        #"{"token": "value%5B${accessToken}%5D"}"#,
        #"{"token": "%24%7BaccessToken%7D"}"#,
        #"{"token": "{{token}}"}"#,
        #"{"authorization": "Bearer {{ access_token }}"}"#,
        #"{"token": "<%= token %>"}"#,
        #"{"apiKey": "$API_TOKEN"}"#,
        #"{"apiKey": "process.env.OPENAI_API_KEY"}"#,
        #"{"secret": "os.environ[\"CLIENT_SECRET\"]"}"#,
        #"{"secret": "os.getenv('CLIENT_SECRET')"}"#,
        #"{"secret": "os.environ['CLIENT_SECRET']"}"#,
        #"{"apiKey": "RANDOMSTRINGHERE"}"#,
        #"{"token": "your_token_here"}"#,
        #"{"apiKey": "xxxxxxxxxxxxxxxxxxxxxxxx"}"#,
        #"{"notes": "DB_PASSWORD=\nDB_USER=habiter_admin"}"#,
        #"{"script": "http.get(`${BASE}/v1/pull?token=${accessToken}`)"}"#,
    ])
    func placeholdersAreNotSecrets(_ text: String) {
        #expect(Self.ruleIds(text) == [], "\(text)")
    }

    @Test(arguments: [
        (#"{"token": "q8Zr-Wm3v-Tt5x-Lp2k"}"#, ["name.token"]),
        (#"{"token": "value%5Bq8Zr-Wm3v-Tt5x%5D"}"#, ["name.token"]),
        (#"{"apiKey": "$ecret-Otter-19"}"#, ["name.api-key"]),
    ])
    func nearMissesAreStillFound(_ text: String, _ expected: [String]) {
        #expect(Self.ruleIds(text) == expected, "\(text)")
    }

    static let uuid = "5f0c1d2e-8a7b-4c3d-9e1f-2a3b4c5d6e7f"
    static let ulid = "01HZX3K7Q9V5T2M8N4R6B1C0DE"

    @Test(arguments: [uuid, ulid])
    func sessionIdentifiersInPayloadsAndPrefsAreNotSecrets(_ id: String) {
        #expect(Self.ruleIds(#"{"events": [{"name": "app_open", "sessionId": "\#(id)"}]}"#) == [])
        let prefs = """
            <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
            <map>
                <string name="com.facebook.appevents.SessionInfo.sessionId">\(id)</string>
                <string name="session_id">\(id)</string>
            </map>
            """
        #expect(Self.ruleIds(prefs, name: "com.facebook.sdk.appEventPreferences.xml") == [])
    }

    @Test func otherSessionValuesAreStillSecrets() {
        #expect(Self.ruleIds(#"{"sessionId": "s%3AqL8vT2xR9mK4wZ7pN1cF6hJ3.Zq0"}"#) == ["name.session"])
    }

    @Test(arguments: [uuid, ulid])
    func aSessionIdTheProtocolCarriesIsStillACredential(_ id: String) {
        let http = "GET /v1/pull HTTP/1.1\r\nHost: sync.example.net\r\nCookie: sessionid=\(id)\r\nX-Session-Id: \(id)\r\n\r\n"
        // One secret, one finding per request: the header is a related location of the cookie.
        #expect(Self.ruleIds(http, name: "pull.http") == ["name.session"])
        let har = #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{"request": {"method": "GET", "url": "https://sync.example.net/v1/pull", "headers": [{"name": "Cookie", "value": "sessionid=\#(id)"}, {"name": "X-Session-Id", "value": "\#(id)"}], "cookies": [{"name": "sessionid", "value": "\#(id)"}]}, "response": {"status": 200, "headers": [], "content": {"size": 0, "mimeType": "text/plain", "text": ""}}}]}}"#
        #expect(Self.ruleIds(har, name: "pull.har").allSatisfy { $0 == "name.session" })
        #expect(!Self.ruleIds(har, name: "pull.har").isEmpty)
    }

    @Test func identifierShapes() {
        func check(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { SafeShapes.isIdentifier($0) } }
        #expect(check(Self.uuid))
        #expect(check(Self.uuid.uppercased()))
        #expect(check(Self.ulid))
        #expect(!check("81HZX3K7Q9V5T2M8N4R6B1C0DE"))  // a ULID's first character is at most 7
        #expect(!check("01HZX3K7Q9V5T2M8N4R6B1C0DU"))  // U is not Crockford base32
        #expect(!check("5f0c1d2e8a7b4c3d9e1f2a3b4c5d6e7f"))
        #expect(!check("5f0c1d2e-8a7b-4c3d-9e1f-2a3b4c5d6e7g"))
    }
}

/// Issue 20's class 4: a count, a flag or a date under a sensitive store's name is what a summary
/// says about the store, not the store.
@Suite struct StoreSummaryTests {
    @Test(arguments: [
        #"{"diagnostics": {"personal_sync.pending.v1": 0, "habiter_storage_backup_v0": 2}}"#,
        #"{"stores": {"habiter_ai_config": true, "personal_sync.connection.v1": null}}"#,
        #"{"personal_sync.connection.v1": "2026-11-30T10:00:00Z"}"#,
    ])
    func summariesAreNotTheStore(_ text: String) {
        let result = TestSupport.scan(text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.ruleId))")
        #expect(result.inventory.allSatisfy { $0.verdict <= .note })
    }

    @Test(arguments: [
        #"{"personal_sync.connection.v1": {"server": "https://sync.example.net", "accessToken": "q8Zr-Wm3v-Tt5x-Lp2k"}}"#,
        #"{"habiter_storage_backup_v0": "{\"habits\":[]}"}"#,
    ])
    func theStoreItselfIsStillReported(_ text: String) {
        #expect(TestSupport.scan(text).findings.contains { $0.ruleId == "inventory.sensitive-store" })
    }

    @Test func inSyncDataASummaryStillFailsClosed() {
        let push = #"{"operations": [], "personal_sync.pending.v1": 0}"#
        #expect(!TestSupport.scan(push, options: ScanOptions(context: .sync)).findings.isEmpty)
    }
}
