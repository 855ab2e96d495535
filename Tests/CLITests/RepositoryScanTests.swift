@testable import AuditInputs
import Foundation
import TestHelpers
import Testing

/// `habiter-audit scan .` in a repository laid out like a Flutter app (issue 22): what a CI
/// engineer runs first. Source, Markdown, Android XML, a JSONC tsconfig, a PNG, captures (one
/// JSONP-wrapped, as harviewer writes them), a prefs export, and an ignored build directory
/// holding a broken JSON file.
@Suite struct RepositoryScanTests {
    /// A fake GitHub token (its checksum is not valid: reported at low confidence).
    static let token = "ghp_" + "Wm3kP8qTz2Lx7Rv5Nc9Hb4Jd6Fs1Ya0UeQoX"

    static let har = #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{"request": {"method": "GET", "url": "https://api.github.com/user", "headers": [{"name": "Accept", "value": "application/json"}], "queryString": [], "postData": {"mimeType": "text/plain", "text": "deploy key \#(token)"}}, "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}}]}}"#

    static let files: [String: String] = [
        ".gitignore": "build/\n.dart_tool/\n",
        "README.md": "# Habiter\n\nCI token (do not commit): \(token)\n",
        "lib/main.dart": "import 'package:flutter/material.dart';\n\nvoid main() => runApp(const HabiterApp());\n",
        "lib/sync_client.dart": "class SyncClient {\n  static const githubToken = '\(token)';\n}\n",
        "android/app/src/main/AndroidManifest.xml": """
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="app.habiter">
                <uses-permission android:name="android.permission.INTERNET"/>
                <application android:label="Habiter" android:icon="@mipmap/ic_launcher">
                    <activity android:name=".MainActivity" android:exported="true"/>
                </application>
            </manifest>

            """,
        "android/app/src/main/res/layout/activity_main.xml": """
            <?xml version="1.0" encoding="utf-8"?>
            <LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
                android:layout_width="match_parent" android:layout_height="match_parent">
                <TextView android:id="@+id/title" android:text="@string/app_name"/>
            </LinearLayout>

            """,
        "android/app/src/main/res/values/strings.xml": "<resources>\n    <string name=\"app_name\">Habiter</string>\n</resources>\n",
        "tsconfig.json": "{\n  // the web build\n  \"compilerOptions\": {\"strict\": true, \"target\": \"es2022\",},\n  /* sources */ \"include\": [\"web\"],\n}\n",
        "captures/sync-session.har": #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": []}}"#,
        "captures/viewer.harp": "onInputData(\(har));\n",
        "android/prefs/FlutterSharedPreferences.xml": "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"flutter.theme\">dark</string>\n</map>\n",
        "build/app/intermediates/broken.json": "{\"unterminated\": ",
    ]

    static func repository() -> URL {
        let root = ProcessRunner.temporaryDirectory()
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
        }
        // A PNG: the signature and an IHDR chunk.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
        let icon = root.appendingPathComponent("assets/icon.png")
        try? FileManager.default.createDirectory(at: icon.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(png).write(to: icon)
        return root
    }

    static func report(_ arguments: [String]) throws -> (status: Int32, findings: [String], artifacts: [String], errors: Int, text: String) {
        let run = TestSupport.cli(["scan", "--no-config", "--format", "json"] + arguments)
        let json = try JSONValue.parse(Array(run.stdout.utf8)).value
        let findings = json["findings"]?.arrayElements?.compactMap { $0.value["artifact"]?.stringValue } ?? []
        let artifacts = json["artifacts"]?.arrayElements?.compactMap { $0.value["name"]?.stringValue } ?? []
        return (run.status, findings, artifacts, json["errors"]?.arrayElements?.count ?? -1, run.stdout + run.stderr)
    }

    @Test func aFlutterRepositoryScansWithoutInputErrors() throws {
        let root = Self.repository().path
        let scan = try Self.report([root])
        #expect(scan.status == 1, "findings, and no input error: \(scan.text.prefix(2000))")
        #expect(scan.errors == 0)
        for file in ["README.md", "lib/sync_client.dart", "captures/viewer.harp"] {
            #expect(scan.findings.contains(root + "/" + file), "no finding in \(file)")
        }
        for clean in ["lib/main.dart", "tsconfig.json", "android/app/src/main/AndroidManifest.xml", "android/app/src/main/res/layout/activity_main.xml"] {
            #expect(scan.artifacts.contains(root + "/" + clean), "\(clean) was not scanned")
            #expect(!scan.findings.contains(root + "/" + clean), "a finding in \(clean)")
        }
        #expect(!scan.artifacts.contains { $0.contains("/build/") }, "the ignored build directory was walked")
        #expect(!scan.text.contains(Self.token), "a report shows the token")
        // The PNG is listed as skipped, with a reason, and is no error.
        let text = TestSupport.cli(["scan", "--no-config", root]).stdout
        #expect(text.contains("icon.png"))
    }

    @Test func excludeRemovesWhatItNames() throws {
        let root = Self.repository().path
        let scan = try Self.report(["--exclude", "captures/", "--exclude", "*.md", root])
        #expect(!scan.findings.contains { $0.hasSuffix(".harp") || $0.hasSuffix(".md") })
        #expect(scan.findings.contains(root + "/lib/sync_client.dart"))
        // Without the ignore files the broken build output is read, and fails closed.
        #expect(try Self.report(["--no-ignore", root]).errors == 1)
    }
}
