@testable import AuditCore
@testable import AuditInputs
@testable import AuditScan
import Testing

/// Fake, format-valid secrets (as in CaptureTests).
private let github = "ghp_Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"

private func summary(_ f: Finding) -> String {
    "\(f.ruleId) \(f.family.rawValue) \(f.position.line):\(f.position.column) \(f.path) key=\(f.key ?? "-")"
}

/// JSON with comments and trailing commas, and JSON or HAR wrapped in a JSONP call: read as JSON,
/// positions the file's own (issue 22).
@Suite struct JSONCAndJSONPTests {
    static let tsconfig = """
    {
      // Compiler options.
      "compilerOptions": {
        "strict": true, /* a comment, "not a string" */
        "paths": {"@/*": ["./src/*",],},
      },
      /* A token where none belongs:
         it is found at its place. */
      "token": "\(github)", // trailing
    }

    """

    @Test func aTSConfigWithCommentsAndTrailingCommasIsReadWithExactPositions() {
        for name in ["tsconfig.json", "web/tsconfig.app.json", ".vscode/settings.json", "config.jsonc", "devcontainer.json"] {
            let result = TestSupport.scan(Self.tsconfig, name: name)
            #expect(result.errors.isEmpty, "\(name): \(result.errors)")
            #expect(result.findings.map(summary) == ["secret.github-token secret 9:12 /token key=token"], "\(name)")
        }
        #expect(TestSupport.scan(Self.tsconfig, name: "x", options: ScanOptions(inputFormat: .jsonc)).errors.isEmpty)
    }

    @Test func anyOtherJSONFileStaysStrict() {
        #expect(TestSupport.scan(Self.tsconfig, name: "package.json").errors.map(\.description)
                == ["package.json:2:3: expected a string key"])
        // A JSONC file is still JSON: what blanking leaves must parse.
        #expect(TestSupport.scan("{\"a\": [1,,]}", name: "tsconfig.json").errors.map(\.kind) == [.parse])
        #expect(TestSupport.scan("{\"a\": 1 /* open", name: "tsconfig.json").errors.map(\.kind) == [.parse])
    }

    @Test func aJSONPWrappedHARIsReadAtTheOriginalPositions() {
        let plain = TestSupport.scan(HARTests.har, name: "session.har")
        let wrapped = TestSupport.scan("onInputData(" + HARTests.har + ");\n", name: "session.har")
        #expect(wrapped.errors.isEmpty)
        #expect(!plain.findings.isEmpty)
        // The HAR starts on the call's line: every finding after it is at the same place.
        #expect(wrapped.findings.map(summary) == plain.findings.map(summary))
        #expect(wrapped.findings.contains { $0.family == .transport && $0.key == "authorization" && $0.position.line == 12 })
        // Without a name that claims it, too.
        #expect(TestSupport.scan("onInputData(" + HARTests.har + ")", name: "capture.js").findings.map(summary) == plain.findings.map(summary))
    }

    @Test func aJSONPWrappedJSONDocument() {
        let result = TestSupport.scan("callback({\"token\": \"\(github)\"});", name: "data.json")
        #expect(result.errors.isEmpty)
        #expect(result.findings.map(summary) == ["secret.github-token secret 1:20 /token key=token"])
        #expect(TestSupport.scan("callback({\"a\": 1}) trailing", name: "data.json").errors.map(\.kind) == [.parse])
        // Code that calls a function with an object literal is not JSONP: it is text.
        let code = TestSupport.scan("define({ token: '\(github)' });\n", name: "module.js")
        #expect(code.errors.isEmpty)
        #expect(code.findings.map(summary) == ["secret.github-token secret 1:18  key=-"])
    }
}
