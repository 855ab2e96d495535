import AuditCore
import AuditDetection

/// What is known about a container once it has closed, for the hits inside it.
struct ContainerFacts {
    var shape: ContainerShape?
    /// A context the reader decided for everything inside (a HAR entry to the sync API).
    var context: ScanContext?
    /// `transport` when the protocol carries what is inside (a credential header, a token
    /// exchange's bodies).
    var carrier: Family?
    /// Everything inside is a protocol field (a header, cookie or parameter), not sync data.
    var isProtocolField = false
    /// The name of the value inside: a HAR header's `name`, or a name/value object's
    /// (`NameValuePairs`), for the hits in its `value`.
    var valueName: String?
}
