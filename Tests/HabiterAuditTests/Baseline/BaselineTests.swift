@testable import AuditBytes
@testable import AuditCore
@testable import AuditInputs
@testable import AuditReport
@testable import AuditScan
@testable import AuditTriage
import Foundation
@testable import HabiterAudit
import Testing

/// Baselines: keyed digests, matching that survives layout changes but not value changes, the
/// file format, and what reports say.
@Suite struct BaselineTests {
    static let salt = Array(repeating: UInt8(7), count: 32)
    static let token = "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"
    static let other = "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"

    static func scan(_ text: String, name: String = "input.json", salt: [UInt8] = salt) -> [Finding] {
        var options = ScanOptions()
        options.valueDigester = ValueDigester(salt: salt)
        return TestSupport.scan(text, name: name, options: options).findings
    }

    @Test func digestsAreKeyedAndNeverABareHash() {
        let value = Array(Self.token.utf8)
        let a = value.withUnsafeBytes { ValueDigester(salt: Self.salt).digest($0) }
        let b = value.withUnsafeBytes { ValueDigester(salt: Array(repeating: 8, count: 32)).digest($0) }
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b, "two salts, two digests")
        #expect(!Hex.encode(SHA256.hash(value)).hasPrefix(a), "not the plain SHA-256 of the value")
        // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?"), first 16 bytes.
        let rfc = Array("what do ya want for nothing?".utf8).withUnsafeBytes { ValueDigester(salt: Array("Jefe".utf8)).digest($0) }
        #expect(rfc == "5bdcc146bf60754e6a042426089575c7")
        #expect(ValueDigester.randomSalt() != ValueDigester.randomSalt())
    }

    /// The digester's key blocks, compressed once, give RFC 2104's HMAC made the plain way:
    /// both key blocks hashed again with each value, through `SHA256.update`. Salts shorter and
    /// longer than a block (hashed first), values of every length around a block.
    @Test func digestsAreTheHMACMadeThePlainWay() {
        func hmac(key: [UInt8], _ value: [UInt8]) -> String {
            var key = key.count > 64 ? SHA256.hash(key) : key
            key += [UInt8](repeating: 0, count: 64 - key.count)
            var inner = SHA256()
            inner.update(key.map { $0 ^ 0x36 })
            inner.update(value)
            var outer = SHA256()
            outer.update(key.map { $0 ^ 0x5C })
            outer.update(inner.finalize())
            return Hex.encode(outer.finalize().prefix(16))
        }
        var generator = SeededGenerator(seed: 0x4D1)
        for saltLength in [1, 16, 32, 63, 64, 65, 131] {
            let salt = (0..<saltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let digester = ValueDigester(salt: salt)
            for length in [0, 1, 40, 55, 56, 63, 64, 65, 119, 120, 128, 200] {
                let value = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(value.withUnsafeBytes { digester.digest($0) } == hmac(key: salt, value), "salt \(saltLength), value \(length) bytes")
            }
        }
    }

    @Test func matchingSurvivesLayoutButNotValues() {
        let original = #"{"note": "token \#(Self.token)", "password": ""}"#
        let baseline = Baseline(salt: Self.salt, findings: Self.scan(original))
        #expect(baseline.entries.count == 1)

        // Re-indented and shifted: same path, same digest.
        var shifted = Self.scan("\n\n{\n    \"note\": \"token \(Self.token)\"\n}")
        #expect(baseline.apply(to: &shifted, source: "b.json").isEmpty)
        #expect(shifted.map(\.baselineState) == [.unchanged])
        #expect(shifted.allSatisfy { !$0.isActive })

        // Moved to another key: the path differs, the digest follows it.
        var moved = Self.scan(#"{"comment": "token \#(Self.token)"}"#)
        #expect(baseline.apply(to: &moved, source: "b.json").isEmpty)
        #expect(moved.map(\.baselineState) == [.unchanged])

        // A new value at the same place is new; the old entry is gone.
        var changed = Self.scan(#"{"note": "token \#(Self.other)"}"#)
        let absent = baseline.apply(to: &changed, source: "b.json")
        #expect(changed.map(\.baselineState) == [.new])
        #expect(changed.allSatisfy { $0.isActive })
        #expect(absent.map(\.ruleId) == ["secret.github-token"])

        // Another input is another input.
        var elsewhere = Self.scan(original, name: "other.json")
        _ = baseline.apply(to: &elsewhere, source: "b.json")
        #expect(elsewhere.map(\.baselineState) == [.new])
    }

    /// Two secrets of one rule in one value are two findings, each with its own digest: a
    /// secret added beside a baselined one is new and the baselined one unchanged, in whichever
    /// order they are written.
    @Test func aSecretAddedBesideABaselinedOneIsNew() {
        let baseline = Baseline(salt: Self.salt, findings: Self.scan(#"{"note": "token \#(Self.token)"}"#))
        let digest = Self.scan(#"{"note": "token \#(Self.token)"}"#).first?.valueDigest
        for note in ["token \(Self.token) and \(Self.other)", "\(Self.other) then \(Self.token)"] {
            var both = Self.scan(#"{"note": "\#(note)"}"#)
            _ = baseline.apply(to: &both, source: "b.json")
            #expect(both.count == 2)
            let unchangedIsTheBaselinedOne = both.filter { $0.baselineState == .unchanged }.map(\.valueDigest) == [digest]
            #expect(unchangedIsTheBaselinedOne)
            #expect(both.filter { $0.baselineState == .new }.count == 1)
        }
        // The same secret twice is one secret: the baseline still matches.
        var repeated = Self.scan(#"{"note": "token \#(Self.token), again \#(Self.token)"}"#)
        _ = baseline.apply(to: &repeated, source: "b.json")
        #expect(repeated.map(\.baselineState) == [.unchanged])
    }

    @Test func findingsWithoutASecretMatchByPathOrKey() {
        let sync = #"{"schemaVersion": 1, "entityId": "setting/appearance.theme", "deleted": false, "payload": {"value": "dark", "apiKey": ""}}"#
        let baseline = Baseline(salt: Self.salt, findings: Self.scan(sync))
        #expect(baseline.entries.allSatisfy { $0.valueDigest == nil })
        var again = Self.scan(sync.replacingOccurrences(of: ", ", with: ",\n  "))
        #expect(baseline.apply(to: &again, source: "b.json").isEmpty)
        #expect(again.allSatisfy { $0.baselineState == .unchanged })
    }

    /// The file written entry by entry, whole and through a sink a MiB at a time, reads as the
    /// tree of `JSONOutput` it was once built as: entries with and without a key and a digest,
    /// names to escape, none at all.
    @Test func theFileIsWrittenAsItsTreeRenders() {
        func tree(_ baseline: Baseline) -> String {
            JSONOutput.object([
                ("baselineFormat", .int(Baseline.formatVersion)),
                ("tool", .object([("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))])),
                ("salt", .string(Hex.encode(baseline.salt))),
                ("findings", .array(baseline.entries.map { entry in
                    .object([
                        ("ruleId", .string(entry.ruleId)), ("artifact", .string(entry.artifact)), ("line", .int(entry.line)),
                        ("path", .string(entry.path)), ("key", entry.key.map(JSONOutput.string) ?? .null),
                        ("fingerprint", .string(entry.fingerprint)), ("valueDigest", entry.valueDigest.map(JSONOutput.string) ?? .null),
                    ])
                })),
            ]).rendered()
        }
        let entries = (0..<3_000).map { i in
            BaselineEntry(ruleId: i % 3 == 0 ? "secret.bearer-token" : "name.password", artifact: i % 5 == 0 ? "d ä\"\u{1B}[0m/x.har" : "a.json",
                          path: "/log/entries/\(i)/request/headers/\(i % 7)/value~1\\", key: i % 2 == 0 ? nil : "authorization\n",
                          fingerprint: String(repeating: "0123456789abcdef", count: 2), valueDigest: i % 4 == 0 ? nil : "fedcba9876543210", line: i * 37)
        }
        for baseline in [Baseline(salt: Self.salt, entries: []), Baseline(salt: Self.salt, entries: Array(entries.prefix(1))),
                         Baseline(salt: Array(0..<40), entries: entries)] {
            let expected = tree(baseline)
            #expect(BaselineFile.render(baseline) == expected)
            var written: [UInt8] = []
            var pieces = 0
            #expect(BaselineFile.write(baseline) { piece in
                written += piece
                pieces += 1
                return true
            })
            #expect(String(decoding: written, as: UTF8.self) == expected)
            #expect(pieces >= 1 && pieces <= 1 + written.count / (1 << 20))
        }
        // A sink that fails is not called again.
        var calls = 0
        #expect(!BaselineFile.write(Baseline(salt: Self.salt, entries: entries + entries + entries)) { _ in
            calls += 1
            return false
        })
        #expect(calls == 1)
    }

    /// The matching, its keys made of the parts themselves, marks and leaves out what it did
    /// when each key was the parts joined into one string (kept here as the reference): on
    /// random entries and findings that share rules, inputs, paths, digests and keys, some
    /// repeated, some without a digest or a key, some suppressed already.
    @Test func matchingIsThatOfTheJoinedKeys() {
        func joined(_ parts: String?...) -> String { parts.map { $0 ?? "\u{1}" }.joined(separator: "\u{0}") }
        func reference(_ baseline: Baseline, _ findings: inout [Finding], source: String) -> [BaselineEntry] {
            var unused = Array(repeating: true, count: baseline.entries.count)
            var exact: [String: [Int]] = [:], byDigest: [String: [Int]] = [:], byKey: [String: [Int]] = [:]
            for (i, entry) in baseline.entries.enumerated() {
                exact[joined(entry.ruleId, entry.artifact, entry.path, entry.valueDigest), default: []].append(i)
                if let digest = entry.valueDigest {
                    byDigest[joined(entry.ruleId, entry.artifact, digest), default: []].append(i)
                } else if let key = entry.key {
                    byKey[joined(entry.ruleId, entry.artifact, key), default: []].append(i)
                }
            }
            func take(_ candidates: [Int]?) -> Int? { candidates?.first { unused[$0] }.map { unused[$0] = false; return $0 } }
            var matched = findings.map { take(exact[joined($0.ruleId, $0.artifact, $0.pathText, $0.valueDigest)]) != nil }
            for (i, finding) in findings.enumerated() where !matched[i] {
                if let digest = finding.valueDigest {
                    matched[i] = take(byDigest[joined(finding.ruleId, finding.artifact, digest)]) != nil
                } else if let key = finding.key {
                    matched[i] = take(byKey[joined(finding.ruleId, finding.artifact, key)]) != nil
                }
            }
            for i in findings.indices {
                findings[i].baselineState = matched[i] ? .unchanged : .new
                if matched[i] && findings[i].suppression == nil {
                    findings[i].suppression = Suppression(source: .baseline, justification: "accepted in the baseline \(source)")
                }
            }
            return baseline.entries.indices.filter { unused[$0] }.map { baseline.entries[$0] }
        }
        var generator = SeededGenerator(seed: 0xBA5E)
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
        let rules = ["secret.bearer-token", "name.password", "contract.unknown-field"], artifacts = ["a.har", "b/ü.json"]
        let paths = ["/log/entries/0/request/headers/2/value", "/payload/apiKey", "/x~1y", ""]
        let digests: [String?] = [nil, "00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100"]
        let keys: [String?] = [nil, "authorization", "apiKey"]
        for round in 0..<40 {
            let entries = (0..<Int.random(in: 0...30, using: &generator)).map { line in
                BaselineEntry(ruleId: pick(rules), artifact: pick(artifacts), path: pick(paths), key: pick(keys),
                              fingerprint: "f", valueDigest: pick(digests), line: line)
            }
            let baseline = Baseline(salt: Self.salt, entries: entries)
            var findings = (0..<Int.random(in: 0...30, using: &generator)).map { line in
                Finding(ruleId: pick(rules), level: .error, family: .secret, message: "m", key: pick(keys), context: .sync, inventoryClass: nil,
                        artifact: pick(artifacts), position: SourcePosition(line: line, column: 1, byteOffset: line), path: LayeredPath(),
                        pathText: pick(paths), confidence: .high, preview: "p", fingerprint: "f", valueDigest: pick(digests),
                        suppression: line % 7 == 0 ? Suppression(source: .allowlist, justification: "j") : nil)
            }
            var expected = findings
            let expectedAbsent = reference(baseline, &expected, source: "b.json")
            #expect(baseline.apply(to: &findings, source: "b.json") == expectedAbsent, "round \(round)")
            #expect(findings.map(\.baselineState) == expected.map(\.baselineState), "round \(round)")
            #expect(findings.map(\.suppression) == expected.map(\.suppression), "round \(round)")
        }
    }

    @Test func theFileRoundTripsAndRefusesWhatIsNotOne() throws {
        let baseline = Baseline(salt: Self.salt, findings: Self.scan(#"{"note": "\#(Self.token)"}"#))
        let text = BaselineFile.render(baseline)
        #expect(!text.contains(Self.token))
        #expect(try BaselineFile.parse(Array(text.utf8), file: "b.json") == baseline)
        for (bad, reason) in [("{}", "baselineFormat must be 1"), (#"{"baselineFormat": 1, "salt": "zz", "findings": []}"#, "salt must be"),
                              (#"{"baselineFormat": 1, "salt": "\#(String(repeating: "ab", count: 32))", "findings": [{}]}"#, "finding 1 needs")] {
            #expect(throws: FileFormatError.self) { _ = try BaselineFile.parse(Array(bad.utf8), file: "b.json") }
            do { _ = try BaselineFile.parse(Array(bad.utf8), file: "b.json") } catch { #expect(error.description.contains(reason), "\(error)") }
        }
    }

    /// The file read from the reader's events, without a tree, gives what the tree of
    /// `JSONValue.parse` gave (kept here as the reference): the same baseline or the same error,
    /// on random files whose members repeat (the last one counts), hold other types, nest
    /// containers, escape their names, and sometimes are no baseline or no JSON at all.
    @Test func readingIsThatOfTheTree() {
        func treeRead(_ text: [UInt8]) -> Result<Baseline, FileFormatError> {
            func fail(_ reason: String) -> FileFormatError { FileFormatError(file: "b.json", reason: "not a habiter-audit baseline: \(reason)") }
            guard let root = try? JSONValue.parse(text).value else { return .failure(fail("not valid JSON")) }
            guard root["baselineFormat"]?.integerValue == Baseline.formatVersion else { return .failure(fail("baselineFormat must be 1")) }
            guard let saltText = root["salt"]?.stringValue, let salt = Hex.decode(saltText), salt.count >= 16 else {
                return .failure(fail("salt must be 32 or more hex digits"))
            }
            guard let elements = root["findings"]?.arrayElements else { return .failure(fail("findings must be an array")) }
            var entries: [BaselineEntry] = []
            for (i, element) in elements.enumerated() {
                let e = element.value
                guard let ruleId = e["ruleId"]?.stringValue, let artifact = e["artifact"]?.stringValue,
                      let path = e["path"]?.stringValue, let fingerprint = e["fingerprint"]?.stringValue else {
                    return .failure(fail("finding \(i + 1) needs ruleId, artifact, path and fingerprint"))
                }
                entries.append(BaselineEntry(ruleId: ruleId, artifact: artifact, path: path, key: e["key"]?.stringValue, fingerprint: fingerprint,
                                             valueDigest: e["valueDigest"]?.stringValue, line: e["line"]?.integerValue ?? 0))
            }
            return .success(Baseline(salt: salt, entries: entries))
        }
        var generator = SeededGenerator(seed: 0xF11E)
        func pick(_ values: [String]) -> String { values[Int.random(in: 0..<values.count, using: &generator)] }
        func some(_ range: ClosedRange<Int>, _ make: () -> String) -> String { (0..<Int.random(in: range, using: &generator)).map { _ in make() }.joined(separator: ", ") }
        let scalars = ["1", "1.0", "1.9", "2", "-1", "1e300", "\"1\"", "null", "true", "\"\"", "\"a\\u00e9\\n\\\"b\"", "\"x\""]
        let salts = ["\"\(String(repeating: "ab", count: 16))\"", "\"\(String(repeating: "0F", count: 20))\"", "\"abc\"", "\"zz\"", "7"]
        let fieldNames = ["ruleId", "artifact", "path", "fingerprint", "key", "valueDigest", "line", "other", "rule\\u0049d", "\\u212Aey", "Path"]
        func nested() -> String { pick(["{}", "[]", "{\"ruleId\": \"r\"}", "[1, [2, {\"a\": []}]]"]) }
        func field() -> String {
            "\"\(pick(fieldNames))\": " + (Int.random(in: 0..<6, using: &generator) == 0 ? nested() : pick(scalars + ["\"r\"", "\"a.json\"", "\"/p\"", "\"f\""]))
        }
        func element() -> String {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: return pick(scalars + ["[]", "[{}]"])
            case 1, 2: return "{" + some(0...4, field) + "}"
            default:
                // Mostly complete entries, sometimes with a member repeated.
                return ("{\"ruleId\": \"r\", \"artifact\": \"a.json\", \"path\": \"/p\", \"fingerprint\": \"f\", " + some(0...3, field) + "}")
                    .replacingOccurrences(of: ", }", with: "}")
            }
        }
        func member() -> String {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0, 1: return "\"baselineFormat\": " + pick(["1", "1", "1.5", "2", "\"1\"", "1e300", "[]"])
            case 2, 3: return "\"salt\": " + pick(salts)
            case 4, 5, 6: return "\"findings\": " + (Int.random(in: 0..<8, using: &generator) == 0 ? pick(["{}", "5", "null"]) : "[" + some(0...6, element) + "]")
            case 7: return "\"" + pick(["other", "tool", "find\\u0069ngs", "salt "]) + "\": " + pick(scalars + ["{\"findings\": []}", "[[]]"])
            default: return "\"baselineFormat\": 1, \"salt\": \(salts[0])"
            }
        }
        var outcomes = Set<String>()
        for round in 0..<3_000 {
            var text: String
            switch round % 25 {
            case 0: text = pick(["[]", "5", "\"x\"", "{", "{\"salt\": }", ""])
            case 1: text = "[{\"baselineFormat\": 1}]"
            default: text = "{" + some(1...6, member) + "}"
            }
            let bytes = Array(text.utf8)
            let expected = treeRead(bytes)
            let read: Result<Baseline, FileFormatError>
            do { read = .success(try BaselineFile.parse(bytes, file: "b.json")) } catch { read = .failure(error) }
            switch (read, expected) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(text)")
                outcomes.insert("read \(min(a.entries.count, 3))")
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(text)")
                outcomes.insert(b.reason.filter { !$0.isNumber })
            default:
                Issue.record("\(text): \(read) against \(expected)")
            }
        }
        // Every outcome is met: each error and baselines of none, one, two and more entries.
        #expect(outcomes.count == 9, "\(outcomes.sorted())")
    }

    /// `integerValue` reads up to 15 digits as the integer they are, and every other number
    /// through `Double`: both give what `Double` alone gave, on random integers of 1 to 20 digits,
    /// either sign, and on decimals and exponents.
    @Test func integerValueIsTheDoublesTruncated() {
        var generator = SeededGenerator(seed: 0x1E7)
        var texts = ["0", "-0", "1", "-1", "999999999999999", "-999999999999999", "1000000000000000", "9007199254740993", "1e3", "1.9", "-1.9", "1E+2", "2.5e-1"]
        for _ in 0..<5_000 {
            let digits = String((0..<Int.random(in: 1...20, using: &generator)).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let trimmed = String(digits.drop { $0 == "0" }).isEmpty ? "0" : String(digits.drop { $0 == "0" })
            texts.append((Bool.random(using: &generator) ? "-" : "") + trimmed)
        }
        for text in texts {
            #expect(JSONValue.number(text).integerValue == Double(text).flatMap { Int(exactly: $0.rounded(.towardZero)) }, "\(text)")
        }
    }

    /// Numbers no `Int` holds, where `Int(_:)` of them trapped (exit status 132): a format
    /// version is refused, a line (for readers only) reads as 0.
    @Test func numbersBeyondAnIntNeitherTrapNorPass() throws {
        let salt = String(repeating: "ab", count: 32)
        let entry = #"{"ruleId": "r", "artifact": "a", "path": "/p", "fingerprint": "f", "line": LINE}"#
        for version in ["1e300", "-1e300", "1e400", "9223372036854775807"] {
            let text = #"{"baselineFormat": \#(version), "salt": "\#(salt)", "findings": []}"#
            do {
                _ = try BaselineFile.parse(Array(text.utf8), file: "b.json")
                Issue.record("baselineFormat \(version) passed")
            } catch {
                #expect(error.description.contains("baselineFormat must be 1"), "\(error)")
            }
        }
        for (line, read) in [("1e300", 0), ("-1e400", 0), ("42", 42), ("42.9", 42), ("\"7\"", 0)] {
            let text = #"{"baselineFormat": 1, "salt": "\#(salt)", "findings": [\#(entry.replacingOccurrences(of: "LINE", with: line))]}"#
            #expect(try BaselineFile.parse(Array(text.utf8), file: "b.json").entries.map(\.line) == [read], "line \(line)")
        }
    }
}

/// Configuration files: discovery, strictness, globs, allowlist expiry.
@Suite struct ConfigurationTests {
    static func parse(_ text: String) throws(FileFormatError) -> Configuration {
        try Configuration.parse(Array(text.utf8), file: "c.json", directory: "/project")
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try Self.parse("""
        {"$comment": "gate", "syncPaths": ["/api/sync/"], "rules": ["extra-rules"], "disabledRules": ["secret.jwt"],
         "allowlist": [{"rule": "secret.*", "path": "fixtures/**", "key": "token", "fingerprint": "ab12", "reason": "test data", "expires": "2027-01-31"}]}
        """)
        #expect(configuration.syncPaths == ["/api/sync/"])
        #expect(configuration.ruleDirectories == ["/project/extra-rules"])
        #expect(configuration.disabledRules == ["secret.jwt"])
        #expect(configuration.allowlist.entries.first?.expires == "2027-01-31")
    }

    @Test(arguments: [
        (#"{"allowlists": []}"#, "c.json:1:2: unknown configuration key 'allowlists'"),
        (#"{"allowlist": [{"rule": "secret.jwt"}]}"#, "c.json:1:16: allowlist entry 1 needs a 'reason'"),
        (#"{"allowlist": [{"reason": "why"}]}"#, "c.json:1:16: allowlist entry 1 needs at least one of rule, path, key or fingerprint"),
        (#"{"allowlist": [{"rule": "x", "reason": "r", "expires": "2027-02-30"}]}"#, "'expires' must be a date YYYY-MM-DD"),
        (#"{"allowlist": [{"rule": "x", "reason": "r", "until": "2027-01-01"}]}"#, "allowlist entry 1: unknown key 'until'"),
        (#"{"syncPaths": "/v1/sync/"}"#, "'syncPaths' must be an array of strings"),
        (#"{"rules": ["a",]}"#, "c.json:1:16: not valid JSON"),
    ])
    func mistakesAreErrorsWithAPosition(_ text: String, _ message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func globs() {
        #expect(Glob("captures/*.har").matches("captures/a.har"))
        #expect(!Glob("captures/*.har").matches("captures/x/a.har"))
        #expect(Glob("captures/**/*.har").matches("captures/x/y/a.har"))
        #expect(Glob("captures/**/*.har").matches("captures/a.har"))
        #expect(Glob("**").matches("a/b/c"))
        #expect(Glob("secret.*").matches("secret.github-token"))
        #expect(!Glob("secret.*").matches("name.token"))
        #expect(Glob("a?c").matches("abc") && !Glob("a?c").matches("a/c"))
    }

    @Test func anAllowlistEntryAcceptsUntilItExpires() throws {
        let configuration = try Self.parse(#"{"allowlist": [{"rule": "secret.github-token", "path": "fixtures/*", "reason": "rotated", "expires": "2026-12-31"}]}"#)
        let token = BaselineTests.token
        var findings = TestSupport.scan(#"{"note": "\#(token)"}"#, name: "fixtures/a.json").findings
        #expect(configuration.allowlist.apply(to: &findings, today: "2026-12-31", currentDirectory: "/project").isEmpty)
        #expect(findings.map(\.suppression?.justification) == ["rotated"])
        findings = TestSupport.scan(#"{"note": "\#(token)"}"#, name: "fixtures/a.json").findings
        let notices = configuration.allowlist.apply(to: &findings, today: "2027-01-01", currentDirectory: "/project")
        #expect(notices == ["allowlist entry 1 (rotated) expired on 2026-12-31: it no longer accepts its findings"])
        #expect(findings.allSatisfy { $0.isActive })
        // Outside the path glob, from another working directory.
        findings = TestSupport.scan(#"{"note": "\#(token)"}"#, name: "fixtures/a.json").findings
        _ = configuration.allowlist.apply(to: &findings, today: "2026-01-01", currentDirectory: "/elsewhere")
        #expect(findings.allSatisfy { $0.isActive })
    }

    @Test func discoveryWalksUp() throws {
        let root = TestSupport.temporaryDirectory()
        let nested = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try "{}".write(to: root.appendingPathComponent(".habiter-audit.json"), atomically: true, encoding: .utf8)
        #expect(Configuration.discover(from: nested.path, currentDirectory: "/") == root.appendingPathComponent(".habiter-audit.json").path)
        #expect(Configuration.discover(from: "a/b/missing.json", currentDirectory: root.path) == root.appendingPathComponent(".habiter-audit.json").path)
    }

    @Test func shardsPartitionTheInputs() throws {
        let paths = (0..<200).map { "captures/session-\($0).har" }
        let shards = (1...4).map { Shard(index: $0, count: 4) }
        for path in paths { #expect(shards.filter { $0.contains(path) }.count == 1) }
        #expect(shards.allSatisfy { shard in paths.contains { shard.contains($0) } })
        #expect(throws: UsageError.self) { _ = try Shard.parse("5/4", command: "scan") }
        #expect(throws: UsageError.self) { _ = try Shard.parse("0/4", command: "scan") }
    }

    @Test func progressLine() {
        #expect(ProgressReporter.line(filesDone: 12, totalFiles: 40, bytesDone: 120_400_000, totalBytes: 400_000_000, elapsed: 2)
                == "12/40 inputs, 120.4 of 400.0 MB, 60.2 MB/s, 5 s left")
        #expect(ProgressReporter.line(filesDone: 0, totalFiles: 1, bytesDone: 0, totalBytes: 0, elapsed: 0) == "0/1 inputs, 0.0 of 0.0 MB")
    }
}
