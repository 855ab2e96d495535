/// Thrown by an input-level reader when more hits wait for the end of their document than
/// `ScanOptions.maxDocumentHits` (a hit's context depends on what follows it, so hits wait): the
/// scan stops there, reports what it found and fails with a `limit` error, rather than let one
/// document take unbounded memory.
struct DocumentHitLimit: Error {
    let offset: Int
    let limit: Int

    var message: String {
        "more than \(limit) hits wait for the end of one document; the rest of the input is not checked (raise --max-document-hits)"
    }
}
