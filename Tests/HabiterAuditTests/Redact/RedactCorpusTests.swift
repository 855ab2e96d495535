@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditScan
import Foundation
import Testing

/// The acceptance test of `redact`: every input of the corpus (docs/corpus.md) is redacted to a
/// temporary file, and the copy
/// - reads in the same format (the scanner detects the same format and reads it without error;
///   JSON, NDJSON and HAR also parse with Foundation's JSON parser, prefs exports with its XML
///   parser);
/// - scans with no secret or transport finding left (policy findings may remain; so may a
///   sensitive store's finding in sync data, which names the key, when its value is redacted);
/// - differs from the input only where the scan reported something: clean inputs come out byte
///   for byte, and every changed value lies at (or inside) a reported path.
/// Messages name files, paths and rules, never a value.
@Suite struct RedactCorpusTests {
    static let corpusPath = TestSupport.repoRoot.appendingPathComponent("corpus").path

    static let inputs: [String] = {
        guard let walker = FileManager.default.enumerator(atPath: corpusPath) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: corpusPath + "/" + relative, isDirectory: &isDirectory),
                  !isDirectory.boolValue, relative != "labels.json" else { continue }
            files.append(relative)
        }
        return files.sorted()
    }()

    @Test func theCorpusHasInputsOfEveryFormat() {
        let formats = Set(Self.inputs.map { input -> String in
            let before = Scanner(rules: TestSupport.builtinPack).scan(paths: [Self.corpusPath + "/" + input])
            return before.artifacts.first?.format ?? "?"
        })
        #expect(formats.isSuperset(of: ["json", "ndjson", "har", "http", "prefs-xml", "har+gzip", "ndjson+gzip"]), "formats: \(formats.sorted())")
    }

    @Test(arguments: inputs)
    func redactedCopyReadsScansCleanAndChangesOnlyFindings(_ input: String) throws {
        let path = Self.corpusPath + "/" + input
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let before = scanner.scan(paths: [path])
        try #require(before.errors.isEmpty, "the corpus input itself does not scan: \(before.errors)")
        let format = try #require(before.artifacts.first?.format)
        let secrets = before.findings.filter { $0.family != .policy }

        let result: RedactionResult
        do {
            result = try Redactor(rules: TestSupport.builtinPack).redact(original, name: input)
        } catch {
            Issue.record("redaction failed: \(error)")
            return
        }
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent((input as NSString).lastPathComponent)
        try Data(result.output).write(to: copy)

        // Reads in the same format.
        let after = scanner.scan(paths: [copy.path])
        #expect(after.errors.isEmpty, "the redacted copy does not read: \(after.errors.map(\.reason))")
        #expect(after.artifacts.first?.format == format, "read as \(after.artifacts.first?.format ?? "nothing") instead of \(format)")
        var content = result.output
        var originalContent = original
        if format.hasSuffix("+gzip") {
            guard case .success(let inflated) = GzipLayerDecoder.inflate(result.output),
                  case .success(let inflatedOriginal) = GzipLayerDecoder.inflate(original) else {
                Issue.record("gzip input did not give gzip output")
                return
            }
            content = inflated
            originalContent = inflatedOriginal
        }
        let baseFormat = format.replacingOccurrences(of: "+gzip", with: "")
        #expect(Self.parses(content, as: baseFormat), "the redacted copy does not parse as \(baseFormat) with Foundation")

        // No secret or transport finding left.
        for finding in after.findings where finding.family != .policy {
            Issue.record("\(finding.ruleId) at \(finding.path) line \(finding.position.line) remains")
        }

        // Redacting the copy again changes nothing.
        let again = try? Redactor(rules: TestSupport.builtinPack).redact(result.output, name: input)
        let idempotent = again?.output == result.output && again?.replacementCount == 0
        #expect(idempotent, "a second redaction changed the copy")

        // Changes only where the scan reported something.
        if secrets.isEmpty {
            let identical = result.output == original
            #expect(identical, "a clean input did not come out byte-identical")
            #expect(result.replacementCount == 0)
            return
        }
        let reportedRules = Set(secrets.map(\.ruleId))
        for rule in result.replacements.keys {
            // A JSON Web Token is replaced whole, under its own name, whatever was found in it.
            #expect(reportedRules.contains(rule) || rule == "secret.jwt", "a placeholder of \(rule), which the scan did not report")
        }
        for changed in Self.changedValues(originalContent, content, format: baseFormat) {
            func holds(_ line: Int, _ reported: String) -> Bool {
                guard changed.line == nil || changed.line == line else { return false }
                return changed.pointer == reported || changed.pointer.hasPrefix(reported + "/")
            }
            // At a finding, or at one of its related locations (the same secret again in the
            // same request: the cookie in Set-Cookie and cookies[], a form in text and params).
            let covered = secrets.contains { finding in
                holds(finding.position.line, Self.pointer(of: finding.path))
                    || finding.relatedLocations.contains { holds($0.position.line, String($0.pathText.prefix { $0 != "!" })) }
            }
            #expect(covered || changed.isFraming, "\(changed.pointer) changed, where no secret was reported")
        }
    }

    // MARK: Format checks, independent of the scanner's readers where Foundation has one

    static func parses(_ bytes: [UInt8], as format: String) -> Bool {
        switch format {
        case "json", "har":
            return (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        case "ndjson":
            return ndjsonDocuments(bytes) != nil
        case "prefs-xml":
            return XMLStrings.parse(bytes) != nil
        case "http":
            return httpParts(bytes) != nil
        default:
            return false
        }
    }

    /// The documents of NDJSON text with their 1-based line numbers; nil when a line is not JSON.
    static func ndjsonDocuments(_ bytes: [UInt8]) -> [(line: Int, document: Any)]? {
        var documents: [(line: Int, document: Any)] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            guard let document = try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) else { return nil }
            documents.append((index + 1, document))
        }
        return documents
    }

    /// The parts of raw HTTP messages (notes, URLs, header names and values, bodies) by path, as the
    /// scanner's reader splits them; nil when the messages no longer read.
    static func httpParts(_ bytes: [UInt8]) -> [(pointer: String, name: String, value: [UInt8])]? {
        (try? HTTPPartRecorder.parts(bytes))?.map { ($0.path, $0.name, $0.value) }
    }

    // MARK: What changed

    struct Change {
        var pointer: String
        /// The NDJSON line, whose findings cover it.
        var line: Int?
        /// A change the format requires (a corrected Content-Length), not a value.
        var isFraming = false
    }

    /// The values that differ between the input and the copy, as JSON Pointers of the input's own
    /// layer (a value inside an embedded layer changes the string that carries it).
    static func changedValues(_ before: [UInt8], _ after: [UInt8], format: String) -> [Change] {
        switch format {
        case "json", "har":
            guard let a = try? JSONSerialization.jsonObject(with: Data(before), options: [.fragmentsAllowed]),
                  let b = try? JSONSerialization.jsonObject(with: Data(after), options: [.fragmentsAllowed]) else {
                return [Change(pointer: "(unparsable)")]
            }
            var changes: [String] = []
            diff(a, b, "", into: &changes)
            return changes.map { Change(pointer: $0) }
        case "ndjson":
            guard let a = ndjsonDocuments(before), let b = ndjsonDocuments(after), a.count == b.count else {
                return [Change(pointer: "(documents differ)")]
            }
            var changes: [Change] = []
            for (x, y) in zip(a, b) {
                var pointers: [String] = []
                diff(x.document, y.document, "", into: &pointers)
                changes += pointers.map { Change(pointer: $0, line: x.line) }
            }
            return changes
        case "prefs-xml":
            guard let a = XMLStrings.parse(before), let b = XMLStrings.parse(after), Set(a.keys) == Set(b.keys) else {
                return [Change(pointer: "(entries differ)")]
            }
            return a.keys.sorted().filter { a[$0] != b[$0] }.map { Change(pointer: "/" + LayeredPath.escape($0)) }
        case "http":
            guard let a = httpParts(before), let b = httpParts(after), a.map(\.pointer) == b.map(\.pointer) else {
                return [Change(pointer: "(messages differ)")]
            }
            var changes: [Change] = []
            for (x, y) in zip(a, b) where x.value != y.value {
                changes.append(Change(pointer: x.pointer, isFraming: x.name == "content-length"))
            }
            return changes
        default:
            return [Change(pointer: "(unknown format)")]
        }
    }

    /// JSON Pointers where two parsed JSON values differ; a key renamed (a secret used as a key)
    /// is reported as the scanner names it, `<object>/[REDACTED]`.
    static func diff(_ a: Any, _ b: Any, _ pointer: String, into changes: inout [String]) {
        if let x = a as? [String: Any], let y = b as? [String: Any] {
            if Set(x.keys) != Set(y.keys) { changes.append(pointer + "/" + Redaction.maskedKey) }
            for (key, value) in x {
                if let other = y[key] { diff(value, other, pointer + "/" + LayeredPath.escape(key), into: &changes) }
            }
        } else if let x = a as? [Any], let y = b as? [Any] {
            guard x.count == y.count else {
                changes.append(pointer)
                return
            }
            for (index, (value, other)) in zip(x, y).enumerated() { diff(value, other, pointer + "/\(index)", into: &changes) }
        } else if String(describing: a) != String(describing: b) || type(of: a) != type(of: b) {
            changes.append(pointer)
        }
    }

    /// The pointer of a path's first layer: the value of the input that carries the finding.
    static func pointer(of path: LayeredPath) -> String {
        LayeredPath(layers: [path.layers[0]]).description
    }
}
