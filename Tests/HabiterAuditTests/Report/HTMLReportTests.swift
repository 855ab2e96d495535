@testable import AuditCore
@testable import AuditDetection
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// The HTML report beyond its golden file (`ReportTests` compares `report-sample.html` and checks
/// determinism): escaping, self-containment, structure.
@Suite struct HTMLReportTests {
    /// A name and a key that would run or break markup if copied as is.
    static let hostileName = "a<script>alert(1)&\"'.json"
    static let hostileKey = "<script>alert('k')</script>&\""
    static let github = "ghp_Wm3kP8qTz2Lx7Rv5Nc9Hb4Jd6Fs1Ya0UeQoX"

    /// Scans a directory holding one input with a hostile file name and key; returns the page.
    static func hostileReport() throws -> (directory: URL, html: String) {
        let directory = TestSupport.temporaryDirectory()
        let body = "{\"\(hostileKey.replacingOccurrences(of: "\"", with: "\\\""))\": \"\(github)\"}\n"
        try body.write(to: directory.appendingPathComponent(hostileName), atomically: true, encoding: .utf8)
        let run = TestSupport.runCLI(["scan", "--format", "html", directory.path])
        #expect(run.status == ExitStatus.findings)
        return (directory, run.stdout)
    }

    @Test func fileNamesKeysAndMessagesAreEscaped() throws {
        let (directory, html) = try Self.hostileReport()
        #expect(!html.contains("<script"), "no script element, and no unescaped '<script' from an input")
        #expect(!html.contains(Self.hostileKey))
        #expect(!html.contains(Self.hostileName))
        let escapedName = "a&lt;script&gt;alert(1)&amp;&quot;&#39;.json"
        #expect(html.contains("<code>\(HTMLReport.escape(directory.path))/\(escapedName)</code>"), "the file heading")
        #expect(html.contains("<dt>Key</dt><dd><code>&lt;script&gt;alert(&#39;k&#39;)&lt;/script&gt;&amp;&quot;</code></dd>"))
        #expect(html.contains("GitHub token under &#39;&lt;script&gt;alert(&#39;k&#39;)&lt;/script&gt;&amp;&quot;&#39; (ghp_…, 40 characters)."))
        #expect(html.contains("<dt>Path</dt><dd><code>/&lt;script&gt;alert(&#39;k&#39;)&lt;~1script&gt;&amp;&quot;</code></dd>"))
        #expect(!html.contains(Self.github), "never the value")
    }

    /// Every string a report can carry, from a rule title to an inventory note, goes through
    /// the escaper; nothing is copied into markup as is.
    @Test func everyFieldIsEscaped() {
        let evil = "<b>&\"'"
        let escaped = "&lt;b&gt;&amp;&quot;&#39;"
        let html = HTMLReport.render(Self.syntheticInput(evil))
        #expect(!html.contains(evil))
        #expect(!html.contains("<b>"))
        // artifact (heading, nav, inputs table, inventory, error), message, key, path, preview,
        // rule id and title, inventory class, store name and note, error reason, notice,
        // suppression justification, baseline entry.
        #expect(html.components(separatedBy: escaped).count - 1 >= 20)
    }

    @Test func controlAndBidirectionalCharactersAreNeutralised() {
        #expect(HTMLReport.escape("a\u{0}b\u{1B}[31mc\u{7F}\u{85}") == #"a\u0000b\u001B[31mc\u007F\u0085"#)
        #expect(HTMLReport.escape("evil\u{202E}nosj.exe\u{2066}x\u{200F}") == #"evil\u202Enosj.exe\u2066x\u200F"#)
        #expect(HTMLReport.escape("tab\there\nnew line, naïve, 日本, emoji 🔑") == "tab\there\nnew line, naïve, 日本, emoji 🔑")
    }

    @Test func thePageIsSelfContained() {
        let html = HTMLReport.render(Self.syntheticInput("x"))
        for forbidden in ["<script", "<link", "<img", "<iframe", "<object", "@import", "url(", "src=", "http://", "https://", "//fonts"] {
            #expect(!html.contains(forbidden), "the page must not load anything: found \(forbidden)")
        }
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'"))
    }

    @Test func thePageIsAccessibleMarkup() {
        let html = HTMLReport.render(Self.syntheticInput("x"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
        #expect(html.hasSuffix("</html>\n"))
        for element in ["<header>", "<main>", "<nav aria-label=\"Contents\">", "<meta name=\"viewport\"", "prefers-color-scheme: dark", "@media print"] {
            #expect(html.contains(element))
        }
        // Every table has a caption and header cells with a scope.
        let tables = html.components(separatedBy: "<table").count - 1
        #expect(tables == 7, "three count tables, errors, absent, inventory, inputs")
        #expect(html.components(separatedBy: "<caption").count - 1 == tables)
        #expect(!html.contains("<th>"), "every th has a scope")
        // Levels are words, not only colours.
        #expect(html.contains("<span class=\"level error\">error</span>"))
        #expect(html.contains("<span class=\"level warning\">warning</span>"))
        #expect(html.contains("<span class=\"tag\">accepted</span>"))
    }

    @Test func renderingIsDeterministic() {
        let input = Self.syntheticInput("x")
        #expect(HTMLReport.render(input) == HTMLReport.render(input))
    }

    @Test func aCleanScanSaysTheGatePassed() {
        let input = ReportInput(result: ScanResult(findings: [], errors: [], artifacts: [], inventory: []),
                                rules: [], exitCode: ExitStatus.pass, failOn: .error)
        let html = HTMLReport.render(input)
        #expect(html.contains("<p class=\"gate pass\"><strong>Gate passed</strong>"))
        #expect(html.contains("<p>No findings.</p>"))
        #expect(html.contains("<p>Every input was read, parsed and scanned.</p>"))
    }

    /// A report with every section filled, each string holding `text`.
    static func syntheticInput(_ text: String) -> ReportInput {
        let position = SourcePosition(line: 3, column: 7, byteOffset: 40)
        let path = LayeredPath(layers: [LayeredPath.Layer(decoder: nil, tokens: [])])
        func finding(_ level: Level, suppressed: Bool) -> Finding {
            var f = Finding(ruleId: "custom.\(text)", level: level, family: .secret, message: "message \(text)", key: "key \(text)",
                            context: .sync, inventoryClass: "class \(text)", artifact: "dir/\(text).json", position: position,
                            path: path, confidence: .high, preview: "preview \(text)", fingerprint: "0123")
            if suppressed {
                f.baselineState = .unchanged
                f.suppression = Suppression(source: .baseline, justification: "because \(text)")
            }
            return f
        }
        var result = ScanResult(
            findings: [finding(.error, suppressed: false), finding(.warning, suppressed: true)],
            errors: [InputError(kind: .parse, artifact: "bad \(text).json", position: position, reason: "reason \(text)")],
            artifacts: [ArtifactSummary(name: "dir/\(text).json", format: "json", byteCount: 12)],
            inventory: [
                InventoryEntry(storeId: "store \(text)", name: "name \(text)", classes: [.deviceLocal], contexts: [.sync],
                               verdict: .error, artifacts: ["dir/\(text).json"], notes: ["note \(text)"]),
                InventoryEntry(storeId: nil, name: "unknown \(text)", classes: [.unsupported], contexts: [.prefs],
                               verdict: .note, artifacts: ["dir/\(text).json"], notes: []),
            ])
        result.notices = ["notice \(text)"]
        result.absent = [BaselineEntry(ruleId: "rule \(text)", artifact: "gone \(text).json", path: "/p \(text)", key: nil,
                                        fingerprint: "f", valueDigest: nil, line: 9)]
        let rule = TestSupport.builtinPack.rules[0]
        var custom = rule
        custom.id = "custom.\(text)"
        custom.title = "title \(text)"
        return ReportInput(result: result, rules: [custom], exitCode: ExitStatus.findings, failOn: .error)
    }
}
