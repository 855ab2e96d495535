import AuditInputs
import Foundation

/// One worker's part of an input several workers scan at once (`--jobs` on one large NDJSON or
/// HAR file). Every worker reads the whole input through a window of its own, so that
/// positions and array indices come out as in a scan by one worker, but visits only the
/// documents it owns and skips the others (`JSONReader.skipValue`).
///
/// The input is cut into chunks by byte offset, and a document (an NDJSON line, a HAR entry)
/// belongs to the worker that claims the chunk holding its first byte: the first worker to get
/// there. A worker that finishes a chunk skips, fast, past those the others have claimed to the
/// next free one, so the work balances itself however busy each core is and however unevenly
/// the documents cost; which worker visits which document does not change the merged outcome
/// (`SharedOutcomes`). The first document and everything outside the documents (a HAR's
/// `log.creator`, `pages`, what follows `entries`) belong to worker 0, so that hits before the
/// first entry end with it, as they do in one scan.
///
/// A worker publishes each document it begins to visit (`began`). Another worker that meets a
/// document it does not own jumps to the last one the chunk's holder has begun, if that lies
/// further on and every chunk up to it is held by another worker (`resumePoint`), and skips only
/// from there. Two workers taking chunks in turn then each skip what the other has not yet
/// visited of its chunk, not all of it.
public final class ScanShare: @unchecked Sendable {
    public let worker: Int
    private let claims: ChunkClaims
    private let published: [PublishedDocument]
    /// The chunk asked about last, and whether this worker holds it.
    private var chunk = -1
    private var holdsChunk = false
    /// How many times this worker jumped (tests check that it did).
    private(set) var jumps = 0

    private init(worker: Int, claims: ChunkClaims, published: [PublishedDocument]) {
        self.worker = worker
        self.claims = claims
        self.published = published
    }

    /// The shares of `workers` workers in an input of `size` bytes, cut into some 256 chunks a
    /// worker (at least 64 KiB each). At the end, the worker that runs out of chunks first waits
    /// for the other's last one: with 32 chunks a worker (1.6 MB each in 100 MB) the two workers
    /// of a HAR ended 9 ms apart, with 256 within 1 ms.
    public static func shares(workers: Int, size: Int) -> [ScanShare] {
        shares(workers: workers, size: size, chunkSize: max(64 << 10, size / (workers * 256)))
    }

    static func shares(workers: Int, size: Int, chunkSize: Int) -> [ScanShare] {
        let claims = ChunkClaims(size: size, chunkSize: chunkSize)
        let published = (0..<workers).map { _ in PublishedDocument() }
        return (0..<workers).map { ScanShare(worker: $0, claims: claims, published: published) }
    }

    /// Whether this worker visits the document that starts at `offset`, the `ordinal`-th of its
    /// kind in the input (from 0). Claims the chunk when no worker has yet.
    public func owns(documentAt offset: Int, ordinal: Int) -> Bool {
        if ordinal == 0 { return worker == 0 }
        let chunk = claims.chunk(of: offset)
        if chunk != self.chunk {
            self.chunk = chunk
            holdsChunk = claims.claim(chunk, for: worker)
        }
        return holdsChunk
    }

    /// The chunks' size in bytes.
    public var chunkSize: Int { claims.chunkSize }

    /// Whether this worker visits what lies outside the documents.
    public var ownsTheRest: Bool { worker == 0 }

    /// Where a document begins: its offset, its ordinal and the line cursor there.
    public struct ResumePoint: Sendable {
        public var offset: Int
        public var ordinal: Int
        public var cursor: LineCursor
    }

    /// This worker begins to visit the document `point` describes (one it owns).
    public func began(_ point: ResumePoint) {
        published[worker].set(point)
    }

    /// For a document at `offset` that this worker does not own: the last document the holder
    /// of its chunk has begun, when that lies further on and every chunk from `offset`'s to its
    /// own is held by a worker other than this one, so that every document passed is another's.
    /// (A worker claims a chunk where it reaches it, so the chunks a worker ahead has passed are
    /// held; one holding no document's start is never claimed, and no jump crosses it.)
    public func resumePoint(after offset: Int) -> ResumePoint? {
        let first = claims.chunk(of: offset)
        guard let holder = claims.holder(of: first), holder != worker,
              let point = published[holder].get(), point.offset > offset,
              claims.areHeld(first...claims.chunk(of: point.offset), byOtherThan: worker) else { return nil }
        jumps += 1
        return point
    }
}

/// The document a worker began last, read by the others.
private final class PublishedDocument: @unchecked Sendable {
    private let lock = NSLock()
    private var point: ScanShare.ResumePoint?

    func set(_ point: ScanShare.ResumePoint) {
        lock.lock()
        self.point = point
        lock.unlock()
    }

    func get() -> ScanShare.ResumePoint? {
        lock.lock()
        defer { lock.unlock() }
        return point
    }
}

/// Which worker holds each chunk of a shared input.
private final class ChunkClaims: @unchecked Sendable {
    private let lock = NSLock()
    let chunkSize: Int
    private var holders: [Int]

    init(size: Int, chunkSize: Int) {
        self.chunkSize = chunkSize
        holders = Array(repeating: -1, count: size / chunkSize + 1)
    }

    /// The chunk of `offset`; an offset past the size a file had when opened is in the last.
    func chunk(of offset: Int) -> Int {
        min(max(offset, 0) / chunkSize, holders.count - 1)
    }

    /// The worker holding `chunk`, if any has claimed it.
    func holder(of chunk: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return holders[chunk] < 0 ? nil : holders[chunk]
    }

    /// Whether every chunk of `chunks` is held, and by a worker other than `worker`.
    func areHeld(_ chunks: ClosedRange<Int>, byOtherThan worker: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return chunks.allSatisfy { holders[$0] >= 0 && holders[$0] != worker }
    }

    /// Gives `chunk` to `worker` unless another holds it; whether `worker` holds it.
    func claim(_ chunk: Int, for worker: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if holders[chunk] < 0 { holders[chunk] = worker }
        return holders[chunk] == worker
    }
}
