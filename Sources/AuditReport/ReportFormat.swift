import AuditCore
import AuditRules
import AuditScan

/// The report formats `--format` accepts.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, sarif
    /// GitHub Actions workflow commands (inline annotations on a pull request).
    case github
    /// One self-contained HTML page (inline CSS, no script, nothing fetched).
    case html
}

/// Everything a report writer needs.
public struct ReportInput: Sendable {
    public var result: ScanResult
    public var rules: [Rule]
    /// The exit status the scan ends with, recorded in the report.
    public var exitCode: Int32
    public var failOn: GatePolicy
    /// SARIF: leave out accepted and absent results (GitHub shows suppressed results as open
    /// alerts).
    public var sarifOmitSuppressed = false
    /// SARIF: the run's `automationDetails.id` category, for merging and for code scanning.
    public var sarifCategory: String?
    /// SARIF: artifact URIs relative to this root (`--root`); else relative paths as given and
    /// absolute ones as `file://` URIs.
    public var sarifRoot: SARIFRoot?

    public init(result: ScanResult, rules: [Rule], exitCode: Int32, failOn: GatePolicy) {
        self.result = result
        self.rules = rules
        self.exitCode = exitCode
        self.failOn = failOn
    }
}

/// `--fail-on`: the lowest level that fails the gate, or never.
public enum FailThreshold: String, Sendable, CaseIterable {
    case error, warning, note, never

    /// Whether a finding at `level` fails the gate.
    public func fails(_ level: Level) -> Bool {
        switch self {
        case .never: return false
        case .error: return level >= .error
        case .warning: return level >= .warning
        case .note: return true
        }
    }
}

/// Identity of the tool in reports.
public enum ToolInfo {
    public static let name = "habiter-audit"
    public static let version = "0.1.0"
    public static let informationURI = "https://github.com/habiter/habiter-audit"
}
