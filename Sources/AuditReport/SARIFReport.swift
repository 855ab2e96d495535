import AuditCore
import AuditRules
import AuditScan

/// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers: one run, a rule entry per
/// loaded rule, one result per finding with a physical location (line and column) and the
/// layered path as a logical location. Input errors become tool execution notifications.
public enum SARIFReport {
    public static func render(_ input: ReportInput) -> String {
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in input.rules.enumerated() { ruleIndex[rule.id] = i }
        var artifactIndex: [String: Int] = [:]
        for (i, artifact) in input.result.artifacts.enumerated() where artifactIndex[artifact.name] == nil {
            artifactIndex[artifact.name] = i
        }
        let artifacts = SARIFArtifactLocations(index: artifactIndex, root: input.sarifRoot)
        let findings = input.sarifOmitSuppressed ? input.result.activeFindings : input.result.findings
        var results = findings.map { result($0, ruleIndex: ruleIndex, artifacts: artifacts) }
        if !input.sarifOmitSuppressed {
            results += input.result.absent.map { absentResult($0, ruleIndex: ruleIndex, artifacts: artifacts) }
        }
        let run = JSONOutput.members([
            ("tool", .object([("driver", driver(input.rules))])),
            ("automationDetails", input.sarifCategory.map { .object([("id", .string($0.hasSuffix("/") ? $0 : $0 + "/"))]) }),
            ("invocations", .array([invocation(input, artifacts: artifacts)])),
            ("originalUriBaseIds", artifacts.originalUriBaseIds),
            ("artifacts", .array(input.result.artifacts.map { artifact($0, artifacts: artifacts) })),
            ("results", .array(results)),
            ("columnKind", .string("utf16CodeUnits")),
            ("newlineSequences", .array([.string("\r\n"), .string("\n"), .string("\r")])),
            ("properties", .object([("inventory", .array(input.result.inventory.map(JSONReport.inventoryEntry)))])),
        ])
        return JSONOutput.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ]).rendered()
    }

    static func driver(_ rules: [Rule]) -> JSONOutput {
        .object([
            ("name", .string(ToolInfo.name)),
            ("version", .string(ToolInfo.version)),
            ("semanticVersion", .string(ToolInfo.version)),
            ("informationUri", .string(ToolInfo.informationURI)),
            ("rules", .array(rules.map(descriptor))),
        ])
    }

    static func descriptor(_ rule: Rule) -> JSONOutput {
        .object([
            ("id", .string(rule.id)),
            ("name", .string(pascalCase(rule.id))),
            ("shortDescription", .object([("text", .string(rule.title))])),
            ("fullDescription", .object([("text", .string(rule.description))])),
            ("help", .object([
                ("text", .string(rule.help)),
                ("markdown", .string("**\(rule.title)**\n\n\(rule.description)\n\n\(rule.help)")),
            ])),
            ("defaultConfiguration", .object([("level", .string(rule.level.rawValue))])),
            ("properties", .object([
                ("tags", .array(rule.tags.map(JSONOutput.string))),
                ("security-severity", .string(formatSeverity(rule.securitySeverity))),
                ("precision", .string(rule.kind == .pattern ? "high" : "medium")),
                ("family", .string(rule.family.rawValue)),
                ("kind", .string(rule.kind.rawValue)),
            ])),
        ])
    }

    static func result(_ finding: Finding, ruleIndex: [String: Int], artifacts: SARIFArtifactLocations) -> JSONOutput {
        let logical = JSONOutput.members([
            ("name", finding.path.lastName.map(JSONOutput.string)),
            ("fullyQualifiedName", .string(finding.pathText.isEmpty ? "/" : finding.pathText)),
            ("kind", .string("value")),
        ])
        return .members([
            ("ruleId", .string(finding.ruleId)),
            ("ruleIndex", ruleIndex[finding.ruleId].map(JSONOutput.int)),
            ("level", .string(finding.level.rawValue)),
            ("message", .object([("text", .string(finding.message))])),
            ("locations", .array([.object([
                ("physicalLocation", physicalLocation(finding.artifact, finding.position, artifacts: artifacts)),
                ("logicalLocations", .array([logical])),
            ])])),
            ("relatedLocations", relatedLocations(finding, artifacts: artifacts)),
            ("partialFingerprints", .object([
                ("primaryLocationLineHash", .string(finding.fingerprint)),
                ("habiterAuditFingerprint/v1", .string(finding.fingerprint)),
            ])),
            ("baselineState", finding.baselineState.map { .string($0.rawValue) }),
            ("suppressions", finding.suppression.map { suppression in
                .array([.object([
                    ("kind", .string("external")),
                    ("status", .string("accepted")),
                    ("justification", .string(suppression.justification)),
                    ("properties", .object([("source", .string(suppression.source.rawValue))])),
                ])])
            }),
            ("properties", .members([
                ("family", .string(finding.family.rawValue)),
                ("key", finding.key.map(JSONOutput.string) ?? .null),
                ("context", .string(finding.context.rawValue)),
                ("inventoryClass", finding.inventoryClass.map(JSONOutput.string) ?? .null),
                ("confidence", .string(finding.confidence.rawValue)),
                ("preview", .string(finding.preview)),
            ])),
        ])
    }

    /// A baseline finding no longer found: `baselineState` absent, kind `pass` (not an alert).
    static func absentResult(_ entry: BaselineEntry, ruleIndex: [String: Int], artifacts: SARIFArtifactLocations) -> JSONOutput {
        .members([
            ("ruleId", .string(entry.ruleId)),
            ("ruleIndex", ruleIndex[entry.ruleId].map(JSONOutput.int)),
            ("kind", .string("pass")),
            ("level", .string("none")),
            ("message", .object([("text", .string("No longer found: accepted in the baseline at line \(entry.line), gone now."))])),
            ("locations", .array([.object([
                ("physicalLocation", .object([("artifactLocation", artifacts.location(entry.artifact, indexed: false))])),
                ("logicalLocations", .array([.object([("fullyQualifiedName", .string(entry.path.isEmpty ? "/" : entry.path)), ("kind", .string("value"))])])),
            ])])),
            ("partialFingerprints", .object([
                ("primaryLocationLineHash", .string(entry.fingerprint)),
                ("habiterAuditFingerprint/v1", .string(entry.fingerprint)),
            ])),
            ("baselineState", .string(BaselineState.absent.rawValue)),
        ])
    }

    /// The other places of the finding's secret in the same request (SARIF `relatedLocations`),
    /// or nil when there are none.
    static func relatedLocations(_ finding: Finding, artifacts: SARIFArtifactLocations) -> JSONOutput? {
        guard !finding.relatedLocations.isEmpty else { return nil }
        return .array(finding.relatedLocations.enumerated().map { index, related in
            .object([
                ("id", .int(index + 1)),
                ("physicalLocation", physicalLocation(finding.artifact, related.position, artifacts: artifacts)),
                ("logicalLocations", .array([.object([
                    ("fullyQualifiedName", .string(related.pathText.isEmpty ? "/" : related.pathText)), ("kind", .string("value")),
                ])])),
                ("message", .object([("text", .string("The same secret, again in this request."))])),
            ])
        })
    }

    static func physicalLocation(_ artifact: String, _ position: SourcePosition, artifacts: SARIFArtifactLocations) -> JSONOutput {
        .object([
            ("artifactLocation", artifacts.location(artifact)),
            ("region", .object([
                ("startLine", .int(position.line)),
                ("startColumn", .int(position.column)),
                ("byteOffset", .int(position.byteOffset)),
            ])),
        ])
    }

    static func invocation(_ input: ReportInput, artifacts: SARIFArtifactLocations) -> JSONOutput {
        var notifications = input.result.errors.map { error -> JSONOutput in
            var location: [JSONOutput] = []
            let position = error.position ?? SourcePosition(line: 1, column: 1, byteOffset: 0)
            location.append(.object([("physicalLocation", physicalLocation(error.artifact, position, artifacts: artifacts))]))
            return .object([
                ("level", .string("error")),
                ("message", .object([("text", .string(error.description))])),
                ("locations", .array(location)),
                ("descriptor", .object([("id", .string("input.\(error.kind.rawValue)"))])),
            ])
        }
        notifications += input.result.notices.map { notice in
            .object([("level", .string("warning")), ("message", .object([("text", .string(notice))]))])
        }
        return .members([
            ("executionSuccessful", .bool(input.result.errors.isEmpty)),
            ("exitCode", .int(Int(input.exitCode))),
            ("toolExecutionNotifications", notifications.isEmpty ? nil : .array(notifications)),
        ])
    }

    static func artifact(_ summary: ArtifactSummary, artifacts: SARIFArtifactLocations) -> JSONOutput {
        .members([
            ("location", artifacts.location(summary.name, indexed: false)),
            ("length", .int(summary.byteCount)),
            ("properties", summary.format.map { .object([("format", .string($0))]) }),
        ])
    }

    /// `secret.github-token` → `SecretGithubToken`.
    static func pascalCase(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "." || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    package static func formatSeverity(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
