@testable import AuditCore
import Foundation
import Testing

/// The HTML report in a real browser: headless Chromium renders it to a screenshot and
/// serialises the DOM it built, whose text must hold the report's counts. Chromium comes from
/// Debian (`scripts/ensure-deps --test` installs it); without it these tests are skipped.
@Suite struct HTMLBrowserTests {
    /// `$CHROMIUM`, else the first Chromium or Chrome on PATH.
    static let chromium: String? = {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) { return path }
        return TestSupport.which("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    }()

    static let noChromium = Comment(rawValue: "no Chromium found (looked for $CHROMIUM, chromium, chromium-browser, google-chrome on PATH); "
        + "scripts/ensure-deps --test installs it (apt-get install -y chromium)")

    /// Runs headless Chromium on `page` with `arguments`. `--no-sandbox` because the tests run
    /// as root in CI containers, where Chromium refuses to start with its sandbox (and user
    /// namespaces are often unavailable anyway); the page is our own and holds no script.
    /// A private profile directory per run, so that parallel runs do not share a lock; `timeout`
    /// (coreutils) ends a browser that hangs instead of the test run.
    static func runChromium(_ chromium: String, _ arguments: [String], page: URL, in directory: URL)
        throws -> (status: Int32, stdout: String, stderr: String) {
        let browser = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                       "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                       "--user-data-dir=\(directory.appendingPathComponent("profile-\(UUID().uuidString)").path)"]
            + arguments + [page.absoluteString]
        if let timeout = TestSupport.which("timeout") {
            return try TestSupport.run(timeout, ["-k", "10", "120"] + browser)
        }
        return try TestSupport.run(browser[0], Array(browser.dropFirst()))
    }

    /// The text a reader sees: inline tags dropped, other tags a space, entities of the
    /// serialised DOM undone, white space collapsed.
    static func visibleText(_ dom: String) -> String {
        var text = dom
        if let body = text.range(of: "<body") { text = String(text[body.lowerBound...]) }
        text = text.replacingOccurrences(of: "</?(a|b|code|em|span|strong)\\b[^>]*>", with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(.enabled(if: HTMLBrowserTests.chromium != nil, HTMLBrowserTests.noChromium))
    func chromiumRendersTheReportWithItsCounts() throws {
        let chromium = try #require(Self.chromium)
        let directory = TestSupport.temporaryDirectory()
        let page = directory.appendingPathComponent("report.html")
        let sample = ReportTests.fixtures.appendingPathComponent("report-sample").path
        let scan = TestSupport.runCLI(["scan", "--format", "html", "-o", page.path, sample])
        #expect(scan.status == ExitStatus.inputError, "the sample holds a truncated file")

        // A screenshot: Chromium loaded and painted the page.
        let png = directory.appendingPathComponent("report.png")
        let shot = try Self.runChromium(chromium, ["--hide-scrollbars", "--screenshot=\(png.path)", "--window-size=1280,2000"],
                                        page: page, in: directory)
        #expect(shot.status == 0, "chromium --screenshot failed: \(shot.stderr.suffix(2000))")
        let image = try Data(contentsOf: png)
        #expect(image.count > 10_000, "a blank or tiny screenshot: \(image.count) bytes")
        #expect(Array(image.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        if image.count >= 24 {
            // IHDR: width and height, big-endian, at bytes 16..<24.
            let width = image[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = image[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 1280 && height == 2000, "screenshot is \(width)x\(height)")
        }

        // The DOM Chromium built: the counts a reader sees.
        let dump = try Self.runChromium(chromium, ["--dump-dom"], page: page, in: directory)
        #expect(dump.status == 0, "chromium --dump-dom failed: \(dump.stderr.suffix(2000))")
        #expect(dump.stdout.contains("<html lang=\"en\">"))
        let text = Self.visibleText(dump.stdout)
        for expected in [
            "Gate failed: not every input could be scanned. Exit status 2.",
            "Inputs scanned 4",
            "Findings 5 findings",
            "5 findings (5 errors) in 2 of 4 inputs",
            "Findings by level Level Findings error 5 warning 0 note 0",
            "Findings by family Family Findings secret 3 policy 2 transport 0",
            "Findings by context Context Findings sync 3 prefs 0 backup 0 payload 2",
            "report-sample/truncated.json 3:1 parse unexpected end of input",
            "report-sample/oplog.ndjson (2 findings)",
            "report-sample/push.json (3 findings)",
            "20:26 error secret.github-token GitHub token",
            "Path /operations/0/document/payload/description",
        ] {
            #expect(text.contains(expected), "the rendered page lacks \"\(expected)\"")
        }
        #expect(text.components(separatedBy: "Redacted value").count - 1 == 4)
    }

    /// A hostile file name and key reach the DOM as text: the browser builds no element from them.
    @Test(.enabled(if: HTMLBrowserTests.chromium != nil, HTMLBrowserTests.noChromium))
    func chromiumShowsHostileNamesAsText() throws {
        let chromium = try #require(Self.chromium)
        let (directory, html) = try HTMLReportTests.hostileReport()
        let page = directory.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let dump = try Self.runChromium(chromium, ["--dump-dom"], page: page, in: directory)
        #expect(dump.status == 0, "chromium --dump-dom failed: \(dump.stderr.suffix(2000))")
        #expect(!dump.stdout.contains("<script"), "the browser built a script element")
        let text = Self.visibleText(dump.stdout)
        #expect(text.contains("/\(HTMLReportTests.hostileName) (1 finding)"))
        #expect(text.contains("Key \(HTMLReportTests.hostileKey)"))
    }
}
