import AuditCore
import AuditInputs

/// A detector hit waiting for its document to end, when the shapes of its ancestors (entity
/// document, sync message, backup root) are known and its context can be decided.
struct PendingHit {
    enum Detail {
        /// A pattern rule matched the value (or the key).
        case pattern(ruleIndex: Int, confidence: Confidence, preview: String)
        /// A name rule matched the key; the value decides between secret, policy and nothing.
        case name(ruleIndex: Int, credible: Bool, describesMetadata: Bool, valueDescription: String)
        /// A document breaks the data contract (reported in sync context only).
        case contract(ruleId: String, message: String)
        /// A key names a store of the inventory; its class and the context decide the verdict.
        case inventory(store: Int)
    }

    var detail: Detail
    var location: HitLocation
    var position: SourcePosition
    /// For a PKCE code verifier: its S256 challenge, to pair it with one seen in the input.
    var pkceChallenge: [UInt8]? = nil
    /// A hash of the secret (a pattern's match, or a credible value under a name,
    /// `secretHash(of:)`), so that one secret found by several rules or in several layers of one
    /// value is reported once. Kept in memory only, never written anywhere.
    var secretHash: UInt64? = nil
    /// The baseline digest of the secret, when the scan has a `ValueDigester`.
    var valueDigest: String? = nil
    /// For an inventory hit: the store's value holds nothing a secret could be (empty, a
    /// placeholder, a number, a boolean, null, or a container without a hit inside).
    var storeValueHoldsNothing = false
    /// For an inventory hit: the store's value is a number, a boolean, null or a date, as a
    /// summary writes about a store (`"quarantine": 0`, `"personal_sync.pending.v1": true`).
    var storeValueIsSummary = false

    var isPattern: Bool { if case .pattern = detail { true } else { false } }

    /// The hash a secret is known by: of its bytes with percent-escapes undone, so that a
    /// password written `Xk9%23…` in a form body and read `Xk9#…` out of its `!form` layer are
    /// one secret, as they are when nothing in them is escaped. A `+` stays: undone as a
    /// space it would part a base64 token from itself.
    static func secretHash(of secret: UnsafeRawBufferPointer) -> UInt64 {
        guard LayerBytes.mayPercentDecode(secret, plusAsSpace: false) else { return KeyFactsCache.hash(secret) }
        return LayerBytes.percentDecode(secret, plusAsSpace: false).withUnsafeBytes(KeyFactsCache.hash)
    }
}

/// Where a hit sits, beyond its position.
struct HitLocation {
    /// The nearest name of the value.
    var key: String?
    /// The path, kept as the path of the value's container (shared by the hits of one container)
    /// and the value's own token: a document can hold millions of hits, few of which are reported.
    private(set) var containerPath: LayeredPath
    private(set) var token: PathToken?
    var path: LayeredPath {
        get { token.map { containerPath.appending($0) } ?? containerPath }
        set {
            containerPath = newValue
            token = nil
        }
    }
    /// `path.description`, without making the path.
    var pathDescription: String { containerPath.description(appending: token) }
    /// Ids of the open containers, outermost first, across layers.
    var ancestry: [Int]
    /// A context the reader fixed for this value (e.g. a HAR entry to the sync API).
    var readerContext: ScanContext?
    /// `transport` when the protocol itself carries this value (an `Authorization` header, an
    /// OAuth token response): a credential found here is reported as transport, not secret.
    var carrier: Family? = nil
    /// A header, cookie or URL parameter of a captured call: protocol, not sync data, so the
    /// contract's fail-closed names do not apply to it.
    var isProtocolField = false
    /// A value in a flutter_secure_storage dump, where sensitive stores belong.
    var isSecureStorage = false

    init(key: String?, path: LayeredPath, ancestry: [Int], readerContext: ScanContext? = nil, carrier: Family? = nil,
         isProtocolField: Bool = false) {
        self.init(key: key, containerPath: path, token: nil, ancestry: ancestry, readerContext: readerContext, carrier: carrier,
                  isProtocolField: isProtocolField)
    }

    /// The location of a value with `token` in the container at `containerPath`.
    init(key: String?, containerPath: LayeredPath, token: PathToken?, ancestry: [Int], readerContext: ScanContext?,
         carrier: Family?, isProtocolField: Bool = false) {
        self.key = key
        self.containerPath = containerPath
        self.token = token
        self.ancestry = ancestry
        self.readerContext = readerContext
        self.carrier = carrier
        self.isProtocolField = isProtocolField
    }
}
