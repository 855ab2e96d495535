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
        // Each finding read in place, not copied (18,000 in the 100 MB bench HAR).
        let findings = result.findings
        return findings.indices.contains { findings[$0].isActive && failOn.fails(level: findings[$0].level, family: findings[$0].family) } ? ExitStatus.findings : ExitStatus.pass
    }

    /// Today as `YYYY-MM-DD` (UTC), or `HABITER_AUDIT_TODAY` when set (for tests and replays).
    public static func today(_ variables: [String: String]) -> String {
        if let fixed = variables["HABITER_AUDIT_TODAY"], !fixed.isEmpty { return fixed }
        return utcDate(secondsSince1970: Int(Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The UTC date of a moment as `YYYY-MM-DD` (Gregorian, four-digit years), by day arithmetic
    /// (Howard Hinnant's `civil_from_days`): a `DateFormatter` loaded ICU and the time-zone files,
    /// 1.2 ms of the 14 ms a scan of a small file takes.
    static func utcDate(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // Days since 0000-03-01; a 400-year era has 146,097 days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        // Months counted from March, so that February's length comes last.
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))"
    }
}
