/// SARIF result levels, ordered note < warning < error.
public enum Level: String, Sendable, Comparable, CaseIterable {
    case note, warning, error

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    private var rank: Int { Level.allCases.firstIndex(of: self)! }
}
