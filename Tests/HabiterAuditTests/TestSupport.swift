@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
import AuditRules
@testable import AuditScan
import Foundation
@testable import HabiterAudit
import TestHelpers
import Testing

/// Paths and helpers shared by the tests.
enum TestSupport {
    static let repoRoot = ProcessRunner.repoRoot

    /// `../shared` beside the repository, where CI keeps third-party data (JSONTestSuite,
    /// schemas). Never copied into the repository.
    static let sharedRoot: URL = repoRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static let builtinPack: RulePack = try! RulePack.load()

    /// The hits of `engine`'s pattern rules in `text`, as one value.
    static func patternHits(_ engine: PatternEngine, _ text: [UInt8], context: ContextMask = 0) throws -> [PatternHit] {
        var scratch = PatternScratch()
        var hits: [PatternHit] = []
        // A copy the scan can borrow outside a closure (typed throws through `withUnsafeBytes`
        // crash this compiler).
        let value = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 1)
        defer { value.deallocate() }
        value.copyBytes(from: text)
        try engine.scan(UnsafeRawBufferPointer(value), context: context, matcher: RegexMatcher(), scratch: &scratch) { hits.append($0) }
        return hits
    }

    /// The default options with `option`, one that must not change the answers, turned off.
    static func options(without option: WritableKeyPath<ScanOptions, Bool>) -> ScanOptions {
        var options = ScanOptions()
        options[keyPath: option] = false
        return options
    }

    /// Expects every file of the bundled corpus (sync logs, captures, backups, prefs) to give the
    /// same findings and errors, in the same order, with `options` as with the default ones, for
    /// an option that must not change the answers. Returns how many findings there were.
    @discardableResult
    static func expectSameAnswersOnTheCorpus(with options: ScanOptions, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let root = repoRoot.appendingPathComponent("corpus")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted().filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(files.count > 50, sourceLocation: sourceLocation)
        var findings = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(file)))
            findings += expectSameAnswers(bytes: bytes, name: file, with: options, sourceLocation: sourceLocation).other.findings.count
        }
        return findings
    }

    /// Expects `bytes`, scanned as `name`, to give the same findings and errors, in the same
    /// order, with `options` as with the default ones, for an option that must not change the
    /// answers. Returns both outcomes.
    @discardableResult
    static func expectSameAnswers(bytes: [UInt8], name: String = "input.json", with options: ScanOptions,
                                  sourceLocation: SourceLocation = #_sourceLocation)
        -> (usual: (findings: [Finding], errors: [InputError], inventory: [InventoryEntry]),
            other: (findings: [Finding], errors: [InputError], inventory: [InventoryEntry])) {
        let usual = scan(bytes: bytes, name: name)
        let other = scan(bytes: bytes, name: name, options: options)
        // Compared before the expectation, which would print every finding of both.
        let sameFindings = usual.findings == other.findings, sameErrors = usual.errors == other.errors
        #expect(sameFindings, "\(name)", sourceLocation: sourceLocation)
        #expect(sameErrors, "\(name)", sourceLocation: sourceLocation)
        return (usual, other)
    }

    /// Scans the JSON `text` with the built-in pack and returns what `read` reads of the scan
    /// when it is done (its counters of the work it did).
    static func jsonScan<T>(_ text: String, options: ScanOptions, read: (ArtifactScan) -> T) -> T {
        artifactScan(Array(text.utf8), name: "input.json", options: options, run: {
            _ = JSONInputScanner(scan: $0, format: .json, start: 0, defaultContext: .payload, closesJSONP: false).run()
        }, read: read)
    }

    /// Scans `bytes`, an input named `name`, with the built-in pack and the scanner `run` calls,
    /// and returns what `read` reads of the scan when it is done.
    static func artifactScan<T>(_ bytes: [UInt8], name: String, options: ScanOptions, run: (ArtifactScan) -> Void,
                                read: (ArtifactScan) -> T) -> T {
        var bytes = bytes
        return bytes.withUnsafeMutableBytes { buffer in
            let scan = ArtifactScan(artifact: name, window: ByteWindow(whole: UnsafeRawBufferPointer(buffer)),
                                    rules: builtinPack, matcher: RegexMatcher(), caches: WorkerCaches(rules: builtinPack), options: options)
            defer { scan.dropLayerVisitors() }
            run(scan)
            return read(scan)
        }
    }

    /// Scans `text` as an input named `name` with the built-in pack.
    static func scan(_ text: String, name: String = "input.json", options: ScanOptions = ScanOptions())
        -> (findings: [Finding], errors: [InputError], inventory: [InventoryEntry]) {
        scan(bytes: Array(text.utf8), name: name, options: options)
    }

    /// Scans `bytes` (any bytes, valid UTF-8 or not) as an input named `name` with the built-in pack.
    static func scan(bytes: [UInt8], name: String = "input.json", options: ScanOptions = ScanOptions())
        -> (findings: [Finding], errors: [InputError], inventory: [InventoryEntry]) {
        let scanner = Scanner(rules: builtinPack, options: options)
        var bytes = bytes
        let outcome = bytes.withUnsafeMutableBytes { scanner.scan(bytes: UnsafeRawBufferPointer($0), name: name) }
        return (outcome.findings, outcome.errors, InventoryEntry.summarize(outcome.sightings))
    }

    /// Runs the CLI in-process and captures stdout and stderr; `terminal` makes both look like
    /// a terminal (colour, progress).
    static func runCLI(_ arguments: [String], variables: [String: String] = [:], terminal: Bool = false)
        -> (status: Int32, stdout: String, stderr: String) {
        let out = Capture()
        let err = Capture()
        let environment = CLIEnvironment(writeOut: { out.text += $0 }, writeErr: { err.text += $0 },
                                         stdoutIsTerminal: terminal, stderrIsTerminal: terminal, variables: variables)
        let status = CLI.run(arguments, environment: environment)
        return (status, out.text, err.text)
    }

    final class Capture: @unchecked Sendable { var text = "" }

    static func temporaryDirectory() -> URL { ProcessRunner.temporaryDirectory() }

    /// Checks a reader's search of `width` bytes at a time (`firstSpecialByte`) against
    /// `isSpecial` byte by byte: every byte value at every position, followed by special bytes
    /// of any kind (`later`) or none, must give the index of the first special byte.
    static func expectFirstSpecialByte(width: Int, _ firstSpecialByte: (UnsafeRawPointer) -> Int?, later: [UInt8],
                                       isSpecial: (UInt8) -> Bool) {
        for b in 0...255 {
            for position in 0..<width {
                for next in [UInt8(ascii: "a")] + later {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: width)
                    bytes[position] = UInt8(b)
                    for k in position + 1..<width where k % 2 == 1 { bytes[k] = next }
                    let found = bytes.withUnsafeBytes { firstSpecialByte($0.baseAddress!) }
                    #expect(found == bytes.firstIndex(where: isSpecial), "byte \(b) at \(position), then \(next)")
                }
            }
        }
    }

    /// `body`'s result, with an issue recorded when it took `bound` seconds or more.
    static func withinSeconds<T>(_ bound: Double, _ body: () throws -> T) rethrows -> T {
        let started = Date()
        let result = try body()
        #expect(Date().timeIntervalSince(started) < bound, "took longer than \(bound) s")
        return result
    }

    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try ProcessRunner.run(executable, arguments, stdin: stdin)
    }

    static func which(_ names: String...) -> String? { names.lazy.compactMap { ProcessRunner.which($0) }.first }

}
