/// One result: something to act on. Never holds the matched value; `preview` shows at most a
/// public prefix and the length.
public struct Finding: Sendable, Equatable {
    public var ruleId: String
    public var level: Level
    public var family: Family
    /// Redacted, human-readable.
    public var message: String
    /// The nearest name of the value: object key, header, parameter, prefs key (without
    /// `flutter.`), or the `entityId` for a whole-document violation.
    public var key: String?
    public var context: ScanContext
    /// The inventory class of the store the value belongs to, when known.
    public var inventoryClass: String?
    /// The input as given (a path relative to the working directory, or `-` for stdin).
    public var artifact: String
    /// Position of the value as written; for a value inside an embedded layer, the position of
    /// the outer string that carries it.
    public var position: SourcePosition
    public let path: LayeredPath
    /// `path` as reports write it, rendered once: sorting, fingerprints and every report need it.
    public let pathText: String
    public var confidence: Confidence
    /// Public prefix and length, e.g. `ghp_…, 40 characters`; never the value.
    public var preview: String
    /// A stable identity derived from rule, artifact and path (not the value, not the line).
    public var fingerprint: String
    /// A keyed digest of the secret (`ValueDigester`) when the scan was given a baseline salt:
    /// for matching against the baseline, never written to a report.
    public var valueDigest: String? = nil
    /// Against a baseline: new, or unchanged (accepted in it); nil when there is no baseline.
    public var baselineState: BaselineState? = nil
    /// Why the finding does not count toward the gate, when it does not.
    public var suppression: Suppression? = nil
    /// The other places of the same secret in the same request (a HAR entry, an HTTP exchange):
    /// a `Set-Cookie` header and `cookies[]`, a query and `queryString[]`, a body and its
    /// `params`. One secret, one finding; these are where else it stands.
    public var relatedLocations: [RelatedLocation] = []
    /// A hash of the secret, in memory only (never written): how a report counts the requests a
    /// secret appears in.
    package var secretHash: UInt64? = nil
    /// Found in a request (a HAR entry, an HTTP exchange), whose repeats are merged into it.
    package var isInRequest = false

    /// Whether the finding counts toward `--fail-on`.
    public var isActive: Bool { suppression == nil }

    /// `pathText` is `path.description`, given when the caller has it already.
    public init(ruleId: String, level: Level, family: Family, message: String, key: String?, context: ScanContext, inventoryClass: String?,
         artifact: String, position: SourcePosition, path: LayeredPath, pathText: String? = nil, confidence: Confidence,
         preview: String, fingerprint: String, valueDigest: String? = nil, baselineState: BaselineState? = nil,
         suppression: Suppression? = nil) {
        self.ruleId = ruleId
        self.level = level
        self.family = family
        self.message = message
        self.key = key
        self.context = context
        self.inventoryClass = inventoryClass
        self.artifact = artifact
        self.position = position
        self.path = path
        self.pathText = pathText ?? path.description
        self.confidence = confidence
        self.preview = preview
        self.fingerprint = fingerprint
        self.valueDigest = valueDigest
        self.baselineState = baselineState
        self.suppression = suppression
    }
}

/// Another place of a finding's secret.
public struct RelatedLocation: Sendable, Equatable {
    public var position: SourcePosition
    public var pathText: String

    public init(position: SourcePosition, pathText: String) {
        self.position = position
        self.pathText = pathText
    }
}

/// A finding's state against a baseline (SARIF `baselineState`).
public enum BaselineState: String, Sendable, Equatable, CaseIterable {
    case new, unchanged, absent
}

/// Why a finding is accepted: the baseline, or an allowlist entry with its reason.
public struct Suppression: Sendable, Equatable {
    public enum Source: String, Sendable { case baseline, allowlist }
    public var source: Source
    public var justification: String

    public init(source: Source, justification: String) {
        self.source = source
        self.justification = justification
    }
}

/// Why an input could not be read, parsed or fully scanned. Fails the gate (exit 2).
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The input could not be opened or read.
        case read
        /// The format could not be determined.
        case format
        /// The input is not valid in its format.
        case parse
        /// A limit was reached (nesting, layer depth, regex match limit): the check is incomplete.
        case limit
    }

    public var kind: Kind
    public var artifact: String
    public var position: SourcePosition?
    /// Names the kind of the offending input, never its content.
    public var reason: String

    public init(kind: Kind, artifact: String, position: SourcePosition? = nil, reason: String) {
        self.kind = kind
        self.artifact = artifact
        self.position = position
        self.reason = reason
    }

    /// `file:line:column: reason`, safe to show (`DisplayText`): the file name and the reason
    /// can carry what an input holds.
    public var description: String {
        let artifact = DisplayText.escaped(artifact)
        let reason = DisplayText.escaped(reason)
        if let position { return "\(artifact):\(position.line):\(position.column): \(reason)" }
        return "\(artifact): \(reason)"
    }
}
