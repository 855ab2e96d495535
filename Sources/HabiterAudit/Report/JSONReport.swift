/// The JSON report: a summary, findings, input errors and the inputs scanned. Its schema is
/// `docs/report.schema.json`; `docs/report-format.md` explains each field.
public enum JSONReport {
    public static let formatVersion = 1

    public static func render(_ input: ReportInput) -> String {
        let result = input.result
        return JSONOutput.object([
            ("reportFormat", .int(formatVersion)),
            ("tool", .object([("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))])),
            ("summary", summary(input)),
            ("findings", .array(result.findings.map(finding))),
            ("errors", .array(result.errors.map(error))),
            ("artifacts", .array(result.artifacts.map { a in
                .object([("name", .string(a.name)), ("format", a.format.map(JSONOutput.string) ?? .null), ("bytes", .int(a.byteCount))])
            })),
            ("inventory", .array(result.inventory.map(inventoryEntry))),
            ("absent", .array(result.absent.map { e in
                .object([("ruleId", .string(e.ruleId)), ("artifact", .string(e.artifact)), ("line", .int(e.line)),
                         ("path", .string(e.path)), ("fingerprint", .string(e.fingerprint))])
            })),
            ("notices", .array(result.notices.map(JSONOutput.string))),
        ]).rendered()
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
        func counts<T: RawRepresentable>(_ cases: [T], _ key: (Finding) -> T) -> JSONOutput where T.RawValue == String, T: Hashable {
            var tally: [T: Int] = [:]
            for finding in findings { tally[key(finding), default: 0] += 1 }
            return .object(cases.map { c in (c.rawValue, .int(tally[c] ?? 0)) })
        }
        let active = findings.reduce(0) { $0 + ($1.isActive ? 1 : 0) }
        return .object([
            ("findings", .int(findings.count)),
            ("active", .int(active)),
            ("suppressed", .int(findings.count - active)),
            ("byLevel", counts(Level.allCases.reversed(), \.level)),
            ("byFamily", counts(Family.allCases, \.family)),
            ("byContext", counts(ScanContext.allCases, \.context)),
            ("errors", .int(input.result.errors.count)),
            ("artifacts", .int(input.result.artifacts.count)),
            ("failOn", .string(input.failOn.rawValue)),
            ("exitCode", .int(Int(input.exitCode))),
        ])
    }

    static func finding(_ f: Finding) -> JSONOutput {
        .object([
            ("ruleId", .string(f.ruleId)),
            ("level", .string(f.level.rawValue)),
            ("family", .string(f.family.rawValue)),
            ("message", .string(f.message)),
            ("key", f.key.map(JSONOutput.string) ?? .null),
            ("context", .string(f.context.rawValue)),
            ("inventoryClass", f.inventoryClass.map(JSONOutput.string) ?? .null),
            ("artifact", .string(f.artifact)),
            ("line", .int(f.position.line)),
            ("column", .int(f.position.column)),
            ("byteOffset", .int(f.position.byteOffset)),
            ("path", .string(f.path.description)),
            ("confidence", .string(f.confidence.rawValue)),
            ("preview", .string(f.preview)),
            ("fingerprint", .string(f.fingerprint)),
            ("baselineState", f.baselineState.map { .string($0.rawValue) } ?? .null),
            ("suppression", f.suppression.map { .object([("source", .string($0.source.rawValue)), ("justification", .string($0.justification))]) } ?? .null),
        ])
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
