import AuditCore
import AuditReport
import AuditScan
import Foundation

/// What a gate makes of a scan: the allowlist accepts what it names (unless expired), the
/// baseline accepts what it held (and lists what is gone), and only the remaining findings
/// count toward `--fail-on`.
public enum Triage {
    /// Applies the allowlist, then the baseline (read from `baselineSource`).
    public static func apply(to result: inout ScanResult, allowlist: Allowlist?, baseline: Baseline?, baselineSource: String,
                             today: String, currentDirectory: String) {
        if let allowlist {
            result.notices += allowlist.apply(to: &result.findings, today: today, currentDirectory: currentDirectory)
        }
        if let baseline {
            result.absent = baseline.apply(to: &result.findings, source: baselineSource)
        }
    }

    /// The exit status: 2 when an input could not be scanned, 1 when an active finding is at or
    /// above `failOn`, else 0.
    public static func exitStatus(_ result: ScanResult, failOn: GatePolicy) -> Int32 {
        if !result.errors.isEmpty { return ExitStatus.inputError }
        return result.findings.contains { $0.isActive && failOn.fails($0) } ? ExitStatus.findings : ExitStatus.pass
    }

    /// Today as `YYYY-MM-DD` (UTC), or `HABITER_AUDIT_TODAY` when set (for tests and replays).
    public static func today(_ variables: [String: String]) -> String {
        if let fixed = variables["HABITER_AUDIT_TODAY"], !fixed.isEmpty { return fixed }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
