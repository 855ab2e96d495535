@testable import AuditCore
import Foundation
import Testing

/// Terminal and log injection (issue 18): hostile names in every place a name comes from (a JSON
/// key, a HAR header, cookie and query parameter, a prefs XML name, a file name), rendered
/// through every output format. Human formats (text, github, html) and stderr show no control,
/// separator or bidirectional character raw (line feeds and, in HTML, tabs are the reports' own);
/// JSON and SARIF stay valid JSON.
@Suite struct DisplayInjectionTests {
    static let token = HostileInputTests.token

    /// The issue's reproduction: a key that prints a forged summary and hides what follows.
    static let forgedSummary = "k\n\nNo findings in 1 input. Gate passed.\n\u{1B}[8m"

    /// What a name may hold, hostile pieces mixed with ordinary ones.
    static let pieces: [String] = [
        "\u{1B}[2J", "\u{1B}]8;;https://example.invalid\u{7}", "\u{9B}31m", "\u{7F}", "\r", "\n", "\t", "\u{8}", "\u{0}",
        "\u{202E}", "\u{2066}", "\u{2069}", "\u{200F}", "\u{061C}", "\u{2028}", "\u{85}", "token", "api_", "é", "日本", " ",
    ]

    /// Seeded hostile names, each with a name rule's word in it so that a finding names it.
    static func names(count: Int, seed: UInt64, fileSafe: Bool = false) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let pool = fileSafe ? pieces.filter { $0 != "\u{0}" } : pieces
        var names = [forgedSummary.replacingOccurrences(of: "\u{0}", with: "")]
        for _ in 0..<count {
            let parts = (0..<Int.random(in: 2...6, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
            names.append(parts.joined() + "token")
        }
        return names
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func xmlAttribute(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // As Android's serializer writes control characters.
            case _ where scalar.value < 0x20: out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One input per place, each holding `name` where a name goes and a token under it.
    static func inputs(_ name: String) -> [(file: String, bytes: String)] {
        let n = jsonString(name)
        let entry = { (request: String) in
            #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-12-02T07:00:00Z", "time": 1, "request": \#(request), "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain", "text": ""}, "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 1}}]}}"#
        }
        let request = { (headers: String, cookies: String, query: String) in
            #"{"method": "GET", "url": "https://api.example.com/", "httpVersion": "HTTP/1.1", "headers": [\#(headers)], "queryString": [\#(query)], "cookies": [\#(cookies)], "headersSize": -1, "bodySize": 0}"#
        }
        let field = #"{"name": \#(n), "value": "\#(token)"}"#
        return [
            ("key.json", #"{\#(n): "\#(token)", \#(n): "Tr0ub4dor&3xK9q-not-real"}"#),
            ("header.har", entry(request(field, "", ""))),
            ("cookie.har", entry(request("", field, ""))),
            ("query.har", entry(request("", "", field))),
            ("prefs.xml", "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.\(xmlAttribute(name))\">\(token)</string>\n</map>\n"),
        ]
    }

    /// The scalars a human-facing output may not show raw; `allowed` are its own layout.
    static func rawControls(_ text: String, allowed: Set<Unicode.Scalar> = ["\n"]) -> [String] {
        text.unicodeScalars.filter { DisplayText.needsEscape($0) && !allowed.contains($0) }
            .map { String(format: "U+%04X", $0.value) }
    }

    static func check(_ file: URL, _ context: String) throws {
        for format in ["text", "github", "html", "json", "sarif"] {
            let run = TestSupport.runCLI(["scan", "--no-config", "--fail-on", "note", "--color", "never", "--format", format, file.path])
            #expect(run.status != 0, "\(context) \(format): the token is found or the input refused")
            #expect(rawControls(run.stderr).isEmpty, "\(context) \(format): stderr shows \(rawControls(run.stderr))")
            switch format {
            case "json", "sarif":
                #expect((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) != nil, "\(context) \(format): not JSON")
            case "html":
                #expect(rawControls(run.stdout, allowed: ["\n", "\t"]).isEmpty, "\(context) html shows \(rawControls(run.stdout, allowed: ["\n", "\t"]))")
            default:
                let shown = rawControls(run.stdout)
                #expect(shown.isEmpty, "\(context) \(format) shows \(shown)")
                // One line reads as a summary: the real one, last.
                let lines = run.stdout.split(separator: "\n")
                let summaries = lines.filter { $0.hasPrefix("No findings in ") || $0.first?.isNumber == true && $0.contains(" finding") }
                #expect(summaries.count == 1 && summaries.last == lines.last && !(lines.last?.contains("Gate passed") ?? true),
                        "\(context) \(format): \(summaries.count) summary lines")
            }
        }
    }

    @Test func hostileNamesInEveryPlaceReachNoOutputRaw() throws {
        let directory = TestSupport.temporaryDirectory()
        for (i, name) in Self.names(count: 6, seed: 1802).enumerated() {
            for (file, bytes) in Self.inputs(name) {
                let url = directory.appendingPathComponent("\(i)-\(file)")
                try Data(bytes.utf8).write(to: url)
                try Self.check(url, "name \(i) in \(file)")
            }
        }
    }

    @Test func hostileFileNamesReachNoOutputRaw() throws {
        let directory = TestSupport.temporaryDirectory()
        for (i, name) in Self.names(count: 6, seed: 1803, fileSafe: true).enumerated() {
            let safe = name.replacingOccurrences(of: "/", with: "_")
            // A finding, then an input error: both name the file.
            let finding = directory.appendingPathComponent("\(i)\(safe).json")
            try Data(#"{"note": "\#(Self.token)"}"#.utf8).write(to: finding)
            try Self.check(finding, "file name \(i) with a finding")
            let broken = directory.appendingPathComponent("\(i)\(safe)-broken.json")
            try Data(#"{"note": "\#(Self.token)", "#.utf8).write(to: broken)
            try Self.check(broken, "file name \(i) with an error")
        }
    }

    @Test func theEscapesAreVisible() {
        #expect(DisplayText.escaped(Self.forgedSummary) == #"k\u000A\u000ANo findings in 1 input. Gate passed.\u000A\u001B[8m"#)
        #expect(DisplayText.escaped("evil\u{202E}gnp.exe\u{9B}\u{7F}") == #"evil\u202Egnp.exe\u009B\u007F"#)
        #expect(DisplayText.escaped("plain, naïve, 日本 🔑") == "plain, naïve, 日本 🔑")
        #expect(DisplayText.escapedKeepingLines("error: a\u{1B}b\nnext\n") == "error: a\\u001Bb\nnext\n")
    }
}
