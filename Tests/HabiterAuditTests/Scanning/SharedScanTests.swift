@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
import AuditRules
@testable import AuditScan
import Foundation
import Testing

/// One NDJSON or HAR input scanned by several workers (`ScanShare`) gives what one worker gives:
/// the same findings (fingerprints, positions, paths, messages), errors, inventory and summary,
/// for every number of workers. Where the merge is exact the tests also check that it was used
/// (and not the rescan by one worker, which would pass any comparison).
@Suite struct SharedScanTests {
    static let workerCounts = [2, 3, 5]

    /// Writes `bytes` to a file named `name` in a new directory.
    static func file(_ name: String, _ bytes: [UInt8]) -> InputItem {
        let url = TestSupport.temporaryDirectory().appendingPathComponent(name)
        let written = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        precondition(written, "cannot write the test input \(name)")
        return InputItem.file(url.path)
    }

    static func scanner(sharing: Bool) -> AuditScan.Scanner {
        var options = ScanOptions()
        if sharing { options.minimumSharedBytes = 0 }
        return AuditScan.Scanner(rules: TestSupport.builtinPack, options: options)
    }

    /// Who visits what, in a test: the workers run one after another, and the first to run
    /// claims every chunk not claimed before it ran.
    enum Claims: CaseIterable {
        /// Worker 0 runs first: it visits everything.
        case firstWorkerFirst
        /// The last worker runs first: it visits everything but what is worker 0's by rule.
        case lastWorkerFirst
        /// The chunks (4 KiB) go to the workers in turn.
        case inTurn
        /// The first half of the chunks (but the first) goes to the last worker, the rest to
        /// worker 0, and the last worker runs first: worker 0 jumps from its first entry to the
        /// last one the other began (`ScanShare.resumePoint`) and goes on with its own.
        case halves
    }

    /// Gives the chunks of `chunk` bytes to the workers in turn.
    static func claimInTurn(_ shares: [ScanShare], size: Int, chunk: Int) {
        for index in 0...size / chunk { _ = shares[index % shares.count].owns(documentAt: index * chunk, ordinal: 1) }
    }

    /// The outcome of `workers` workers merged, or nil when the merge refuses (no rescan), the
    /// number of findings the workers reported in all, how many times they jumped, and how many
    /// bytes their windows passed unread.
    static func merged(_ item: InputItem, workers: Int, claims: Claims)
        -> (outcome: ArtifactOutcome?, reported: Int, jumps: Int, passedUnread: Int) {
        let scanner = scanner(sharing: true)
        let size = try! FileManager.default.attributesOfItem(atPath: path(of: item))[.size] as! Int
        let outcomes = SharedOutcomes(count: workers)
        var reported = 0
        var passedUnread = 0
        let chunk = 4_096
        let shares = ScanShare.shares(workers: workers, size: size, chunkSize: chunk)
        if claims == .inTurn { claimInTurn(shares, size: size, chunk: chunk) }
        if claims == .halves {
            for index in 0...size / chunk {
                _ = shares[index > 0 && index <= size / chunk / 2 ? workers - 1 : 0].owns(documentAt: index * chunk, ordinal: 1)
            }
        }
        for share in claims == .lastWorkerFirst || claims == .halves ? shares.reversed() : shares {
            // A window of 4 KiB chunks: bytes a worker passes are dropped before it reads on.
            let descriptor = open(path(of: item), O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { Issue.record("cannot open"); return (nil, 0, 0, 0) }
            let window = ByteWindow(descriptor: descriptor, expectedSize: size, chunkSize: 4_096)
            let outcome = scanner.scan(window, name: item.name, rules: TestSupport.builtinPack, matcher: RegexMatcher(), share: share)
            reported += AuditScan.Scanner.finalize(outcome.findings).count
            passedUnread += window.passedUnread
            outcomes.store(outcome, at: share.worker)
        }
        return (outcomes.merged(), reported, shares.reduce(0) { $0 + $1.jumps }, passedUnread)
    }

    static func path(of item: InputItem) -> String {
        guard case .file(let path) = item.source else { fatalError("a file") }
        return path
    }

    /// Scans `item` with one worker and shared by each of `workerCounts`; expects the same result.
    /// `mergeIsExact`: whether the workers' outcomes merge without a rescan (nil: it depends on
    /// who visits what).
    static func expectSameAsOneWorker(_ item: InputItem, mergeIsExact: Bool?, sourceLocation: SourceLocation = #_sourceLocation) {
        let one = scanner(sharing: false).scan([item], jobs: 1)
        #expect(one.findings.count > 0 || !one.errors.isEmpty, "the input finds something", sourceLocation: sourceLocation)
        for workers in workerCounts {
            let shared = scanner(sharing: true).scan([item], jobs: workers)
            #expect(shared.findings == one.findings, "\(workers) workers: findings", sourceLocation: sourceLocation)
            #expect(shared.errors == one.errors, "\(workers) workers: errors", sourceLocation: sourceLocation)
            #expect(shared.artifacts == one.artifacts, "\(workers) workers: summary", sourceLocation: sourceLocation)
            #expect(shared.inventory == one.inventory, "\(workers) workers: inventory", sourceLocation: sourceLocation)
            for claims in Claims.allCases {
                let (merged, reported, _, _) = merged(item, workers: workers, claims: claims)
                if let mergeIsExact {
                    #expect((merged != nil) == mergeIsExact, "\(workers) workers, \(claims): merged without a rescan", sourceLocation: sourceLocation)
                }
                if let merged {
                    #expect(merged.findings == one.findings, "\(workers) workers, \(claims): merged findings", sourceLocation: sourceLocation)
                    #expect(InventoryEntry.summarize(merged.sightings) == one.inventory, "\(workers) workers, \(claims): inventory",
                            sourceLocation: sourceLocation)
                    // Each value visited by one worker: no finding is made twice (and merely deduplicated).
                    #expect(reported == merged.findings.count, "\(workers) workers, \(claims): findings made once", sourceLocation: sourceLocation)
                }
            }
        }
    }

    static func corpus(_ path: String) -> [UInt8] {
        Array(try! Data(contentsOf: TestSupport.repoRoot.appendingPathComponent("corpus/\(path)")))
    }

    /// NDJSON lines of the corpus, repeated, with blank lines between some of them.
    static func oplog(repeats: Int) -> [UInt8] {
        let lines = String(decoding: corpus("sync/oplog-2025-11-28.ndjson"), as: UTF8.self).split(separator: "\n")
        var text = ""
        for round in 0..<repeats {
            for (index, line) in lines.enumerated() {
                text += line + "\n"
                if (round + index) % 7 == 0 { text += "\n  \n" }
            }
        }
        return Array(text.utf8)
    }

    /// A capture of the corpus's entries, repeated, with a secret before the entries (a key
    /// of `log`), in `pages` and after them, so that what lies outside the entries is visited
    /// once and its hits end where one scan ends them.
    static func capture(repeats: Int, brokenEntry: Int? = nil) -> [UInt8] {
        let har = try! JSONSerialization.jsonObject(with: Data(corpus("captures/android-sync-mitmproxy.har"))) as! [String: Any]
        let log = har["log"] as! [String: Any]
        let entries = log["entries"] as! [Any]
        let entryTexts = entries.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        var all: [String] = []
        for round in 0..<repeats { all += entryTexts.map { round % 2 == 0 ? $0 : $0.replacingOccurrences(of: "\",\"", with: "\", \"") } }
        if let brokenEntry { all[brokenEntry] = String(all[brokenEntry].dropLast()) }
        let token = "ghp_eN4QrCIu1isc4UxdJDJmATl4GjUQg1AoeaSY"
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36", "comment": "\(token)"},
              "pages": [{"id": "page_1", "title": "https://app.habiter.app/?access_token=\(token)"}],
              "entries": [
            \(all.joined(separator: ",\n"))
              ],
              "comment": "after the entries: \(token)"}, "password": "\(token)"}
            """
        return Array(text.utf8)
    }

    @Test func ndjsonByNameAndByContent() {
        Self.expectSameAsOneWorker(Self.file("oplog.ndjson", Self.oplog(repeats: 40)), mergeIsExact: true)
        Self.expectSameAsOneWorker(Self.file("oplog.json", Self.oplog(repeats: 40)), mergeIsExact: true)
    }

    @Test func harWithSecretsOutsideTheEntries() {
        let item = Self.file("session.har", Self.capture(repeats: 12))
        Self.expectSameAsOneWorker(item, mergeIsExact: true)
        // The comparisons above include jumps: worker 0 passes the other's half, and its window
        // reads little of it (`ByteWindow.passUnread`).
        for workers in Self.workerCounts {
            let halves = Self.merged(item, workers: workers, claims: .halves)
            #expect(halves.jumps > 0, "\(workers) workers")
            #expect(halves.passedUnread > 0, "\(workers) workers")
        }
    }

    @Test func everyCorpusCaptureAndLog() throws {
        let directories = ["captures", "sync"]
        for directory in directories {
            let names = try FileManager.default.contentsOfDirectory(atPath: TestSupport.repoRoot.appendingPathComponent("corpus/\(directory)").path)
            for name in names.sorted() where name.hasSuffix(".har") || name.hasSuffix(".ndjson") {
                let item = InputItem.file(TestSupport.repoRoot.appendingPathComponent("corpus/\(directory)/\(name)").path)
                let one = Self.scanner(sharing: false).scan([item], jobs: 1)
                for workers in Self.workerCounts {
                    let shared = Self.scanner(sharing: true).scan([item], jobs: workers)
                    #expect(shared.findings == one.findings && shared.errors == one.errors && shared.inventory == one.inventory,
                            "\(name), \(workers) workers")
                }
            }
        }
    }

    /// Every finding holds the artifact's name, and copying a finding retains it: the workers
    /// after the first hold a copy of their own, which two threads never retain at once.
    @Test func theWorkersAfterTheFirstHoldTheNameInAStringOfTheirOwn() throws {
        let item = Self.file("a-capture-shared-by-two-workers.har", Self.capture(repeats: 8))
        let size = try FileManager.default.attributesOfItem(atPath: Self.path(of: item))[.size] as! Int
        let chunk = 4_096
        let shares = ScanShare.shares(workers: 2, size: size, chunkSize: chunk)
        Self.claimInTurn(shares, size: size, chunk: chunk)
        let nameStorage = try #require(StringStorage.address(of: item.name))
        for share in shares {
            guard case .success(let window) = InputLoader.open(item) else { Issue.record("cannot open"); return }
            let outcome = Self.scanner(sharing: true).scan(window, name: item.name, rules: TestSupport.builtinPack, matcher: RegexMatcher(),
                                                           share: share)
            let storages = Set(outcome.findings.compactMap { StringStorage.address(of: $0.artifact) })
            #expect(!storages.isEmpty, "worker \(share.worker) finds something")
            #expect(storages.contains(nameStorage) == (share.worker == 0), "worker \(share.worker)")
        }
    }

    /// A syntax error: one worker stops there and another skips past it, so the input is
    /// scanned again by one worker, and the report is the same.
    @Test func brokenInputsAreScannedAgainByOneWorker() {
        var lines = Self.oplog(repeats: 20)
        let middle = lines.count / 2
        let lineStart = lines[middle...].firstIndex(of: 0x0A)! + 1
        lines.insert(contentsOf: Array("{\"broken\": \n".utf8), at: lineStart)
        Self.expectSameAsOneWorker(Self.file("broken.ndjson", lines), mergeIsExact: false)
        Self.expectSameAsOneWorker(Self.file("broken.har", Self.capture(repeats: 8, brokenEntry: 50)), mergeIsExact: false)
    }

    /// A verifier whose challenge another worker may see (the merge refuses then: see
    /// `theMergeRefusesWhatDependsOnOrder`): the report pairs them, as one scan does.
    @Test func aPKCEPairAcrossSharesIsScannedAgainByOneWorker() {
        let verifier = PKCEPairingTests.verifier, challenge = PKCEPairingTests.challenge
        var lines = String(decoding: Self.oplog(repeats: 20), as: UTF8.self)
        lines = #"{"url": "https://auth.habiter.app/authorize?response_type=code&code_challenge=\#(challenge)&code_challenge_method=S256"}"#
            + "\n" + lines + #"{"body": "grant_type=authorization_code&code=c1&code_verifier=\#(verifier)"}"# + "\n"
        let item = Self.file("pkce.ndjson", Array(lines.utf8))
        Self.expectSameAsOneWorker(item, mergeIsExact: nil)
        let paired = Self.scanner(sharing: true).scan([item], jobs: 2).findings.first { $0.ruleId == "name.pkce-verifier" }
        #expect(paired?.confidence == .high)
    }

    /// Keys without a store beyond what one scan lists: their order decides, so the merge refuses.
    @Test func theMergeRefusesWhatDependsOnOrder() {
        func outcome(_ names: Range<Int>, unlisted: Int = 0) -> ArtifactOutcome {
            let sightings = names.map {
                InventorySighting(storeId: nil, name: "key\($0)", classes: [.unsupported], context: .backup, verdict: .note, artifact: "a", note: nil)
            }
            return ArtifactOutcome(findings: [], errors: [], summary: ArtifactSummary(name: "a", format: "ndjson", byteCount: 1), sightings: sightings,
                                   shared: ShareFacts(unpairedChallenges: [], pkce: PKCEPairing(), unlistedKeys: unlisted))
        }
        func merge(_ parts: [ArtifactOutcome]) -> ArtifactOutcome? {
            let outcomes = SharedOutcomes(count: parts.count)
            for (index, part) in parts.enumerated() { outcomes.store(part, at: index) }
            return outcomes.merged()
        }
        #expect(merge([outcome(0..<200), outcome(100..<256)])?.sightings.count == 256)
        #expect(merge([outcome(0..<200), outcome(100..<257)]) == nil)
        #expect(merge([outcome(0..<10, unlisted: 1), outcome(0..<10)]) == nil)
        var verifier = outcome(0..<1), challenge = outcome(0..<1)
        let value = Array(PKCEPairingTests.challenge.utf8)
        verifier.shared?.unpairedChallenges = [value]
        value.withUnsafeBytes { challenge.shared?.pkce.observe($0) }
        #expect(merge([challenge, verifier]) == nil)
        #expect(merge([verifier, challenge]) == nil)
        #expect(merge([verifier, outcome(0..<1)]) != nil)
        var failed = outcome(0..<1)
        failed.errors = [InputError(kind: .parse, artifact: "a", reason: "x")]
        #expect(merge([outcome(0..<1), failed]) == nil)
    }

    /// Each document has one owner, whoever asks first and in whatever order; the first is
    /// worker 0's.
    @Test func everyDocumentHasOneOwner() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 100, 1 << 20, 100 << 20] {
            for workers in 1...5 {
                let shares = ScanShare.shares(workers: workers, size: size)
                let offsets = (0..<200).map { _ in Int.random(in: 0...size + 10, using: &generator) }
                var owners: [Int: Set<Int>] = [:]
                for _ in 0..<3 {
                    for offset in offsets.shuffled(using: &generator) {
                        for share in shares.shuffled(using: &generator) where share.owns(documentAt: offset, ordinal: 1) {
                            owners[offset, default: []].insert(share.worker)
                        }
                    }
                }
                #expect(offsets.allSatisfy { owners[$0]?.count == 1 }, "\(size) bytes, \(workers) workers")
                #expect(shares.filter { $0.owns(documentAt: 0, ordinal: 0) }.map(\.worker) == [0])
            }
        }
    }
}
