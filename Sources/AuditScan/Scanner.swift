import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs
import AuditRules
import Foundation

/// What was scanned, for the report.
public struct ArtifactSummary: Sendable, Equatable {
    public var name: String
    /// The format read (`json`, `ndjson`, …), or nil when it could not be determined.
    public var format: String?
    public var byteCount: Int
    /// Why the input was not scanned (a binary file), when it was not: counted and listed, not an
    /// error.
    public var skipped: String? = nil
}

/// The outcome of a scan: findings in report order, input errors, the inputs seen, and the
/// inventory section (stores seen, their class, contexts and verdict).
public struct ScanResult: Sendable {
    public var findings: [Finding]
    public var errors: [InputError]
    public var artifacts: [ArtifactSummary]
    public var inventory: [InventoryEntry]
    /// Baseline entries no finding matched any more (fixed, or gone with their input).
    public var absent: [BaselineEntry] = []
    /// Things the reader must know that are neither findings nor input errors (an expired
    /// allowlist entry).
    public var notices: [String] = []

    /// Findings that count toward the gate: not accepted by a baseline or an allowlist.
    public var activeFindings: [Finding] { findings.filter(\.isActive) }
}

/// What scanning one input gave.
public struct ArtifactOutcome: Sendable {
    /// In report order, duplicates dropped, fingerprints assigned (`FinalizedFindings`); last
    /// first, for a worker of a shared input.
    public var findings: [Finding]
    public var errors: [InputError]
    public var summary: ArtifactSummary
    public var sightings: [InventorySighting]
    /// What merging the outcome with those of the other workers of a shared input needs.
    var shared: ShareFacts? = nil
    /// An archive's members, each an artifact of its own (`Scanner.scanArchive`).
    public var members: [ArtifactOutcome] = []

    /// An input that could not be read at all (a file that does not open, an encrypted archive
    /// member): its error, nothing scanned.
    static func unread(_ error: InputError) -> ArtifactOutcome {
        ArtifactOutcome(findings: [], errors: [error], summary: ArtifactSummary(name: error.artifact, format: nil, byteCount: 0), sightings: [])
    }

    /// The outcome and its members' (and theirs), in archive order: one per artifact.
    public var expanded: [ArtifactOutcome] {
        guard !members.isEmpty else { return [self] }
        var archive = self
        archive.members = []
        return [archive] + members.flatMap(\.expanded)
    }
}

/// Scans inputs with a rule pack. The library entry point; the CLI is a shell around it.
public final class Scanner: @unchecked Sendable {
    public let rules: RulePack
    public let options: ScanOptions

    public init(rules: RulePack, options: ScanOptions = ScanOptions()) {
        self.rules = rules
        self.options = options
    }

    /// Scans the files and directories in `paths` (`-` for stdin).
    public func scan(paths: [String], jobs: Int = 1) -> ScanResult {
        let (items, collectErrors) = InputCollector.collect(paths)
        var result = scan(items, jobs: jobs)
        result.errors = collectErrors + result.errors
        return result
    }

    /// Scans inputs, up to `jobs` at a time. The result does not depend on `jobs`: errors and
    /// inputs are merged in input order, findings in report order.
    /// `progress` is told, from the scanning threads, how many inputs and bytes are done.
    public func scan(_ items: [InputItem], jobs: Int = 1, progress: (@Sendable (_ files: Int, _ bytes: Int) -> Void)? = nil) -> ScanResult {
        let work = WorkQueue(items: items, progress: progress)
        let workers = max(1, min(jobs, items.count))
        // Fewer inputs than jobs: the jobs left over share the large inputs (`ScanShare`).
        let sharing = max(1, jobs / workers)
        if workers == 1 {
            scanQueued(work, rules: rules, sharing: sharing)
        } else {
            // One worker keeps the pack it was given; the others build their own (see
            // `independentCopy`) while it already scans.
            WorkerThreads.run(count: workers) { worker in
                scanQueued(work, rules: worker == 0 ? rules : rules.independentCopy(), sharing: sharing)
            }
        }
        let outcomes = work.outcomes.flatMap(\.expanded)
        var errors: [InputError] = []
        var artifacts: [ArtifactSummary] = []
        var sightings: [InventorySighting] = []
        for outcome in outcomes {
            errors += outcome.errors
            artifacts.append(outcome.summary)
            sightings += outcome.sightings
        }
        // Each worker put its artifact's findings in report order, with their fingerprints (which
        // depend on nothing outside the artifact); report order is by artifact first. An input
        // named twice is one artifact: its findings are finalized together, duplicates dropped.
        let names = outcomes.map(\.summary.name)
        let findings = Set(names).count != names.count ? Scanner.finalize(outcomes.flatMap(\.findings))
            // One input's findings are taken as they are, not copied.
            : outcomes.count == 1 ? outcomes[0].findings
            : outcomes.sorted { $0.summary.name < $1.summary.name }.flatMap(\.findings)
        return ScanResult(findings: findings, errors: errors, artifacts: artifacts, inventory: InventoryEntry.summarize(sightings))
    }

    /// Takes inputs from `work` until none is left; a large one is shared by `sharing` workers.
    private func scanQueued(_ work: WorkQueue, rules: RulePack, sharing: Int) {
        let matcher = RegexMatcher()
        let caches = WorkerCaches(rules: rules)
        while let (index, item) = work.take() {
            work.store(scan(item, rules: rules, matcher: matcher, caches: caches, sharing: sharing), at: index)
        }
    }

    private func scan(_ item: InputItem, rules: RulePack, matcher: RegexMatcher, caches: WorkerCaches, sharing: Int) -> ArtifactOutcome {
        switch InputLoader.open(item) {
        case .failure(let error):
            return .unread(error)
        case .success(let window):
            guard sharing > 1, let size = window.regularFileSize, size >= options.minimumSharedBytes, isShareable(window, name: item.name) else {
                return scan(window, name: item.name, rules: rules, matcher: matcher, caches: caches)
            }
            // Where the workers' outcomes do not merge into one scan's, one worker scans it again.
            return scanShared(item, first: window, size: size, workers: sharing, rules: rules, matcher: matcher, caches: caches)
                ?? scan(item, rules: rules, matcher: matcher, caches: caches, sharing: 1)
        }
    }

    /// Whether several workers can share the input: NDJSON (or JSON that may turn out to be
    /// NDJSON) and HAR, as they stand in the file (not gzip, not JSONP).
    private func isShareable(_ window: ByteWindow, name: String) -> Bool {
        guard case .success(.format(let format)) = FormatDetector.detect(window, name: name) else { return false }
        switch options.inputFormat {
        case .auto: return format == .json || format == .ndjson || format == .har
        case .ndjson, .har: return true
        default: return false
        }
    }

    /// Scans one input with `workers` workers, each reading all of it and visiting its share
    /// (`ScanShare`); their outcomes merged as one scan's (`SharedOutcomes`), or nil when they
    /// cannot be (an input error, a pairing or a listing that depends on the order of the
    /// shares).
    private func scanShared(_ item: InputItem, first: ByteWindow, size: Int, workers: Int, rules: RulePack,
                            matcher: RegexMatcher, caches: WorkerCaches) -> ArtifactOutcome? {
        let shares = ScanShare.shares(workers: workers, size: size)
        let outcomes = SharedOutcomes(count: workers)
        // Worker 0's alone: the window already opened, and the matcher and caches of this thread.
        nonisolated(unsafe) let (first, matcher, caches) = (first, matcher, caches)
        WorkerThreads.run(count: workers) { worker in
            let window: ByteWindow
            if worker == 0 {
                window = first
            } else {
                guard case .success(let opened) = InputLoader.open(item) else { return }
                window = opened
            }
            // A pack and a matcher each, as `--jobs` gives the workers of a directory: two
            // workers on one pack contend for its reference counts. Six interleaved runs on
            // 100 MB with two workers: HAR 2.80 s with a copy against 3.05 s shared, NDJSON
            // 2.22 s against 2.41 s (medians). Making the copy (from the pack's rules) costs
            // about what scanning 0.3 MB does.
            let rules = worker == 0 ? rules : rules.independentCopy()
            outcomes.store(scan(window, name: item.name, rules: rules, matcher: worker == 0 ? matcher : RegexMatcher(),
                                caches: worker == 0 ? caches : nil, share: shares[worker]),
                           at: worker)
        }
        return outcomes.merged()
    }

    /// Scans one input held in memory.
    public func scan(bytes: UnsafeRawBufferPointer, name: String, matcher: RegexMatcher = RegexMatcher())
        -> ArtifactOutcome {
        scan(ByteWindow(whole: bytes), name: name, rules: rules, matcher: matcher)
    }

    /// Scans the input a window reads: detects its format (undoing its compression first), then reads it
    /// with the reader for that format, or walks it when it is an archive. `caches`: the worker's,
    /// kept from input to input (new ones when nil). `archiveDepth`: how many archives hold the
    /// input.
    func scan(_ window: ByteWindow, name: String, rules: RulePack, matcher: RegexMatcher, caches: WorkerCaches? = nil,
              share: ScanShare? = nil, archiveDepth: Int = 0) -> ArtifactOutcome {
        // Every finding holds the name: the workers after the first of a shared input each
        // hold a copy of their own.
        let name = (share?.worker ?? 0) > 0 ? String(unsharedCopyOf: name) : name
        // A chunk read as it is reached, so that one another worker holds can be passed unread.
        if let share { window.alignReads(to: share.chunkSize) }
        let caches = caches ?? WorkerCaches(rules: rules)
        var scan = ArtifactScan(artifact: name, window: window, rules: rules, matcher: matcher, caches: caches, options: options, share: share)
        // The spare layer visitors hold the scan (`ArtifactScan.takeLayerVisitor`).
        defer { scan.dropLayerVisitors() }
        var detected = FormatDetector.detect(window, name: name)
        // The compression undone first, the layer the root path enters: `har+gzip` in the report.
        var compression: String?
        if case .success(.compressed(let coding)) = detected {
            window.decompress(coding)
            scan.rootPath = scan.rootPath.entering(coding.layerName)
            compression = coding.layerName
            detected = FormatDetector.detect(window, name: name)
        }
        if case .success(.archive(let format)) = detected, options.inputFormat == .auto {
            return scanArchive(format, window: window, name: name, compression: compression, rules: rules, matcher: matcher,
                               caches: caches, depth: archiveDepth + 1)
        }
        // UTF-16 is how the text is written, not a layer: paths stay as they are.
        var textEncoding: UTF16Text.ByteOrder?
        if case .success(.utf16(let order, let markLength)) = detected {
            window.transcode(order, markLength: markLength)
            textEncoding = order
            detected = FormatDetector.detect(window, name: name)
        }
        var format: InputFormat?
        var start = window.start
        var jsonp = false
        var skipped: String?
        switch (options.inputFormat, detected) {
        case (.auto, .success(.format(let found))): format = found
        case (.auto, .success(.jsonp(let found, let valueStart))), (.json, .success(.jsonp(let found, let valueStart))),
             (.har, .success(.jsonp(let found, let valueStart))):
            (format, start, jsonp) = (options.inputFormat == .auto ? found : options.inputFormat, valueStart, true)
        case (.auto, .success(.skipped(let reason))): skipped = reason
        case (.auto, .success(.compressed(let inner))):
            scan.fail(.format, at: 0, "\(inner.layerName) data inside \(textEncoding == nil ? "compressed data" : "UTF-16 text") is not supported")
        case (.auto, .success(.utf16)):
            scan.fail(.format, at: 0, "UTF-16 text inside UTF-16 text is not supported")
        case (.auto, .failure(let error)): if window.failure == nil { scan.fail(.format, at: error.offset, error.reason) }
        default: format = options.inputFormat
        }
        // JSONC is read from a copy whose comments and trailing commas are blanked.
        var copy: UnsafeMutableRawBufferPointer?
        defer { copy?.deallocate() }
        if format == .jsonc {
            if let blanked = JSONCBlanking.blankedCopy(of: window) {
                copy = blanked
                let path = scan.rootPath
                scan = ArtifactScan(artifact: name, window: ByteWindow(whole: UnsafeRawBufferPointer(blanked)), rules: rules, matcher: matcher,
                                    caches: caches, options: options)
                scan.rootPath = path
            } else {
                if window.failure == nil { scan.fail(.limit, at: nil, "a JSONC input larger than \(JSONCBlanking.maxBytes >> 20) MiB is not read") }
                format = nil
            }
        }
        var formatRead = format
        switch format {
        case .auto?, .json?, .ndjson?, .jsonc?:
            let read = JSONInputScanner(scan: scan, format: format == .jsonc || jsonp ? .json : options.inputFormat == .auto ? .auto : format!,
                                        start: start, defaultContext: .payload, closesJSONP: jsonp).run()
            formatRead = format == .jsonc ? .jsonc : read
        case .har?: CaptureInputScanner.scanHAR(scan, start: start, closesJSONP: jsonp)
        case .http?: CaptureInputScanner.scanHTTP(scan, start: start)
        case .mitmproxy?: CaptureInputScanner.scanMitmproxy(scan, start: start)
        case .prefsXML?: PrefsInputScanner.scan(scan, start: start)
        case .datastore?: DataStoreInputScanner.scan(scan, start: start)
        case .xml?: XMLInputScanner.scan(scan, start: start)
        case .text?: TextInputScanner.scan(scan, start: start, name: name)
        case nil: break
        }
        // Read to the end: the byte count is the input's size, and a writer on stdin is not cut off.
        window.unpin()
        while window.extend(keeping: window.end) {}
        if let failure = window.failure, !scan.errors.contains(where: { $0.kind == .read }) {
            scan.fail(.read, at: nil, failure)
        }
        // `har+gzip`, `json+utf16le`, `har+utf16le+gzip` (`InputFormat.reportName`).
        let formatName = formatRead.map { InputFormat.reportName($0.rawValue, encoding: textEncoding?.name, compression: compression) }
        let summary = ArtifactSummary(name: name, format: formatName, byteCount: window.end, skipped: skipped)
        guard share != nil else {
            return ArtifactOutcome(findings: Scanner.finalize(scan.takeFindings()), errors: scan.errors, summary: summary,
                                   sightings: scan.inventorySightings)
        }
        // A worker's share is finalized here, beside the others, and handed to the merge
        // (`SharedOutcomes.merged`) last first. The paths of a HAR entry's findings name the
        // entry, so that their fingerprints stand; those of an NDJSON line's do not, and the
        // merge counts them all again.
        var finalized = formatRead == .har ? FinalizedFindings(scan.takeFindings(), digestingIdentities: true) : FinalizedFindings(sortedOnly: scan.takeFindings())
        finalized.putLastFirst()
        return ArtifactOutcome(findings: finalized.findings, errors: scan.errors, summary: summary, sightings: scan.inventorySightings,
                               shared: ShareFacts(unpairedChallenges: scan.unpairedChallenges, pkce: scan.pkce, unlistedKeys: scan.unlistedKeys,
                                                  fingerprintIdentities: finalized.identities))
    }
}

/// Hands out inputs to worker threads and collects their outcomes by input index.
private final class WorkQueue: @unchecked Sendable {
    typealias Outcome = ArtifactOutcome
    private let lock = NSLock()
    private let items: [InputItem]
    private var next = 0
    private var results: [Outcome?]
    private let progress: (@Sendable (Int, Int) -> Void)?
    private var filesDone = 0
    private var bytesDone = 0

    init(items: [InputItem], progress: (@Sendable (Int, Int) -> Void)?) {
        self.items = items
        self.progress = progress
        results = Array(repeating: nil, count: items.count)
    }

    func take() -> (Int, InputItem)? {
        lock.lock()
        defer { lock.unlock() }
        guard next < items.count else { return nil }
        next += 1
        return (next - 1, items[next - 1])
    }

    func store(_ outcome: Outcome, at index: Int) {
        lock.lock()
        results[index] = outcome
        filesDone += 1
        bytesDone += outcome.summary.byteCount
        let (files, bytes) = (filesDone, bytesDone)
        lock.unlock()
        progress?(files, bytes)
    }

    /// The outcomes in input order; call after every worker has finished.
    var outcomes: [Outcome] { results.map { $0! } }
}
