@testable import AuditCore
@testable import AuditRedact
@testable import AuditReport
@testable import AuditScan
import Foundation
import TestHelpers
import Testing

/// Never a leak (issue 8), as a property: random secrets planted in random places of every input
/// format, the input left whole or malformed around the secret, scanned into every output
/// format (with progress drawn, and into a baseline file); no output, error message or progress
/// line may hold a secret or an 8-character piece of one. Seeded: a failure names its seed and
/// trial, never the secret; rerun one with HABITER_LEAK_SEED=<seed>.
@Suite struct LeakPropertyTests {
    static let trials = 160
    static let outputFormats = ["text", "json", "sarif", "github", "html"]
    /// Kinds whose planted secret a scan must find when the input is whole, so that the test
    /// cannot pass by finding nothing.
    static let providerKinds: Set<String> = ["github", "aws", "google", "slack", "stripe", "jwt", "keySecret"]

    @Test func noOutputHoldsAPieceOfAPlantedSecret() throws {
        let seed = ProcessInfo.processInfo.environment["HABITER_LEAK_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026_1130
        var generator = SeededGenerator(seed: seed)
        let directory = TestSupport.temporaryDirectory()
        var whole = 0
        for trial in 0..<Self.trials {
            let secrets = SecretFactory.all(using: &generator)
            let kind = secrets.keys.sorted().randomElement(using: &generator)!
            let secret = secrets[kind]!
            let place = Place.allCases.randomElement(using: &generator)!
            let damage = Damage.allCases.randomElement(using: &generator)!
            let planted = place.input(secret.text)
            let bytes = damage.apply(to: planted.bytes, secret: Array(secret.text.utf8), using: &generator)
            let file = directory.appendingPathComponent("t\(trial)-\(planted.name)")
            try Data(bytes).write(to: file)
            let label = "seed \(seed) trial \(trial): \(kind) secret in \(place) (\(damage))"

            var outputs: [String] = []
            for format in Self.outputFormats {
                let result = TestSupport.runCLI(["scan", "--no-config", "--format", format, file.path], terminal: true)
                #expect([ExitStatus.pass, ExitStatus.findings, ExitStatus.inputError].contains(result.status), "\(label): exit \(result.status)")
                outputs += [result.stdout, result.stderr]
                if format == "json", damage == .none, Self.providerKinds.contains(kind) {
                    // The scan finds what was planted: the test cannot pass by finding nothing.
                    #expect(result.stdout.contains("\"ruleId\""), "\(label): nothing found in the whole input")
                    whole += 1
                }
            }
            let baseline = directory.appendingPathComponent("t\(trial).baseline.json")
            let made = TestSupport.runCLI(["baseline", "--no-config", "-o", baseline.path, file.path])
            outputs += [made.stdout, made.stderr, (try? String(contentsOf: baseline, encoding: .utf8)) ?? ""]
            for output in outputs {
                // Only a boolean reaches the test log, never the output that holds the piece.
                let leaked = secret.pieces.contains { output.contains($0) }
                #expect(!leaked, "\(label): a piece of the secret is in an output")
            }
        }
        #expect(whole >= 5, "only \(whole) trials with a whole input and a provider-format secret")
    }

    /// Where a secret goes, in which input format.
    enum Place: CaseIterable {
        case jsonSensitiveValue, jsonFreeText, jsonKey, jsonURLQuery, jsonInString, jsonBase64, jsonUserinfo, jsonFormBody
        case ndjsonValue, backupNote, gzipJSON
        case harHeader, harCookie, harQuery, harRequestBody, harBase64Response, harWebSocket
        case prefsString, prefsJSONInString, prefsStringSet, prefsAttribute
        case dataStoreString, dataStoreJSONInString, dataStoreStringSet, dataStoreBytes
        case httpHeader, httpQuery, httpBody, httpBasicAuth

        func input(_ secret: String) -> (name: String, bytes: [UInt8]) {
            let js = { (text: String) in String(JSONOutput.string(text).rendered().dropLast()) }
            let xml = { (text: String) in
                text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            }
            let b64 = { (text: String) in Data(text.utf8).base64EncodedString() }
            func har(headers: String = "[]", cookies: String = "[]", url: String = "https://api.example.com/v1/me",
                     query: String = "[]", post: String = "", response: String = #"{"size": 0, "mimeType": "text/plain"}"#, ws: String = "") -> [UInt8] {
                Array(#"""
                {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-11-30T07:00:00Z", "time": 1,
                 "request": {"method": "POST", "url": \#(js(url)), "httpVersion": "HTTP/1.1", "headers": \#(headers), "queryString": \#(query), "cookies": \#(cookies),
                             "headersSize": -1, "bodySize": 0\#(post)},
                 "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": \#(response),
                              "redirectURL": "", "headersSize": -1, "bodySize": -1},
                 "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 1}\#(ws)}]}}
                """#.utf8)
            }
            func prefs(_ entries: String) -> [UInt8] {
                Array("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <boolean name=\"flutter.onboarded\" value=\"true\" />\n\(entries)\n</map>\n".utf8)
            }
            func dataStore(_ entry: (String, DataStoreFixture.Value)) -> [UInt8] {
                DataStoreFixture.file([("habiter_onboarding_v2", .boolean(true)), entry, ("launch_count", .long(3))])
            }
            func http(_ requestLine: String, headers: [String], body: String) -> [UInt8] {
                Array((["\(requestLine) HTTP/1.1", "Host: api.example.com"] + headers + ["Content-Length: \(body.utf8.count)", "", body]).joined(separator: "\r\n").utf8)
            }
            switch self {
            case .jsonSensitiveValue: return ("a.json", Array(#"{"id": "h1", "password": \#(js(secret))}"#.utf8))
            case .jsonFreeText: return ("a.json", Array(#"{"title": "Walk", "description": \#(js("see " + secret + " later"))}"#.utf8))
            case .jsonKey: return ("a.json", Array(#"{"tokens": {\#(js(secret)): true}}"#.utf8))
            case .jsonURLQuery: return ("a.json", Array(#"{"url": \#(js("https://api.example.com/cb?state=x&access_token=" + secret))}"#.utf8))
            case .jsonInString: return ("a.json", Array(#"{"note": \#(js(#"{"apiKey": "# + js(secret) + "}"))}"#.utf8))
            case .jsonBase64: return ("a.json", Array(#"{"blob": \#(js(b64(#"{"token": "# + js(secret) + "}")))}"#.utf8))
            case .jsonUserinfo: return ("a.json", Array(#"{"db": \#(js("https://admin:" + secret + "@db.example.com/"))}"#.utf8))
            case .jsonFormBody: return ("a.json", Array(#"{"body": \#(js("grant_type=refresh_token&refresh_token=" + secret))}"#.utf8))
            case .ndjsonValue:
                return ("a.ndjson", Array((#"{"op": 1, "apiKey": "hk_none"}"# + "\n" + #"{"op": 2, "secret": \#(js(secret))}"# + "\n").utf8))
            case .backupNote:
                return ("b.json", Array(#"{"format": "habiter.backup", "version": 1, "habits": [{"id": "h1", "title": "Walk", "notes": \#(js("pw " + secret))}], "entries": [], "settings": {}}"#.utf8))
            case .gzipJSON:
                let json = Array(#"{"secret": \#(js(secret))}"#.utf8)
                return ("a.json.gz", GzipEncoder.compress(json, headerFrom: []) ?? json)
            case .harHeader: return ("c.har", har(headers: #"[{"name": "Authorization", "value": \#(js("Bearer " + secret))}]"#))
            case .harCookie: return ("c.har", har(headers: #"[{"name": "Cookie", "value": \#(js("theme=dark; session=" + secret))}]"#))
            case .harQuery: return ("c.har", har(url: "https://api.example.com/v1/me?key=" + secret, query: #"[{"name": "key", "value": \#(js(secret))}]"#))
            case .harRequestBody:
                return ("c.har", har(post: #", "postData": {"mimeType": "application/json", "text": \#(js(#"{"client_secret": "# + js(secret) + "}"))}"#))
            case .harBase64Response:
                return ("c.har", har(response: #"{"size": 10, "mimeType": "application/json", "encoding": "base64", "text": \#(js(b64(#"{"access_token": "# + js(secret) + "}")))}"#))
            case .harWebSocket:
                return ("c.har", har(ws: #", "_webSocketMessages": [{"type": "receive", "time": 1, "opcode": 1, "data": \#(js(#"{"token": "# + js(secret) + "}"))}]"#))
            case .prefsString: return ("p.xml", prefs("    <string name=\"flutter.api_token\">\(xml(secret))</string>"))
            case .prefsJSONInString: return ("p.xml", prefs("    <string name=\"flutter.habiter_ai_config\">\(xml(#"{"apiKey": "# + js(secret) + "}"))</string>"))
            case .prefsStringSet: return ("p.xml", prefs("    <set name=\"keys\">\n        <string>a</string>\n        <string>\(xml(secret))</string>\n    </set>"))
            case .prefsAttribute:
                return ("p.xml", prefs("    <string name=\"flutter.api_token\" value=\"\(xml(secret).replacingOccurrences(of: "\"", with: "&quot;"))\" />"))
            case .dataStoreString: return ("s.preferences_pb", dataStore(("api_token", .string(secret))))
            case .dataStoreJSONInString:
                return ("s.preferences_pb", dataStore(("habiter_storage_envelope", .string(#"{"data": {"habiter_ai_config": {"apiKey": "# + js(secret) + "}}}"))))
            case .dataStoreStringSet: return ("s.preferences_pb", dataStore(("keys", .stringSet(["a", secret]))))
            case .dataStoreBytes: return ("s.preferences_pb", dataStore(("blob", .bytes(Array(("key " + secret).utf8)))))
            case .httpHeader: return ("r.http", http("GET /v1/me", headers: ["X-Api-Key: " + secret], body: ""))
            case .httpQuery: return ("r.http", http("GET /v1/me?access_token=" + secret, headers: [], body: ""))
            case .httpBody: return ("r.http", http("POST /v1/login", headers: ["Content-Type: application/json"], body: #"{"password": \#(js(secret))}"#))
            case .httpBasicAuth: return ("r.http", http("GET /v1/me", headers: ["Authorization: Basic " + b64("user:" + secret)], body: ""))
            }
        }
    }

    /// How the input is broken around the secret (at its first occurrence as written, else in
    /// the middle of the input).
    enum Damage: CaseIterable {
        case none, truncatedAfter, truncatedInside, invalidUTF8After, nulBefore, newlineAfter, quoteInside

        func apply<G: RandomNumberGenerator>(to bytes: [UInt8], secret: [UInt8], using generator: inout G) -> [UInt8] {
            let range = bytes.firstRange(of: secret) ?? (bytes.count / 2)..<(bytes.count / 2)
            let inside = range.isEmpty ? range.lowerBound : Int.random(in: range.lowerBound..<range.upperBound, using: &generator)
            switch self {
            case .none: return bytes
            case .truncatedAfter: return Array(bytes[..<range.upperBound])
            case .truncatedInside: return Array(bytes[..<inside])
            case .invalidUTF8After: return Array(bytes[..<range.upperBound]) + [0xFF, 0xC3] + Array(bytes[range.upperBound...])
            case .nulBefore: return Array(bytes[..<range.lowerBound]) + [0] + Array(bytes[range.lowerBound...])
            case .newlineAfter: return Array(bytes[..<range.upperBound]) + [0x0A] + Array(bytes[range.upperBound...])
            case .quoteInside: return Array(bytes[..<inside]) + [0x22] + Array(bytes[inside...])
            }
        }
    }
}
