/// How a rule recognises its target.
public enum RuleKind: String, Sendable {
    /// Matches key names (object keys, headers, parameters) after normalisation.
    case name
    /// Matches value bytes with a PCRE2 pattern behind a keyword prefilter.
    case pattern
}

/// What a finding means for the product. See DESIGN.md, "Findings".
public enum Family: String, Sendable, CaseIterable, Comparable {
    /// Credential or secret material where it must not be.
    case secret
    /// An inventory or contract violation that carries no credential.
    case policy
    /// A credential the protocol itself carries (an `Authorization` header, a token response).
    case transport

    public static func < (a: Family, b: Family) -> Bool { a.rank < b.rank }
    private var rank: Int { Family.allCases.firstIndex(of: self)! }
}

/// SARIF result levels, ordered note < warning < error.
public enum Level: String, Sendable, Comparable, CaseIterable {
    case note, warning, error

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    private var rank: Int { Level.allCases.firstIndex(of: self)! }
}

/// One detection rule, loaded from a rule file in `rules/` or `--rules DIR`.
public struct Rule: Sendable {
    /// Stable dotted id (`secret.github-token`); appears in baselines, never renamed.
    public var id: String
    public var kind: RuleKind
    /// Short title: SARIF `shortDescription` and the terminal report's heading.
    public var title: String
    /// One paragraph: SARIF `fullDescription`.
    public var description: String
    /// What to do about a finding: SARIF `help`.
    public var help: String
    public var level: Level
    public var family: Family
    /// GitHub's 0.0–10.0 score, written to SARIF as a string.
    public var securitySeverity: Double
    /// SARIF tags, e.g. `security`, `external/cwe/cwe-798`.
    public var tags: [String]

    /// Name rules: names as words ("api key", "token"); a key matches when a run of its words
    /// spells one of them (so `apiKey`, `API_KEY`, `x-api-key` and `apikey` all match "api key").
    public var names: [String]

    /// Pattern rules: the PCRE2 pattern; the group named `secret` (else group 1) is the secret.
    public var pattern: String?
    /// Pattern rules: case-insensitive literals of which one must occur before the regex runs.
    public var keywords: [String]
    /// Pattern rules: values shorter than this never reach the regex.
    public var minLength: Int
    /// Pattern rules: minimum Shannon entropy (bits per character) of the secret.
    public var minEntropy: Double?
    /// Pattern rules: the name of an offline validator (see `Validators`).
    public var validator: String?
    /// How many leading characters of a match the report may show (a public prefix such as
    /// `ghp_`); capped at four.
    public var previewPrefixLength: Int

    /// Texts the rule must match (pattern rules) or key names it must match (name rules).
    public var examples: [String]
    /// Texts or key names the rule must not match.
    public var counterExamples: [String]

    /// The file the rule came from (`builtin:secrets.json` for the built-in pack).
    public var source: String

    public init(id: String, kind: RuleKind, title: String, description: String, help: String,
                level: Level, family: Family, securitySeverity: Double, tags: [String],
                names: [String] = [], pattern: String? = nil, keywords: [String] = [],
                minLength: Int = 0, minEntropy: Double? = nil, validator: String? = nil,
                previewPrefixLength: Int = 0, examples: [String], counterExamples: [String],
                source: String) {
        self.id = id
        self.kind = kind
        self.title = title
        self.description = description
        self.help = help
        self.level = level
        self.family = family
        self.securitySeverity = securitySeverity
        self.tags = tags
        self.names = names
        self.pattern = pattern
        self.keywords = keywords
        self.minLength = minLength
        self.minEntropy = minEntropy
        self.validator = validator
        self.previewPrefixLength = previewPrefixLength
        self.examples = examples
        self.counterExamples = counterExamples
        self.source = source
    }
}
