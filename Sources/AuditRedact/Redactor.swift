import AuditCore
import AuditDetection
import AuditInputs
import AuditScan

/// What a redaction wrote.
public struct RedactionResult: Sendable {
    /// The redacted copy (compressed and in UTF-16 when the input was); the input's own bytes
    /// when nothing needed redacting.
    public var output: [UInt8]
    /// The input format read (`har`, `json`, `ndjson`, `prefs-xml`, `http`, `datastore`), with
    /// `+utf16le` or `+utf16be` for UTF-16 text, and `+gzip` (or another coding) for a
    /// compressed input.
    public var format: String
    /// Values replaced, by rule id.
    public var replacements: [String: Int]
    /// Redaction rounds it took (0 when there was nothing to redact; a second round redacts what
    /// the first uncovered).
    public var rounds: Int
    /// Findings the copy still has: the contract's policy verdicts (a sensitive-looking name in
    /// sync data, a device-local store), which carry no credential and are not redacted.
    public var policyFindings: Int

    public var replacementCount: Int { replacements.values.reduce(0, +) }
}

/// Writes a copy of an input with every `secret` and `transport` value replaced by a typed
/// placeholder (`[REDACTED:github-token]`), in the input's own format.
///
/// The scanner decides what is secret; its findings become a `RedactionPlan`; a redactor for
/// the format walks the input as the scanner does and rewrites only the planned values (inner
/// layers decoded, redacted and encoded again). The copy is then scanned again: it must read in
/// the same format and report no secret or transport finding, else another round redacts what
/// the previous one uncovered (a secret reported once for two layers), up to `maxRounds`. A
/// copy that still holds a secret, or no longer parses, is never returned.
public struct Redactor: Sendable {
    public let rules: RulePack
    public let options: ScanOptions
    public static let maxRounds = 4

    public init(rules: RulePack, options: ScanOptions = ScanOptions()) {
        self.rules = rules
        self.options = options
    }

    public func redact(_ input: [UInt8], name: String) throws(RedactError) -> RedactionResult {
        let compression = input.withUnsafeBytes(FormatDetector.compression)
        var content = input
        if let compression {
            // The scan's own limit for a compressed input: 200 times its size (4 KiB at least).
            let limit = DecompressingSource.defaultMaxRatio * max(input.count, 4096)
            switch input.withUnsafeBytes({ compression.decode($0, maxOutput: limit, maxRatio: Int.max / (input.count + 1)) }) {
            case .success(let decompressed): content = decompressed
            case .failure(let error): throw .input([InputError(kind: .parse, artifact: name, reason: error.message(coding: compression.layerName))])
            }
        }
        if let archive = content.withUnsafeBytes(ArchiveFormat.of) {
            throw .input([InputError(kind: .format, artifact: name,
                                     reason: "redact does not rewrite \(archive.rawValue) archives; extract it and redact its members")])
        }
        // UTF-16 text is redacted as UTF-8 and written back as it came, mark and all.
        let encoding = content.withUnsafeBytes(UTF16Text.byteOrder)
        if let encoding {
            switch content.withUnsafeBytes({ UTF16Text.decode($0, order: encoding.order, markLength: encoding.markLength) }) {
            case .success(let text): content = text
            case .failure(let failure): throw .input([InputError(kind: .read, artifact: name, reason: failure.message)])
            }
        }
        let first = scan(content, name: name)
        guard first.errors.isEmpty else { throw .input(first.errors) }
        guard let formatName = first.summary.format, let format = InputFormat(rawValue: formatName) else {
            throw .input([InputError(kind: .format, artifact: name, reason: first.summary.skipped.map { "not scanned: \($0)" } ?? "the input format cannot be determined")])
        }
        if format == .mitmproxy {
            throw .input([InputError(kind: .format, artifact: name,
                                     reason: "redact does not rewrite mitmproxy flow files; export the flows as HAR (mitmdump -nr FLOWS --set hardump=FILE.har) and redact that")])
        }
        if [.jsonc, .text].contains(format) {
            throw .input([InputError(kind: .format, artifact: name,
                                     reason: "redact writes copies of JSON, NDJSON, HAR, XML, prefs XML, DataStore and HTTP inputs, not of \(formatName)")])
        }
        var current = content
        var remaining = first.findings.filter(Redactor.carriesSecret)
        var kept = first.findings.count - remaining.count
        var replacements: [String: Int] = [:]
        var problems: [String] = []
        var rounds = 0
        while !remaining.isEmpty && rounds < Redactor.maxRounds {
            rounds += 1
            let session = RedactionSession(rules: rules, plan: RedactionPlan(), maxDepth: options.maxDepth)
            do {
                current = try apply(remaining, to: current, format: format, session: session) ?? current
            } catch {
                throw .broken(artifact: name, errors: [], reason: "the input could not be read again for redaction (\(error))")
            }
            for (rule, count) in session.replacements { replacements[rule, default: 0] += count }
            problems = session.problems
            let check = scan(current, name: name)
            guard check.errors.isEmpty else {
                throw .broken(artifact: name, errors: check.errors, reason: "the redacted copy no longer reads as \(formatName)")
            }
            guard check.summary.format == formatName else {
                throw .broken(artifact: name, errors: [], reason: "the redacted copy reads as \(check.summary.format ?? "nothing") instead of \(formatName)")
            }
            remaining = check.findings.filter(Redactor.carriesSecret)
            kept = check.findings.count - remaining.count
        }
        guard remaining.isEmpty else { throw .incomplete(artifact: name, remaining: remaining, problems: problems) }
        var output = input
        if current != content {
            if let encoding { current = UTF16Text.encode(current, order: encoding.order, marked: encoding.markLength > 0) }
            if let compression {
                guard let recompressed = Recompression.compress(current, as: compression, like: input) else {
                    throw .broken(artifact: name, errors: [], reason: "the redacted copy could not be compressed")
                }
                output = recompressed
            } else {
                output = current
            }
        }
        return RedactionResult(output: output,
                               format: InputFormat.reportName(formatName, encoding: encoding?.order.name, compression: compression?.layerName),
                               replacements: replacements, rounds: rounds, policyFindings: kept)
    }

    /// The findings a redacted copy may not keep: credentials, whatever their context.
    static func carriesSecret(_ finding: Finding) -> Bool {
        finding.family == .secret || finding.family == .transport
    }


    private func scan(_ bytes: [UInt8], name: String) -> ArtifactOutcome {
        let scanner = Scanner(rules: rules, options: options)
        return bytes.withUnsafeBytes { scanner.scan(bytes: $0, name: name) }
    }

    /// One round: the findings' plan applied by the format's redactor; nil when nothing changed.
    private func apply(_ findings: [Finding], to content: [UInt8], format: InputFormat, session: RedactionSession) throws -> [UInt8]? {
        let root = LayeredPath()
        switch format {
        case .ndjson:
            return try redactNDJSON(content, findings: findings, session: session)
        case .json, .har, .auto:
            session.plan = RedactionPlan(findings: findings, rules: rules)
            return try JSONTextRedactor.redact(content, root: root, session: session, maxDepth: options.maxDepth)
        case .prefsXML:
            session.plan = RedactionPlan(findings: findings, rules: rules)
            return try PrefsXMLRedactor.redact(content, root: root, session: session)
        case .http:
            session.plan = RedactionPlan(findings: findings, rules: rules)
            return try HTTPMessageRedactor.redact(content, root: root, session: session)
        case .datastore:
            session.plan = RedactionPlan(findings: findings, rules: rules)
            return try DataStoreRedactor.redact(content, root: root, session: session)
        case .xml:
            session.plan = RedactionPlan(findings: findings, rules: rules)
            return try XMLDocumentRedactor.redact(content, root: root, session: session)
        case .jsonc, .text, .mitmproxy:
            // Refused before any round (`redact`).
            return nil
        }
    }

    /// NDJSON: one document per line, each with the plan of the findings on its line (paths
    /// start again at every line).
    private func redactNDJSON(_ content: [UInt8], findings: [Finding], session: RedactionSession) throws -> [UInt8]? {
        let byLine = Dictionary(grouping: findings) { $0.position.line }
        var edits = ByteEdits()
        try content.withUnsafeBytes { buffer in
            let window = ByteWindow(whole: buffer)
            var lineStart = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            while lineStart < buffer.count {
                let lineEnd = buffer[lineStart...].firstIndex(of: 0x0A) ?? buffer.count
                defer { lineStart = lineEnd + 1 }
                guard let lineFindings = byLine[window.position(of: lineStart).line] else { continue }
                let line = UnsafeRawBufferPointer(rebasing: buffer[lineStart..<lineEnd])
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                session.plan = RedactionPlan(findings: lineFindings, rules: rules)
                if let redacted = try JSONTextRedactor.redact(line, root: LayeredPath(), session: session, maxDepth: options.maxDepth) {
                    edits.replace(lineStart..<lineEnd, with: redacted)
                }
            }
        }
        return edits.isEmpty ? nil : edits.applied(to: content)
    }
}
