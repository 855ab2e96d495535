/// Where a value was found, which decides how strictly it is judged. See DESIGN.md.
public enum ScanContext: String, Sendable, CaseIterable, Comparable {
    /// Personal Sync traffic: entity documents, push and pull bodies, operation logs. A
    /// sensitive-looking name fails closed whatever its value.
    case sync
    /// Android SharedPreferences exports.
    case prefs
    /// User-supplied backup files (`"format": "habiter.backup"`).
    case backup
    /// Anything else: other request and response bodies, arbitrary JSON.
    case payload

    /// The position among `allCases`, as a switch.
    public var rank: Int {
        switch self {
        case .sync: 0
        case .prefs: 1
        case .backup: 2
        case .payload: 3
        }
    }

    public static func < (a: ScanContext, b: ScanContext) -> Bool { a.rank < b.rank }
}
