import AuditCore
import AuditDetection

/// The JSON report: a summary, findings, input errors and the inputs scanned. Its schema is
/// `docs/report.schema.json`; `docs/report-format.md` explains each field.
public enum JSONReport {
    public static let formatVersion = 1

    public static func render(_ input: ReportInput) -> String {
        // Room for all of it at once: about 600 bytes a finding.
        JSONStreamWriter.rendered(reserving: input.result.findings.count * 600) { writer, flush in write(input, into: &writer, flush: flush) }
    }

    /// Writes the report to `sink` as it is made, about `chunk` bytes at a time, so that a report
    /// of millions of findings is never held whole; false when the sink fails (it is not called
    /// again).
    /// Its findings may be written on up to `writers` threads.
    public static func write(_ input: ReportInput, chunk: Int = 1 << 20, writers: Int = 1, to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        JSONStreamWriter.stream(chunk: chunk, writers: writers, to: sink) { writer, flush in write(input, into: &writer, flush: flush) }
    }

    /// Writes the report into `writer`, offering it to `flush` after each finding; false when
    /// `flush` fails.
    private static func write(_ input: ReportInput, into writer: inout JSONStreamWriter, flush: JSONStreamWriter.Flush) -> Bool {
        let result = input.result
        writer.open("{")
        writer.key("reportFormat")
        writer.int(formatVersion)
        writer.key("tool")
        writer.value(.object([("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))]))
        writer.key("summary")
        writer.value(summary(input))
        writer.key("findings")
        writer.open("[")
        // Read in place: a finding copied out of the array (as even a borrowed element was,
        // before each write) took some 620 instructions of retains and releases.
        let written = result.findings.withUnsafeBufferPointer { findings in
            writer.elements(findings.count, flush: flush) { i, writer in write(findings.baseAddress! + i, to: &writer) }
        }
        guard written else { return false }
        writer.close("]")
        writer.key("errors")
        writer.value(.array(result.errors.map(error)))
        writer.key("artifacts")
        writer.value(.array(result.artifacts.map { a in
            .object([("name", .string(a.name)), ("format", a.format.map(JSONOutput.string) ?? .null), ("bytes", .int(a.byteCount))]
                    + (a.skipped.map { [("skipped", JSONOutput.string($0))] } ?? []))
        }))
        writer.key("inventory")
        writer.value(.array(result.inventory.map(inventoryEntry)))
        writer.key("absent")
        writer.value(.array(result.absent.map { e in
            .object([("ruleId", .string(e.ruleId)), ("artifact", .string(e.artifact)), ("line", .int(e.line)),
                     ("path", .string(e.path)), ("fingerprint", .string(e.fingerprint))])
        }))
        writer.key("notices")
        writer.value(.array(result.notices.map(JSONOutput.string)))
        writer.close("}")
        return true
    }

    /// One line of the inventory section (shared with SARIF's run properties).
    static func inventoryEntry(_ e: InventoryEntry) -> JSONOutput {
        .object([
            ("store", e.storeId.map(JSONOutput.string) ?? .null),
            ("name", .string(e.name)),
            ("classes", .array(e.classes.map { .string($0.rawValue) })),
            ("contexts", .array(e.contexts.map { .string($0.rawValue) })),
            ("verdict", .string(e.verdict.rawValue)),
            ("artifacts", .array(e.artifacts.map(JSONOutput.string))),
            ("notes", .array(e.notes.map(JSONOutput.string))),
        ])
    }

    static func summary(_ input: ReportInput) -> JSONOutput {
        let findings = input.result.findings
        let tally = FindingTally(findings)
        func counts<T: RawRepresentable>(_ cases: [T], _ numbers: [Int], reversed: Bool = false) -> JSONOutput where T.RawValue == String {
            let pairs = zip(cases, numbers).map { c, n in (c.rawValue, JSONOutput.int(n)) }
            return .object(reversed ? pairs.reversed() : pairs)
        }
        return .object([
            ("findings", .int(findings.count)),
            ("active", .int(tally.active)),
            ("suppressed", .int(findings.count - tally.active)),
            ("byLevel", counts(FindingTally.levels, tally.byLevel, reversed: true)),
            ("byFamily", counts(FindingTally.families, tally.byFamily)),
            ("byContext", counts(FindingTally.contexts, tally.byContext)),
            ("errors", .int(input.result.errors.count)),
            ("artifacts", .int(input.result.artifacts.count)),
            ("failOn", .string(input.failOn.description)),
            ("exitCode", .int(Int(input.exitCode))),
        ])
    }

    /// One finding, read where it lies.
    static func write(_ finding: UnsafePointer<Finding>, to writer: inout JSONStreamWriter) {
        writer.open("{")
        writer.key("ruleId"); writer.string(finding.pointee.ruleId)
        writer.key("level"); writer.rawValue(finding.pointee.level)
        writer.key("family"); writer.rawValue(finding.pointee.family)
        writer.key("message"); writer.string(finding.pointee.message)
        writer.key("key"); writer.string(finding.pointee.key)
        writer.key("context"); writer.rawValue(finding.pointee.context)
        writer.key("inventoryClass"); writer.string(finding.pointee.inventoryClass)
        writer.key("artifact"); writer.string(finding.pointee.artifact)
        writer.key("line"); writer.int(finding.pointee.position.line)
        writer.key("column"); writer.int(finding.pointee.position.column)
        writer.key("byteOffset"); writer.int(finding.pointee.position.byteOffset)
        writer.key("path"); writer.string(finding.pointee.pathText)
        writer.key("confidence"); writer.rawValue(finding.pointee.confidence)
        writer.key("preview"); writer.string(finding.pointee.preview)
        writer.key("fingerprint"); writer.string(finding.pointee.fingerprint)
        writer.key("baselineState"); writer.rawValue(finding.pointee.baselineState)
        writer.key("suppression")
        if let suppression = finding.pointee.suppression {
            writer.value(.object([("source", .string(suppression.source.rawValue)), ("justification", .string(suppression.justification))]))
        } else {
            writer.null()
        }
        if !finding.pointee.relatedLocations.isEmpty {
            // The other places of the same secret in the same request.
            writer.key("relatedLocations")
            writer.value(.array(finding.pointee.relatedLocations.map { related in
                .object([("line", .int(related.position.line)), ("column", .int(related.position.column)),
                         ("byteOffset", .int(related.position.byteOffset)), ("path", .string(related.pathText))])
            }))
        }
        writer.close("}")
    }

    static func error(_ e: InputError) -> JSONOutput {
        .object([
            ("kind", .string(e.kind.rawValue)),
            ("artifact", .string(e.artifact)),
            ("line", e.position.map { .int($0.line) } ?? .null),
            ("column", e.position.map { .int($0.column) } ?? .null),
            ("byteOffset", e.position.map { .int($0.byteOffset) } ?? .null),
            ("reason", .string(e.reason)),
            ("message", .string(e.description)),
        ])
    }
}
