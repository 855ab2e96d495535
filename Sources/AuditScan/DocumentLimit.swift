/// Thrown by a reader when one document would take unbounded memory: more hits wait for the end
/// of their document than `ScanOptions.maxDocumentHits` (a hit's context depends on what follows
/// it, so hits wait), or a member the contract checks read whole (a payload) is larger, or holds
/// more values, than they read. The scan stops there, reports what it found and fails with a `limit` error.
struct DocumentLimit: Error {
    let offset: Int
    let message: String

    static func hits(offset: Int, limit: Int) -> DocumentLimit {
        DocumentLimit(offset: offset, message: "more than \(limit) hits wait for the end of one document; the rest of the input is not checked (raise --max-document-hits)")
    }

    static func capturedValues(offset: Int, limit: Int) -> DocumentLimit {
        DocumentLimit(offset: offset, message: "a payload, revision or field-register member of a sync document holds more than \(limit) values, the most the contract checks read; the rest of the input is not checked")
    }

    static func capturedMember(offset: Int, limit: Int) -> DocumentLimit {
        DocumentLimit(offset: offset, message: "a payload, revision or field-register member of a sync document is larger than \(limit >> 20) MiB, the most the contract checks read; the rest of the input is not checked")
    }
}
