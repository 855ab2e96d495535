import AuditCore
import AuditRules
import AuditScan

/// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers: one run, a rule entry per
/// loaded rule, one result per finding with a physical location (line and column) and the
/// layered path as a logical location. Input errors become tool execution notifications.
///
/// Written member by member (`JSONStreamWriter`), as the JSON report is: built as a tree, written
/// and decoded back into a string, the log took some 66,000 instructions a finding and 27
/// million for the rule catalogue, a third of the scan of a 4 MB HAR.
public enum SARIFReport {
    public static func render(_ input: ReportInput) -> String {
        // Room for all of it at once: some 1,400 bytes a finding, 1,700 a rule.
        JSONStreamWriter.rendered(reserving: input.result.findings.count * 1500 + input.rules.count * 1800) { writer, flush in
            write(input, into: &writer, flush: flush)
        }
    }

    /// Writes the log to `sink` as it is made, about `chunk` bytes at a time, so that a log of
    /// millions of results is never held whole; false when the sink fails.
    /// Its results may be written on up to `writers` threads.
    public static func write(_ input: ReportInput, chunk: Int = 1 << 20, writers: Int = 1, to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        JSONStreamWriter.stream(chunk: chunk, writers: writers, to: sink) { writer, flush in write(input, into: &writer, flush: flush) }
    }

    private static func write(_ input: ReportInput, into writer: inout JSONStreamWriter, flush: JSONStreamWriter.Flush) -> Bool {
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in input.rules.enumerated() { ruleIndex[rule.id] = i }
        let artifacts = SARIFArtifactLocations(artifacts: input.result.artifacts.map(\.name), root: input.sarifRoot)
        writer.open("{")
        writer.key("$schema"); writer.string("https://json.schemastore.org/sarif-2.1.0.json")
        writer.key("version"); writer.string("2.1.0")
        writer.key("runs"); writer.open("[")
        writer.element(); writer.open("{")
        writer.key("tool"); writer.open("{")
        writer.key("driver"); driver(input.rules, into: &writer)
        writer.close("}")
        if let category = input.sarifCategory {
            writer.key("automationDetails"); writer.open("{")
            writer.key("id"); writer.string(category.hasSuffix("/") ? category : category + "/")
            writer.close("}")
        }
        writer.key("invocations"); writer.open("[")
        writer.element(); invocation(input, artifacts: artifacts, into: &writer)
        writer.close("]")
        if let baseIds = artifacts.originalUriBaseIds {
            writer.key("originalUriBaseIds"); writer.value(baseIds)
        }
        writer.key("artifacts"); writer.open("[")
        for summary in input.result.artifacts {
            writer.element(); artifact(summary, artifacts: artifacts, into: &writer)
        }
        writer.close("]")
        writer.key("results"); writer.open("[")
        // Read in place, as the JSON report reads them.
        let written = input.result.findings.withUnsafeBufferPointer { findings in
            guard input.sarifOmitSuppressed else {
                return writer.elements(findings.count, flush: flush) { i, writer in
                    result(findings.baseAddress! + i, ruleIndex: ruleIndex, artifacts: artifacts, into: &writer)
                }
            }
            let active = findings.indices.filter { findings[$0].isActive }
            return writer.elements(active.count, flush: flush) { i, writer in
                result(findings.baseAddress! + active[i], ruleIndex: ruleIndex, artifacts: artifacts, into: &writer)
            }
        }
        guard written else { return false }
        if !input.sarifOmitSuppressed {
            for entry in input.result.absent {
                writer.element(); absentResult(entry, ruleIndex: ruleIndex, artifacts: artifacts, into: &writer)
                guard flush(&writer) else { return false }
            }
        }
        writer.close("]")
        writer.key("columnKind"); writer.string("utf16CodeUnits")
        writer.key("newlineSequences"); writer.open("[")
        for sequence in ["\r\n", "\n", "\r"] { writer.element(); writer.string(sequence) }
        writer.close("]")
        writer.key("properties"); writer.open("{")
        writer.key("inventory"); writer.value(.array(input.result.inventory.map(JSONReport.inventoryEntry)))
        writer.close("}")
        writer.close("}")
        writer.close("]")
        writer.close("}")
        return true
    }

    static func driver(_ rules: [Rule], into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("name"); writer.string(ToolInfo.name)
        writer.key("version"); writer.string(ToolInfo.version)
        writer.key("semanticVersion"); writer.string(ToolInfo.version)
        writer.key("informationUri"); writer.string(ToolInfo.informationURI)
        writer.key("rules"); writer.open("[")
        for rule in rules { writer.element(); descriptor(rule, into: &writer) }
        writer.close("]")
        writer.close("}")
    }

    static func descriptor(_ rule: Rule, into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("id"); writer.string(rule.id)
        writer.key("name"); writer.string(pascalCase(rule.id))
        writer.key("shortDescription"); text(rule.title, into: &writer)
        writer.key("fullDescription"); text(rule.description, into: &writer)
        writer.key("help"); writer.open("{")
        writer.key("text"); writer.string(rule.help)
        writer.key("markdown"); writer.string("**\(rule.title)**\n\n\(rule.description)\n\n\(rule.help)")
        writer.close("}")
        writer.key("defaultConfiguration"); writer.open("{")
        writer.key("level"); writer.rawValue(rule.level)
        writer.close("}")
        writer.key("properties"); writer.open("{")
        writer.key("tags"); writer.open("[")
        for tag in rule.tags { writer.element(); writer.string(tag) }
        writer.close("]")
        writer.key("security-severity"); writer.string(formatSeverity(rule.securitySeverity))
        writer.key("precision"); writer.string(rule.kind == .pattern ? "high" : "medium")
        writer.key("family"); writer.rawValue(rule.family)
        writer.key("kind"); writer.string(rule.kind.rawValue)
        writer.close("}")
        writer.close("}")
    }

    /// One finding's result, read where it lies.
    static func result(_ finding: UnsafePointer<Finding>, ruleIndex: [String: Int], artifacts: SARIFArtifactLocations,
                       into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("ruleId"); writer.string(finding.pointee.ruleId)
        if let index = ruleIndex[finding.pointee.ruleId] { writer.key("ruleIndex"); writer.int(index) }
        writer.key("level"); writer.rawValue(finding.pointee.level)
        writer.key("message"); text(finding.pointee.message, into: &writer)
        writer.key("locations"); writer.open("[")
        writer.element(); writer.open("{")
        writer.key("physicalLocation"); physicalLocation(finding.pointee.artifact, finding.pointee.position, artifacts: artifacts, into: &writer)
        logicalLocations(finding.pointee.pathText, name: finding.pointee.path.lastName, into: &writer)
        writer.close("}")
        writer.close("]")
        if !finding.pointee.relatedLocations.isEmpty {
            // The other places of the finding's secret in the same request.
            writer.key("relatedLocations"); writer.open("[")
            for (index, related) in finding.pointee.relatedLocations.enumerated() {
                writer.element(); writer.open("{")
                writer.key("id"); writer.int(index + 1)
                writer.key("physicalLocation"); physicalLocation(finding.pointee.artifact, related.position, artifacts: artifacts, into: &writer)
                logicalLocations(related.pathText, into: &writer)
                writer.key("message"); text("The same secret, again in this request.", into: &writer)
                writer.close("}")
            }
            writer.close("]")
        }
        fingerprints(finding.pointee.fingerprint, into: &writer)
        if let state = finding.pointee.baselineState { writer.key("baselineState"); writer.rawValue(state) }
        if let suppression = finding.pointee.suppression {
            writer.key("suppressions"); writer.open("[")
            writer.element(); writer.open("{")
            writer.key("kind"); writer.string("external")
            writer.key("status"); writer.string("accepted")
            writer.key("justification"); writer.string(suppression.justification)
            writer.key("properties"); writer.open("{")
            writer.key("source"); writer.string(suppression.source.rawValue)
            writer.close("}")
            writer.close("}")
            writer.close("]")
        }
        writer.key("properties"); writer.open("{")
        writer.key("family"); writer.rawValue(finding.pointee.family)
        writer.key("key"); writer.string(finding.pointee.key)
        writer.key("context"); writer.rawValue(finding.pointee.context)
        writer.key("inventoryClass"); writer.string(finding.pointee.inventoryClass)
        writer.key("confidence"); writer.rawValue(finding.pointee.confidence)
        writer.key("preview"); writer.string(finding.pointee.preview)
        writer.close("}")
        writer.close("}")
    }

    /// A baseline finding no longer found: `baselineState` absent, kind `pass` (not an alert).
    static func absentResult(_ entry: BaselineEntry, ruleIndex: [String: Int], artifacts: SARIFArtifactLocations,
                             into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("ruleId"); writer.string(entry.ruleId)
        if let index = ruleIndex[entry.ruleId] { writer.key("ruleIndex"); writer.int(index) }
        writer.key("kind"); writer.string("pass")
        writer.key("level"); writer.string("none")
        writer.key("message"); text("No longer found: accepted in the baseline at line \(entry.line), gone now.", into: &writer)
        writer.key("locations"); writer.open("[")
        writer.element(); writer.open("{")
        writer.key("physicalLocation"); writer.open("{")
        writer.key("artifactLocation"); artifacts.write(entry.artifact, indexed: false, into: &writer)
        writer.close("}")
        logicalLocations(entry.path, into: &writer)
        writer.close("}")
        writer.close("]")
        fingerprints(entry.fingerprint, into: &writer)
        writer.key("baselineState"); writer.rawValue(BaselineState.absent)
        writer.close("}")
    }

    /// `logicalLocations`: the value at `path` (`/` for the whole input), with its `name` when
    /// it has one.
    private static func logicalLocations(_ path: String, name: String? = nil, into writer: inout JSONStreamWriter) {
        writer.key("logicalLocations"); writer.open("[")
        writer.element(); writer.open("{")
        if let name { writer.key("name"); writer.string(name) }
        writer.key("fullyQualifiedName"); writer.string(path.isEmpty ? "/" : path)
        writer.key("kind"); writer.string("value")
        writer.close("}")
        writer.close("]")
    }

    /// `partialFingerprints`: the finding's fingerprint under GitHub's key and under ours.
    private static func fingerprints(_ fingerprint: String, into writer: inout JSONStreamWriter) {
        writer.key("partialFingerprints"); writer.open("{")
        writer.key("primaryLocationLineHash"); writer.string(fingerprint)
        writer.key("habiterAuditFingerprint/v1"); writer.string(fingerprint)
        writer.close("}")
    }

    /// A SARIF message or description: `{"text": …}`.
    private static func text(_ text: String, into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("text"); writer.string(text)
        writer.close("}")
    }

    static func physicalLocation(_ artifact: String, _ position: SourcePosition, artifacts: SARIFArtifactLocations,
                                 into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("artifactLocation"); artifacts.write(artifact, into: &writer)
        writer.key("region"); writer.open("{")
        writer.key("startLine"); writer.int(position.line)
        writer.key("startColumn"); writer.int(position.column)
        writer.key("byteOffset"); writer.int(position.byteOffset)
        writer.close("}")
        writer.close("}")
    }

    static func invocation(_ input: ReportInput, artifacts: SARIFArtifactLocations, into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("executionSuccessful"); writer.bool(input.result.errors.isEmpty)
        writer.key("exitCode"); writer.int(Int(input.exitCode))
        if !input.result.errors.isEmpty || !input.result.notices.isEmpty {
            writer.key("toolExecutionNotifications"); writer.open("[")
            for error in input.result.errors {
                writer.element(); writer.open("{")
                writer.key("level"); writer.string("error")
                writer.key("message"); text(error.description, into: &writer)
                writer.key("locations"); writer.open("[")
                writer.element(); writer.open("{")
                writer.key("physicalLocation")
                physicalLocation(error.artifact, error.position ?? SourcePosition(line: 1, column: 1, byteOffset: 0), artifacts: artifacts, into: &writer)
                writer.close("}")
                writer.close("]")
                writer.key("descriptor"); writer.open("{")
                writer.key("id"); writer.string("input.\(error.kind.rawValue)")
                writer.close("}")
                writer.close("}")
            }
            for notice in input.result.notices {
                writer.element(); writer.open("{")
                writer.key("level"); writer.string("warning")
                writer.key("message"); text(notice, into: &writer)
                writer.close("}")
            }
            writer.close("]")
        }
        writer.close("}")
    }

    static func artifact(_ summary: ArtifactSummary, artifacts: SARIFArtifactLocations, into writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("location"); artifacts.write(summary.name, indexed: false, into: &writer)
        writer.key("length"); writer.int(summary.byteCount)
        if let format = summary.format {
            writer.key("properties"); writer.open("{")
            writer.key("format"); writer.string(format)
            writer.close("}")
        }
        writer.close("}")
    }

    /// `secret.github-token` → `SecretGithubToken`. An ASCII id (every built-in one) is read as
    /// bytes: read as characters, the catalogue's 333 ids took some 5 million instructions,
    /// in every SARIF log.
    static func pascalCase(_ id: String) -> String {
        guard id.utf8.allSatisfy({ $0 < 0x80 }) else { return pascalCaseByCharacters(id) }
        var out: [UInt8] = []
        out.reserveCapacity(id.utf8.count)
        var wordStart = true
        for byte in id.utf8 {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") {
                wordStart = true
            } else {
                out.append(wordStart && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte)
                wordStart = false
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `pascalCase` for any id: each word's first character uppercased as Swift does it.
    static func pascalCaseByCharacters(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "." || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    package static func formatSeverity(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
