/// How sure a finding is.
public enum Confidence: String, Sendable, Comparable, CaseIterable {
    case low, medium, high
    public static func < (a: Confidence, b: Confidence) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
