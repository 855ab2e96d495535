import AuditCore

/// The HTML report: one self-contained page to read, print or attach to a bug. Inline CSS only:
/// no script, no font, no image, nothing fetched (a Content-Security-Policy of `default-src
/// 'none'` says so to the browser). It shows what the JSON report holds and nothing more; every
/// string from an input, a rule or a finding is escaped. Byte-identical for identical input.
public enum HTMLReport {
    public static func render(_ input: ReportInput) -> String {
        page(input).text
    }

    /// Hands the page to `sink` in one piece, without the copy a string of it would take;
    /// false when the sink fails.
    public static func write(_ input: ReportInput, to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        page(input).bytes.withUnsafeBytes(sink)
    }

    private static func page(_ input: ReportInput) -> Page {
        var page = Page()
        // Room for all of it at once (a finding takes some 600 bytes): grown by doubling, the
        // page and its copies took 17 MiB more at their peak than the string it replaced.
        page.bytes.reserveCapacity(input.result.findings.count * 1024 + (64 << 10))
        let result = input.result
        let findings = result.findings
        let groups = groupedByArtifact(findings)
        let titles = Dictionary(input.rules.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        let gate = gateText(input)

        page.line("<!DOCTYPE html>")
        page.line("<html lang=\"en\">")
        page.line("<head>")
        page.line("<meta charset=\"utf-8\">")
        page.line("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">")
        page.line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.line("<meta name=\"color-scheme\" content=\"light dark\">")
        page.line("<meta name=\"generator\" content=\"\(escape(ToolInfo.name)) \(escape(ToolInfo.version))\">")
        page.line("<title>\(escape(ToolInfo.name)) report: \(gate.title), \(count(findings.count, "finding"))</title>")
        page.line("<style>")
        page.raw(stylesheet)
        page.line("</style>")
        page.line("</head>")
        page.line("<body>")
        page.line("<a class=\"skip\" href=\"#findings\">Skip to the findings</a>")

        // Header: the tool, what was scanned, the gate.
        page.line("<header>")
        page.line("<h1>\(escape(ToolInfo.name)) report</h1>")
        page.line("<p class=\"gate \(gate.passed ? "pass" : "fail")\"><strong>\(gate.title.prefix(1).uppercased() + gate.title.dropFirst())</strong>: \(escape(gate.reason)) Exit status \(input.exitCode).</p>")
        page.line("<dl class=\"facts\">")
        page.fact("Tool", "\(escape(ToolInfo.name)) \(escape(ToolInfo.version))")
        let skipped = result.artifacts.filter { $0.skipped != nil }.count
        page.fact("Inputs scanned", String(result.artifacts.count - skipped) + (skipped == 0 ? "" : " (\(skipped) skipped)"))
        let tally = FindingTally(findings)
        let accepted = findings.count - tally.active
        page.fact("Findings", count(findings.count, "finding") + (accepted == 0 ? "" : " (\(accepted) accepted by a baseline or an allowlist)"))
        page.fact("Input errors", String(result.errors.count))
        page.fact("Fails on", "<code>--fail-on \(escape(input.failOn.description))</code>")
        page.fact("Exit status", "\(input.exitCode) (\(escape(exitMeaning(input.exitCode))))")
        page.line("</dl>")
        page.line("<nav aria-label=\"Contents\">")
        page.line("<ul>")
        page.line("<li><a href=\"#summary\">Summary</a></li>")
        if !result.notices.isEmpty { page.line("<li><a href=\"#notices\">Notices</a> (\(result.notices.count))</li>") }
        page.line("<li><a href=\"#errors\">Input errors</a> (\(result.errors.count))</li>")
        page.line("<li><a href=\"#findings\">Findings</a> (\(findings.count))")
        if !groups.isEmpty {
            page.line("<ul>")
            for (index, group) in groups.enumerated() {
                page.line("<li><a href=\"#file-\(index + 1)\">\(escape(group.artifact))</a> (\(group.findings.count))</li>")
            }
            page.line("</ul>")
        }
        page.line("</li>")
        if !result.absent.isEmpty { page.line("<li><a href=\"#absent\">Gone since the baseline</a> (\(result.absent.count))</li>") }
        page.line("<li><a href=\"#inventory\">Inventory</a> (\(result.inventory.count))</li>")
        page.line("<li><a href=\"#inputs\">Inputs</a> (\(result.artifacts.count))</li>")
        page.line("</ul>")
        page.line("</nav>")
        page.line("</header>")

        page.line("<main>")

        // Summary: the text report's summary line, then counts as tables.
        page.section("summary", "Summary")
        page.line("<p>\(escape(TextReport.summaryLine(input, tally: tally)))</p>")
        page.line("<div class=\"tables\">")
        countTable(&page, caption: "Findings by level", header: "Level", Level.allCases.reversed().map { level in
            (levelLabel(level.rawValue), tally.count(level))
        })
        countTable(&page, caption: "Findings by family", header: "Family", Family.allCases.map { family in
            (escape(family.rawValue), tally.count(family))
        })
        countTable(&page, caption: "Findings by context", header: "Context", ScanContext.allCases.map { context in
            (escape(context.rawValue), tally.count(context))
        })
        page.line("</div>")
        if accepted > 0 {
            page.line("<p>The counts include \(count(accepted, "accepted finding")), which \(accepted == 1 ? "does" : "do") not count toward the gate.</p>")
        }
        page.line("</section>")

        // Notices: neither findings nor input errors, but the reader must know (an expired
        // allowlist entry).
        if !result.notices.isEmpty {
            page.section("notices", "Notices")
            page.line("<ul>")
            for notice in result.notices { page.line("<li>\(levelLabel(Level.warning.rawValue)) \(escape(notice))</li>") }
            page.line("</ul>")
            page.line("</section>")
        }

        // Input errors: they fail the gate whatever the findings, so they come first.
        page.section("errors", "Input errors")
        if result.errors.isEmpty {
            page.line("<p>Every input was read, parsed and scanned.</p>")
        } else {
            page.line("<p>\(count(result.errors.count, "input")) could not be read, parsed or fully scanned: the scan is incomplete and the gate fails.</p>")
            page.scrollingTable(caption: "Inputs that could not be scanned", id: "errors-caption",
                               head: "<tr><th scope=\"col\">Input</th><th scope=\"col\">Line:column</th><th scope=\"col\">Kind</th><th scope=\"col\">Reason</th></tr>")
            for error in result.errors {
                let position = error.position.map { "\($0.line):\($0.column)" } ?? "—"
                page.line("<tr><th scope=\"row\"><code>\(escape(error.artifact))</code></th><td>\(position)</td><td>\(escape(error.kind.rawValue))</td><td>\(escape(error.reason))</td></tr>")
            }
            page.endScrollingTable()
        }
        page.line("</section>")

        // Findings, one heading per input, in report order.
        page.section("findings", "Findings")
        if findings.isEmpty {
            page.line("<p>No findings.</p>")
        } else {
            page.line("<p>\(count(findings.count, "finding")) in \(count(groups.count, "input")).</p>")
        }
        for (index, group) in groups.enumerated() {
            page.line("<section class=\"file\" aria-labelledby=\"file-\(index + 1)\">")
            page.line("<h3 id=\"file-\(index + 1)\"><code>\(escape(group.artifact))</code> <span class=\"muted\">(\(count(group.findings.count, "finding")))</span></h3>")
            page.line("<ol class=\"findings\">")
            for finding in group.findings {
                renderFinding(&page, finding, title: titles[finding.ruleId])
            }
            page.line("</ol>")
            page.line("</section>")
        }
        page.line("</section>")

        // Baseline entries no finding matches any more.
        if !result.absent.isEmpty {
            page.section("absent", "Gone since the baseline")
            page.line("<p>\(count(result.absent.count, "baseline entry", plural: "baseline entries")) no finding matched any more: fixed, or their input removed.</p>")
            page.scrollingTable(caption: "Baseline entries not found", id: "absent-caption",
                               head: "<tr><th scope=\"col\">Input</th><th scope=\"col\">Line</th><th scope=\"col\">Rule</th><th scope=\"col\">Path</th></tr>")
            for entry in result.absent {
                page.line("<tr><th scope=\"row\"><code>\(escape(entry.artifact))</code></th><td>\(entry.line)</td><td><code>\(escape(entry.ruleId))</code></td><td><code>\(escape(entry.path.isEmpty ? "/" : entry.path))</code></td></tr>")
            }
            page.endScrollingTable()
            page.line("</section>")
        }

        // Inventory: what was observed, not acted on.
        page.section("inventory", "Inventory: stores seen")
        if result.inventory.isEmpty {
            page.line("<p>No store of the inventory and no unknown storage key was seen.</p>")
        } else {
            page.line("<p>What was observed, not acted on; a verdict of warning or error also produced a finding.</p>")
            page.scrollingTable(caption: "Stores and storage keys seen", id: "inventory-caption",
                               head: "<tr><th scope=\"col\">Store</th><th scope=\"col\">Classes</th><th scope=\"col\">Contexts</th><th scope=\"col\">Verdict</th><th scope=\"col\">Seen in</th><th scope=\"col\">Notes</th></tr>")
            for entry in result.inventory {
                page.line("<tr>")
                if let store = entry.storeId {
                    let name = entry.name == store ? "" : "<br><span class=\"muted\">\(escape(entry.name))</span>"
                    page.line("<th scope=\"row\"><code>\(escape(store))</code>\(name)</th>")
                } else {
                    page.line("<th scope=\"row\"><code>\(escape(entry.name))</code><br><span class=\"muted\">not in the inventory</span></th>")
                }
                page.line("<td>\(escape(entry.classes.map(\.rawValue).joined(separator: " / ")))</td>")
                page.line("<td>\(escape(entry.contexts.map(\.rawValue).joined(separator: ", ")))</td>")
                page.line("<td>\(entry.verdict == .allowed ? "allowed" : levelLabel(entry.verdict.rawValue))</td>")
                page.line("<td>\(entry.artifacts.map { "<code>\(escape($0))</code>" }.joined(separator: "<br>"))</td>")
                page.line("<td>\(entry.notes.map(escape).joined(separator: "<br>"))</td>")
                page.line("</tr>")
            }
            page.endScrollingTable()
        }
        page.line("</section>")

        // Inputs, as the JSON report lists them.
        page.section("inputs", "Inputs")
        if result.artifacts.isEmpty {
            page.line("<p>No input was scanned.</p>")
        } else {
            page.scrollingTable(caption: "Inputs scanned", id: "inputs-caption",
                               head: "<tr><th scope=\"col\">Input</th><th scope=\"col\">Format</th><th scope=\"col\" class=\"num\">Bytes</th></tr>")
            for artifact in result.artifacts {
                let format = artifact.skipped.map { "skipped: \(escape($0))" } ?? artifact.format.map(escape) ?? "not determined"
                page.line("<tr><th scope=\"row\"><code>\(escape(artifact.name))</code></th><td>\(format)</td><td class=\"num\">\(artifact.byteCount)</td></tr>")
            }
            page.endScrollingTable()
        }
        page.line("</section>")

        page.line("</main>")
        page.line("</body>")
        page.line("</html>")
        return page
    }

    /// One finding: a heading (position, level, rule), the message, then its facts. Written a
    /// piece at a time into the page's bytes, escaped text too: built as strings and joined, a
    /// finding took some 40,000 instructions.
    private static func renderFinding(_ page: inout Page, _ finding: Finding, title: String?) {
        page.raw("<li class=\"finding ")
        page.raw(finding.level.rawValue)
        page.line(finding.isActive ? "\">" : " accepted\">")
        page.raw("<h4><span class=\"loc\">")
        page.raw(String(finding.position.line))
        page.raw(":")
        page.raw(String(finding.position.column))
        page.raw("</span> ")
        page.raw(levelLabel(finding.level.rawValue))
        page.raw(" <code>")
        page.escaped(finding.ruleId)
        page.raw("</code>")
        if let title {
            page.raw(" <span class=\"rule-title\">")
            page.escaped(title)
            page.raw("</span>")
        }
        if !finding.isActive { page.raw(" <span class=\"tag\">accepted</span>") }
        page.line("</h4>")
        page.raw("<p class=\"message\">")
        page.escaped(finding.message)
        page.line("</p>")
        page.line("<dl>")
        page.escapedFact("Path", finding.pathText.isEmpty ? "/" : finding.pathText, code: true)
        page.escapedFact("Family", finding.family.rawValue)
        page.escapedFact("Context", finding.context.rawValue)
        page.escapedFact("Confidence", finding.confidence.rawValue)
        if let key = finding.key { page.escapedFact("Key", key, code: true) } else { page.fact("Key", "none") }
        if let inventoryClass = finding.inventoryClass { page.escapedFact("Inventory class", inventoryClass) }
        if !finding.preview.isEmpty { page.escapedFact("Redacted value", finding.preview) }
        if let state = finding.baselineState { page.escapedFact("Baseline", state.rawValue) }
        if let suppression = finding.suppression {
            page.fact("Accepted", "by the \(escape(suppression.source.rawValue)): \(escape(suppression.justification))")
        }
        page.line("</dl>")
        page.line("</li>")
    }

    private static func countTable(_ page: inout Page, caption: String, header: String, _ rows: [(label: String, count: Int)]) {
        page.line("<table class=\"counts\">")
        page.line("<caption>\(escape(caption))</caption>")
        page.line("<thead><tr><th scope=\"col\">\(escape(header))</th><th scope=\"col\" class=\"num\">Findings</th></tr></thead>")
        page.line("<tbody>")
        for row in rows { page.line("<tr><th scope=\"row\">\(row.label)</th><td class=\"num\">\(row.count)</td></tr>") }
        page.line("</tbody>")
        page.line("</table>")
    }

    /// Findings grouped by input, inputs in the order of their first finding (report order).
    static func groupedByArtifact(_ findings: [Finding]) -> [(artifact: String, findings: [Finding])] {
        var groups: [(artifact: String, findings: [Finding])] = []
        var index: [String: Int] = [:]
        for finding in findings {
            if let i = index[finding.artifact] {
                groups[i].findings.append(finding)
            } else {
                index[finding.artifact] = groups.count
                groups.append((finding.artifact, [finding]))
            }
        }
        return groups
    }

    /// A level (or verdict) as text in a badge: the colour only repeats what the word says.
    private static func levelLabel(_ level: String) -> String {
        "<span class=\"level \(escape(level))\">\(escape(level))</span>"
    }

    private static func gateText(_ input: ReportInput) -> (passed: Bool, title: String, reason: String) {
        switch input.exitCode {
        case ExitStatus.pass: return (true, "gate passed", "no finding at or above --fail-on \(input.failOn.description), and every input was scanned.")
        case ExitStatus.findings: return (false, "gate failed", "findings at or above --fail-on \(input.failOn.description).")
        default: return (false, "gate failed", "not every input could be scanned.")
        }
    }

    private static func exitMeaning(_ status: Int32) -> String {
        switch status {
        case ExitStatus.pass: return "pass"
        case ExitStatus.findings: return "findings at or above --fail-on"
        default: return "an input could not be read, parsed or fully scanned"
        }
    }

    /// `1 finding`, `5 findings`.
    private static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// Text for HTML content and attribute values: `& < > " '` as references; C0 and C1
    /// controls (but tab and line feed) and bidirectional formatting characters, which could
    /// hide or reorder what a reader sees, written visibly as `DisplayText` writes them.
    public static func escape(_ text: String) -> String {
        // Most text is printable ASCII without a reference to write: returned as it is after
        // one pass over the bytes.
        if text.utf8AllSatisfy(isPlain) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        appendEscapedScalars(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `escape(text)` to `out`.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        if text.utf8AllSatisfy(isPlain) {
            out += text.utf8
        } else {
            appendEscapedScalars(text, to: &out)
        }
    }

    /// A byte `escape` leaves as it is wherever it stands: printable ASCII but `& < > " '`.
    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x27
    }

    /// `escape` a scalar at a time, into bytes (a scalar appended to a string took some 300
    /// instructions).
    static func appendEscapedScalars(_ text: String, to out: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;".utf8
            case 0x3C: out += "&lt;".utf8
            case 0x3E: out += "&gt;".utf8
            case 0x22: out += "&quot;".utf8
            case 0x27: out += "&#39;".utf8
            case 0x09, 0x0A: out.append(UInt8(scalar.value))
            case _ where DisplayText.needsEscape(scalar): DisplayText.appendVisible(scalar, to: &out)
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
    }

    /// The page being written, one element per line; bytes, not a string: appended to a string,
    /// each piece took some 500 instructions.
    private struct Page {
        var bytes: [UInt8] = []
        var text: String { String(decoding: bytes, as: UTF8.self) }
        mutating func line(_ s: String) {
            raw(s)
            bytes.append(0x0A)
        }
        mutating func raw(_ s: String) { bytes += s.utf8 }
        /// `escape(text)`, appended.
        mutating func escaped(_ text: String) { HTMLReport.appendEscaped(text, to: &bytes) }
        /// A `dt`/`dd` pair; `html` is already escaped.
        mutating func fact(_ term: String, _ html: String) {
            raw("<dt>")
            raw(term)
            raw("</dt><dd>")
            raw(html)
            line("</dd>")
        }
        /// A `dt`/`dd` pair of text to escape, in `<code>` when `code`.
        mutating func escapedFact(_ term: String, _ text: String, code: Bool = false) {
            raw("<dt>")
            raw(term)
            raw(code ? "</dt><dd><code>" : "</dt><dd>")
            escaped(text)
            line(code ? "</code></dd>" : "</dd>")
        }
        /// A table that scrolls sideways when too wide: a focusable, labelled region, so that
        /// a keyboard can scroll it too.
        /// Opens a table in a focusable scrolling region, through its header row `head` and
        /// `<tbody>`; `endScrollingTable` closes it.
        mutating func scrollingTable(caption: String, id: String, head: String) {
            line("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-labelledby=\"\(id)\">")
            line("<table>")
            line("<caption id=\"\(id)\">\(caption)</caption>")
            line("<thead>\(head)</thead>")
            line("<tbody>")
        }
        mutating func endScrollingTable() {
            line("</tbody>")
            line("</table>")
            line("</div>")
        }
        mutating func section(_ id: String, _ heading: String) {
            line("<section id=\"\(id)\" aria-labelledby=\"\(id)-heading\">")
            line("<h2 id=\"\(id)-heading\">\(heading)</h2>")
        }
    }

    /// Light by default, dark when the reader's system prefers it, black on white in print.
    /// Every text colour meets WCAG AA (4.5:1) on its background.
    static let stylesheet = """
    :root { color-scheme: light dark;
      --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --border: #c8d1da; --panel: #f6f8fa; --link: #0550ae;
      --error-fg: #a0111f; --error-bg: #ffebe9; --warning-fg: #6c4400; --warning-bg: #fff3c4;
      --note-fg: #0a3069; --note-bg: #ddf4ff; --pass-fg: #0f5323; --pass-bg: #dafbe1; }
    @media (prefers-color-scheme: dark) { :root {
      --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --border: #3d444d; --panel: #161b22; --link: #79c0ff;
      --error-fg: #ffc1ba; --error-bg: #4c0f16; --warning-fg: #f2cc60; --warning-bg: #3a2a00;
      --note-fg: #b6dcff; --note-bg: #0c2d6b; --pass-fg: #8ce99a; --pass-bg: #0f3a1c; } }
    @media print { :root { color-scheme: light;
      --fg: #000000; --bg: #ffffff; --muted: #333333; --border: #777777; --panel: #eeeeee; --link: #000000;
      --error-fg: #000000; --error-bg: #ffffff; --warning-fg: #000000; --warning-bg: #ffffff;
      --note-fg: #000000; --note-bg: #ffffff; --pass-fg: #000000; --pass-bg: #ffffff; } }
    *, *::before, *::after { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
    body { margin: 0; color: var(--fg); background: var(--bg);
      font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif; }
    header, main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
    h1 { font-size: 1.6rem; margin: 0 0 .75rem; }
    h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--border); }
    h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
    h4 { font-size: 1rem; margin: 0; }
    h3, h4, p, dd { overflow-wrap: anywhere; }
    td, th { overflow-wrap: break-word; }
    td code, th code { overflow-wrap: anywhere; }
    code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .92em; }
    a { color: var(--link); }
    .muted { color: var(--muted); font-weight: normal; }
    .skip { position: absolute; left: -100vw; }
    .skip:focus { left: 1rem; top: 1rem; padding: .5rem; background: var(--bg); }
    .gate { margin: 0 0 1rem; padding: .75rem 1rem; border: 1px solid; border-left-width: .4rem; border-radius: .25rem; }
    .gate.pass { color: var(--pass-fg); background: var(--pass-bg); }
    .gate.fail { color: var(--error-fg); background: var(--error-bg); }
    dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem 1rem; margin: .5rem 0 0; }
    dt { font-weight: 600; }
    dd { margin: 0; min-width: 0; }
    nav ul { margin: .75rem 0 0; padding-left: 1.25rem; }
    .tables { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
    .scroll { max-width: 100%; overflow-x: auto; }
    .scroll:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
    table { border-collapse: collapse; }
    caption { text-align: left; font-weight: 600; padding: 0 0 .25rem; }
    th, td { border: 1px solid var(--border); padding: .3rem .6rem; text-align: left; vertical-align: top; }
    thead th { background: var(--panel); }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    ol.findings { list-style: none; margin: 0; padding: 0; }
    .finding { margin: .75rem 0; padding: .6rem .8rem; border: 1px solid var(--border); border-left-width: .4rem; border-radius: .25rem; break-inside: avoid; }
    .finding.error { border-left-color: var(--error-fg); }
    .finding.warning { border-left-color: var(--warning-fg); }
    .finding.note { border-left-color: var(--note-fg); }
    .finding .message { margin: .35rem 0 0; }
    .loc { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
    .rule-title { font-weight: normal; }
    .tag { display: inline-block; padding: 0 .4rem; border: 1px dashed var(--muted); border-radius: .25rem; font-size: .85em; font-weight: normal; }
    .finding.accepted { border-left-style: dashed; }
    .level { display: inline-block; padding: 0 .4rem; border: 1px solid; border-radius: .25rem;
      font-size: .85em; font-weight: 700; letter-spacing: .03em; text-transform: uppercase; }
    .level.error { color: var(--error-fg); background: var(--error-bg); }
    .level.warning { color: var(--warning-fg); background: var(--warning-bg); }
    .level.note { color: var(--note-fg); background: var(--note-bg); }
    @media (max-width: 30rem) {
      header, main { padding: .75rem; }
      dl { grid-template-columns: minmax(0, 1fr); gap: 0; }
      dd { margin-bottom: .35rem; }
      .finding { padding: .5rem .6rem; }
    }
    @media print {
      body { font-size: 10.5pt; }
      header, main { max-width: none; padding: 0; }
      .skip, nav { display: none; }
      .scroll { overflow: visible; }
      a { text-decoration: none; }
      h2, h3, h4 { break-after: avoid; }
      tr { break-inside: avoid; }
    }

    """
}
