import AuditCore

/// What fails the gate: the lowest level for every finding, and for a family its own
/// (`--fail-on error --fail-on transport=warning`: a release gate that also fails on a live
/// credential in a committed capture, which QA's captures keep as a warning).
public struct GatePolicy: Sendable, Equatable {
    public var threshold: FailThreshold
    public var families: [Family: FailThreshold]

    public init(_ threshold: FailThreshold = .error, families: [Family: FailThreshold] = [:]) {
        self.threshold = threshold
        self.families = families
    }

    public static let error = GatePolicy(.error)

    /// Whether an active finding of `level` and `family` fails the gate (a finding's two fields,
    /// not the finding: a copy of one retains its fifteen strings and arrays).
    public func fails(level: Level, family: Family) -> Bool {
        (families[family] ?? threshold).fails(level)
    }

    /// As `--fail-on` writes it: `error`, or `error, transport=warning`.
    public var description: String {
        ([threshold.rawValue] + Family.allCases.compactMap { family in families[family].map { "\(family.rawValue)=\($0.rawValue)" } })
            .joined(separator: ", ")
    }

    /// Reads one `--fail-on` value: `LEVEL` sets the threshold, `FAMILY=LEVEL` a family's. The
    /// error is the reason, for a usage message.
    public mutating func apply(_ value: String) throws(GatePolicyError) {
        let levels = FailThreshold.allCases.map(\.rawValue).joined(separator: ", ")
        guard let equals = value.firstIndex(of: "=") else {
            guard let level = FailThreshold(rawValue: value) else {
                throw GatePolicyError(reason: "expected a level (\(levels)) or FAMILY=LEVEL")
            }
            threshold = level
            return
        }
        let familyName = String(value[..<equals]), levelName = String(value[value.index(after: equals)...])
        guard let family = Family(rawValue: familyName) else {
            throw GatePolicyError(reason: "unknown family '\(familyName)' (expected \(Family.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let level = FailThreshold(rawValue: levelName) else {
            throw GatePolicyError(reason: "unknown level '\(levelName)' for \(familyName) (expected \(levels))")
        }
        families[family] = level
    }
}

/// Why a `--fail-on` value is not one.
public struct GatePolicyError: Error, Sendable {
    public var reason: String
}
