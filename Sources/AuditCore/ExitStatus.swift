/// Exit statuses. Finding leaks (1) and failing to scan (2) never share a code.
public enum ExitStatus {
    public static let pass: Int32 = 0
    public static let findings: Int32 = 1
    public static let inputError: Int32 = 2
    public static let usage: Int32 = 64
}
