/// One finding a baseline accepted. It lives beside the findings (not with `Baseline`) because a
/// scan's result lists the entries no finding matched any more, and reports show them.
public struct BaselineEntry: Sendable, Equatable {
    public var ruleId: String
    public var artifact: String
    public var path: String
    public var key: String?
    public var fingerprint: String
    /// The keyed digest of the secret; nil for a finding that holds none (a policy finding).
    public var valueDigest: String?
    /// Where it was, for people reading the file; not used to match.
    public var line: Int

    public init(ruleId: String, artifact: String, path: String, key: String?, fingerprint: String, valueDigest: String?, line: Int) {
        self.ruleId = ruleId
        self.artifact = artifact
        self.path = path
        self.key = key
        self.fingerprint = fingerprint
        self.valueDigest = valueDigest
        self.line = line
    }
}
