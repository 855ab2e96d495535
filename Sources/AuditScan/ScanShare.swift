/// One worker's part of an input scanned by several workers at once (`--jobs` on one large
/// NDJSON or HAR file). Every worker reads the whole input through a window of its own, so
/// that positions and array indices come out as in a scan by one worker, but visits only the
/// documents it owns and skips the others (`JSONReader.skipValue`). A document (an NDJSON line,
/// a HAR entry) belongs to the worker whose byte range holds its first byte; the first document
/// and everything outside the documents (a HAR's `log.creator`, `pages`, what follows
/// `entries`) belong to worker 0, so that hits before the first entry end with it, as they do
/// in one scan.
public struct ScanShare: Sendable, Equatable {
    public let index: Int
    public let count: Int
    /// The input's bytes whose documents this worker visits.
    public let range: Range<Int>

    /// The shares of an input of `size` bytes split among `count` workers, equal by bytes.
    public static func split(size: Int, count: Int) -> [ScanShare] {
        (0..<count).map { index in
            ScanShare(index: index, count: count, range: size * index / count..<size * (index + 1) / count)
        }
    }

    /// Whether this worker visits the document that starts at `offset`, the `ordinal`-th of its
    /// kind in the input (from 0).
    @inline(__always)
    public func owns(documentAt offset: Int, ordinal: Int) -> Bool {
        ordinal == 0 ? index == 0 : range.contains(offset) || (index == count - 1 && offset >= range.upperBound)
    }

    /// Whether this worker visits what lies outside the documents.
    public var ownsTheRest: Bool { index == 0 }
}
