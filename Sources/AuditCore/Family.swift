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
