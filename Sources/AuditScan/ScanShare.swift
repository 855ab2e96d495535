import AuditInputs
import Synchronization

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
    private let chunks: SharedChunks
    /// The chunk asked about last, and whether this worker holds it.
    private var chunk = -1
    private var holdsChunk = false
    /// How many times this worker jumped (tests check that it did).
    private(set) var jumps = 0

    private init(worker: Int, chunks: SharedChunks) {
        self.worker = worker
        self.chunks = chunks
    }

    /// The shares of `workers` workers in an input of `size` bytes, cut into some 256 chunks a
    /// worker (at least 64 KiB each). At the end, the worker that runs out of chunks first waits
    /// for the other's last one: with 32 chunks a worker (1.6 MB each in 100 MB) the two workers
    /// of a HAR ended 9 ms apart, with 256 within 1 ms.
    public static func shares(workers: Int, size: Int) -> [ScanShare] {
        shares(workers: workers, size: size, chunkSize: max(64 << 10, size / (workers * 256)))
    }

    static func shares(workers: Int, size: Int, chunkSize: Int) -> [ScanShare] {
        let chunks = SharedChunks(size: size, chunkSize: chunkSize, workers: workers)
        return (0..<workers).map { ScanShare(worker: $0, chunks: chunks) }
    }

    /// Whether this worker visits the document that starts at `offset`, the `ordinal`-th of its
    /// kind in the input (from 0). Claims the chunk when no worker has yet.
    public func owns(documentAt offset: Int, ordinal: Int) -> Bool {
        if ordinal == 0 { return worker == 0 }
        let chunk = chunks.chunk(of: offset)
        if chunk != self.chunk {
            self.chunk = chunk
            holdsChunk = chunks.claim(chunk, for: worker)
        }
        return holdsChunk
    }

    /// The chunks' size in bytes.
    public var chunkSize: Int { chunks.chunkSize }

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
        chunks.publish(point, by: worker)
    }

    /// For a document at `offset` that this worker does not own: the last document the holder
    /// of its chunk has begun, when that lies further on and every chunk from `offset`'s to its
    /// own is held by a worker other than this one, so that every document passed is another's.
    /// (A worker claims a chunk where it reaches it, so the chunks a worker ahead has passed are
    /// held; one holding no document's start is never claimed, and no jump crosses it.)
    public func resumePoint(after offset: Int) -> ResumePoint? {
        guard let point = chunks.resumePoint(after: offset, for: worker) else { return nil }
        jumps += 1
        return point
    }
}

/// What the workers of one input share, under one lock: which worker holds each chunk, and the
/// document each began last. A document takes the lock once. Kept in three objects, each
/// with a lock, the two workers' cores wrote the same reference counts at every entry of a
/// HAR (an array's object retained at each read) and took three locks for one jump
/// (`bench/shared-objects`; BENCHMARKS.md, "Objects the workers share").
private final class SharedChunks: Sendable {
    let chunkSize: Int
    /// The number of chunks, read without the lock.
    private let chunkCount: Int
    private let state: Mutex<State>

    private struct State {
        /// Each chunk's worker, -1 while none has claimed it.
        var holders: [Int]
        /// The document each worker began last.
        var published: [ScanShare.ResumePoint?]
    }

    init(size: Int, chunkSize: Int, workers: Int) {
        self.chunkSize = chunkSize
        chunkCount = size / chunkSize + 1
        state = Mutex(State(holders: Array(repeating: -1, count: chunkCount), published: Array(repeating: nil, count: workers)))
    }

    /// The chunk of `offset`; an offset past the size a file had when opened is in the last.
    func chunk(of offset: Int) -> Int {
        min(max(offset, 0) / chunkSize, chunkCount - 1)
    }

    /// Gives `chunk` to `worker` unless another holds it; whether `worker` holds it.
    func claim(_ chunk: Int, for worker: Int) -> Bool {
        state.withLock { state in
            if state.holders[chunk] < 0 { state.holders[chunk] = worker }
            return state.holders[chunk] == worker
        }
    }

    func publish(_ point: ScanShare.ResumePoint, by worker: Int) {
        state.withLock { $0.published[worker] = point }
    }

    /// For a document at `offset` that `worker` does not own: the last document the holder of
    /// its chunk has begun, when that lies further on and every chunk from `offset`'s to its
    /// own is held by a worker other than `worker`.
    func resumePoint(after offset: Int, for worker: Int) -> ScanShare.ResumePoint? {
        let first = chunk(of: offset)
        return state.withLock { state in
            let holder = state.holders[first]
            guard holder >= 0, holder != worker, let point = state.published[holder], point.offset > offset else { return nil }
            let held = (first...chunk(of: point.offset)).allSatisfy { state.holders[$0] >= 0 && state.holders[$0] != worker }
            return held ? point : nil
        }
    }
}
