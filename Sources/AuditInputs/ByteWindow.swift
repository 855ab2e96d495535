import AuditBytes
import AuditCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one input that a reader can see: either the whole input at once, or a window
/// that slides over a `ByteSource` (a file, stdin, a gzip stream), so that memory is bounded by
/// the largest token rather than by the input. Offsets are absolute (from the start of the input)
/// everywhere.
///
/// The window also owns the input's `LineCursor`: before bytes are dropped it moves the cursor
/// past them, so positions can be resolved for any offset not yet passed, and for any offset
/// after a pin (see `pin(at:)`).
public final class ByteWindow {
    /// What readers ask for on every token, read and changed through a pointer (`state`).
    private struct Bounds {
        var base: UnsafePointer<UInt8>
        var start = 0
        var count: Int
        var isComplete: Bool
        var isBinary = false
        /// The earliest offset kept visible, and the cursor as it was there.
        var pinned: (offset: Int, cursor: LineCursor)?
        /// One position kept after its bytes were dropped (see `holdPosition(at:)`).
        var held: SourcePosition?
        /// Positions that may be asked for later (`deferPosition(of:)`), by ticket: `deferredCount`
        /// of `deferredCapacity`, in raw memory (an array's uniqueness checks and retains took
        /// about half of what deferring saves). None before `firstUnresolved` is left to count; the
        /// offsets of those left increase with their tickets, the last being `lastUnresolved`.
        var deferred: UnsafeMutablePointer<DeferredPosition>?
        var deferredCount = 0
        var deferredCapacity = 0
        var firstUnresolved = 0
        var lastUnresolved = 0
    }

    /// A deferred position: its offset, and the position once counted.
    struct DeferredPosition {
        var offset: Int
        var position: SourcePosition?
    }

    /// The bounds and the line cursor, in one block of memory the window owns, each read and
    /// changed through a pointer of its own: not checked for overlapping access, as a class's
    /// stored `var` would be at every token (see `UncheckedBox`), and the cursor reads the
    /// bounds while it moves. A block, not two `UncheckedBox`es: a window over each JSON layer
    /// took five allocations and two generic deinitialisers, some 1,400 instructions.
    private let state: (bounds: UnsafeMutablePointer<Bounds>, cursor: UnsafeMutablePointer<LineCursor>)
    private var bounds: UnsafeMutablePointer<Bounds> { state.bounds }

    /// The block for `bounds` and a cursor at the start.
    private static func makeState(_ bounds: Bounds) -> (bounds: UnsafeMutablePointer<Bounds>, cursor: UnsafeMutablePointer<LineCursor>) {
        let cursorOffset = (MemoryLayout<Bounds>.stride + MemoryLayout<LineCursor>.alignment - 1)
            / MemoryLayout<LineCursor>.alignment * MemoryLayout<LineCursor>.alignment
        let block = UnsafeMutableRawPointer.allocate(byteCount: cursorOffset + MemoryLayout<LineCursor>.stride,
                                                     alignment: max(MemoryLayout<Bounds>.alignment, MemoryLayout<LineCursor>.alignment))
        let cursor = (block + cursorOffset).bindMemory(to: LineCursor.self, capacity: 1)
        cursor.initialize(to: LineCursor())
        let boundsPointer = block.bindMemory(to: Bounds.self, capacity: 1)
        boundsPointer.initialize(to: bounds)
        return (boundsPointer, cursor)
    }
    /// The first visible byte; valid until the next `extend`.
    public var base: UnsafePointer<UInt8> { bounds.pointee.base }
    /// Absolute offset of `base[0]`.
    public var start: Int { bounds.pointee.start }
    /// Number of visible bytes.
    public var count: Int { bounds.pointee.count }
    /// Absolute offset just past the last visible byte.
    public var end: Int { bounds.pointee.start + bounds.pointee.count }
    /// True when no byte beyond `end` exists.
    public var isComplete: Bool { bounds.pointee.isComplete }
    /// Why reading stopped early, when it did.
    public private(set) var failure: String?
    /// A binary input (a DataStore file) has no lines: every position is on line 1, its column
    /// the byte offset + 1 (the bytes of a length or a tag would count as line breaks).
    public var isBinary: Bool {
        get { bounds.pointee.isBinary }
        set { bounds.pointee.isBinary = newValue }
    }

    private var cursor: LineCursor {
        _read { yield state.cursor.pointee }
        _modify { yield &state.cursor.pointee }
    }
    private var pinned: (offset: Int, cursor: LineCursor)? {
        _read { yield bounds.pointee.pinned }
        _modify { yield &bounds.pointee.pinned }
    }
    private var held: SourcePosition? {
        _read { yield bounds.pointee.held }
        _modify { yield &bounds.pointee.held }
    }
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    private var source: (any ByteSource)?
    /// 0 for a whole window until it reads its bytes through a decoder (`readThrough`).
    private var chunkSize: Int
    /// Keeps a whole-input buffer alive.
    private let owner: AnyObject?

    /// A window that shows all of `bytes` at once.
    public init(whole bytes: UnsafeRawBufferPointer, owner: AnyObject? = nil) {
        state = ByteWindow.makeState(Bounds(base: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyByteBase,
                                            count: bytes.count, isComplete: true))
        chunkSize = 0
        self.owner = owner
    }

    /// A window over its own copy of `bytes`, for positions asked one after another: each costs
    /// the bytes since the one before, where `position(of:in:)` counts from the start every time.
    public convenience init(copying bytes: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyBytes(from: bytes)
        self.init(whole: UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count]), owner: OwnedCopy(copy))
    }

    /// Frees the copy a window made.
    private final class OwnedCopy {
        let bytes: UnsafeMutableRawBufferPointer
        init(_ bytes: UnsafeMutableRawBufferPointer) { self.bytes = bytes }
        deinit { bytes.deallocate() }
    }

    /// How much a window reads at a time. Small enough that the bytes the kernel has just copied
    /// into the window are still in the core's cache (1 MiB of L2 here) when the reader gets to
    /// them: with 4 MiB reads they came back from memory. Pinned, 21 interleaved runs of the
    /// 100 MB inputs: JSON −1.9 %, NDJSON −0.9 %, HAR −0.7 %, prefs −3.0 % against 4 MiB, and
    /// 2.5 MB less peak RSS (BENCHMARKS.md, "Stores read back whole, the read size, and the bytes
    /// of a finding").
    public static let defaultChunkSize = 128 << 10

    /// A window over `source`, read `chunkSize` bytes at a time.
    init(source: any ByteSource, chunkSize: Int = ByteWindow.defaultChunkSize) {
        state = ByteWindow.makeState(Bounds(base: emptyByteBase, count: 0, isComplete: false))
        self.source = source
        self.chunkSize = chunkSize
        owner = nil
    }

    /// A window over an open descriptor, which it closes. `expectedSize` is the size a regular
    /// file had when opened: reading a different number of bytes is a failure.
    convenience init(descriptor: Int32, expectedSize: Int?, chunkSize: Int = ByteWindow.defaultChunkSize) {
        self.init(source: DescriptorSource(descriptor: descriptor, expectedSize: expectedSize), chunkSize: chunkSize)
        regularFileSize = expectedSize
    }

    /// The size of the regular file the window reads, when it reads one (a file can be opened
    /// again and read by more than one worker; a pipe cannot).
    public private(set) var regularFileSize: Int?

    deinit {
        storage?.deallocate()
        bounds.pointee.deferred?.deallocate()
        state.cursor.deinitialize(count: 1)
        state.bounds.deinitialize(count: 1)
        UnsafeMutableRawPointer(state.bounds).deallocate()
    }

    /// How much the first read asks for at most: enough to tell the input's format
    /// (`FormatDetector.sniffLength`). The format decides whether a second worker may share the
    /// input, and that worker waits for it: a first read of 4 MiB took about 2 ms.
    static let firstReadLength = 128 << 10

    /// Reads more bytes, keeping those from absolute offset `keep` on (bytes before it, and before
    /// a pin, may be dropped). Returns false when nothing more can be read: the end of the input,
    /// or a failure.
    public func extend(keeping keep: Int) -> Bool {
        guard !isComplete, var source else { return false }
        var keepFrom = min(max(keep, start), end)
        if let pinned { keepFrom = min(keepFrom, max(pinned.offset, start)) }
        if keepFrom > start { moveCursor(to: keepFrom) }
        let kept = end - keepFrom
        // Keep at least half a chunk free for the read; grow by doubling, so that a token larger
        // than a chunk costs amortised linear time.
        if storage == nil || kept + max(1, chunkSize / 2) > capacity {
            let newCapacity = max(capacity * 2, kept + chunkSize)
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            if kept > 0 { bigger.copyMemory(from: UnsafeRawPointer(base + (keepFrom - start)), byteCount: kept) }
            storage?.deallocate()
            storage = bigger
            capacity = newCapacity
        } else if kept > 0 && keepFrom > start {
            memmove(storage!, UnsafeRawPointer(base + (keepFrom - start)), kept)
        }
        let buffer = storage!
        bounds.pointee.base = UnsafePointer(buffer.assumingMemoryBound(to: UInt8.self))
        bounds.pointee.start = keepFrom
        bounds.pointee.count = kept
        var room = end == 0 ? min(capacity - kept, ByteWindow.firstReadLength) : capacity - kept
        if let readUnit, end > 0 {
            let toNextUnit = readUnit - end % readUnit
            room = min(room, toNextUnit == readUnit ? max(1, readUnit / 16) : toNextUnit)
        }
        let result = source.read(into: UnsafeMutableRawBufferPointer(start: buffer + kept, count: room))
        self.source = source
        switch result {
        case .bytes(let n):
            bounds.pointee.count += n
            return true
        case .end:
            bounds.pointee.isComplete = true
            return false
        case .failure(let reason):
            failure = reason
            bounds.pointee.isComplete = true
            return false
        }
    }

    /// The unit reads end on (`alignReads(to:)`), if any.
    private var readUnit: Int?

    /// Ends every read at a multiple of `unit` bytes, and reads only a sixteenth of a unit
    /// first when one begins, for a worker of a shared input (`ScanShare`, whose chunks are the
    /// units): it learns whether it may jump past a chunk another worker holds from the bytes
    /// of the chunk's first document, so that it has not read the chunk by then. With reads of
    /// 4 MiB, each of two workers read all of a 100 MB HAR; with these, each passed 21 MB unread.
    public func alignReads(to unit: Int) {
        precondition(unit > 0, "a unit of bytes")
        readUnit = unit
    }

    /// Moves to absolute `offset`, past the visible bytes, dropping them, and reads on from there
    /// without reading what lies between, when the source can pass bytes unread (a regular
    /// file); false when it cannot, and nothing changed: the caller reads through instead. For a
    /// reader moving to where another window's cursor was adopted (`adoptCursor`), so the
    /// window has no line to count on the way: false when its cursor lags behind `offset`, or a
    /// deferred position is left to count.
    public func passUnread(to offset: Int) -> Bool {
        guard offset > end, pinned == nil, !isComplete, cursor.offset >= offset,
              bounds.pointee.firstUnresolved == bounds.pointee.deferredCount,
              var source, source.skip(offset - end) else { return false }
        self.source = source
        passedUnread += offset - end
        bounds.pointee.start = offset
        bounds.pointee.count = 0
        _ = extend(keeping: offset)
        return true
    }

    /// The bytes passed unread (tests check that a worker does pass some).
    private(set) var passedUnread = 0

    /// Reads until `offset` is visible or the input ends; keeps everything from `keep`.
    public func ensure(_ offset: Int, keeping keep: Int) -> Bool {
        while offset >= end {
            if !extend(keeping: keep) { return false }
        }
        return true
    }

    /// Reads the rest of the input and keeps all of it visible from `start`, for a reader that
    /// needs it whole (a ZIP archive lists its members at its end). A regular file's size is
    /// allocated at once, not doubled into; false when reading failed.
    public func readWhole() -> Bool {
        if let regularFileSize, start == 0, regularFileSize + chunkSize > capacity {
            let whole = UnsafeMutableRawPointer.allocate(byteCount: regularFileSize + chunkSize, alignment: 16)
            if count > 0 { whole.copyMemory(from: UnsafeRawPointer(base), byteCount: count) }
            storage?.deallocate()
            storage = whole
            capacity = regularFileSize + chunkSize
            bounds.pointee.base = UnsafePointer(whole.assumingMemoryBound(to: UInt8.self))
        }
        while extend(keeping: start) {}
        return failure == nil
    }

    /// Switches to reading the input as a compressed stream (`DecompressingSource`: gzip, zlib,
    /// zstd, xz or bzip2), from the first byte, before any reader has consumed it.
    public func decompress(_ coding: ContentCoding) {
        readThrough { DecompressingSource(inner: $0, coding: coding) }
    }

    /// Switches to reading the input as UTF-16 text (`UTF16Source`), from the first byte, before
    /// any reader has consumed it: the readers see its UTF-8, without the byte-order mark.
    public func transcode(_ order: UTF16Text.ByteOrder, markLength: Int) {
        readThrough { UTF16Source(inner: $0, order: order, markLength: markLength) }
    }

    /// Reads the input again from its first byte through the source `decoder` makes of it: the
    /// bytes already read, then the rest. A whole window then reads its bytes through it a
    /// chunk at a time, as a file's window does.
    private func readThrough(_ decoder: (any ByteSource) -> any ByteSource) {
        precondition(start == 0 && pinned == nil, "a decoder is put in before reading")
        let prefix = Array(UnsafeBufferPointer(start: base, count: count))
        if source == nil { chunkSize = ByteWindow.defaultChunkSize }
        source = decoder(PrefixedSource(prefix: prefix, rest: source))
        bounds.pointee.count = 0
        bounds.pointee.isComplete = false
        cursor = LineCursor()
    }

    /// Keeps the bytes from `offset` (visible now) on until `unpin()`, whatever readers ask to
    /// keep, and lets positions anywhere from `offset` be resolved in any order. Readers that
    /// collect a unit before judging it (a HAR entry, an HTTP message) pin its start.
    public func pin(at offset: Int) {
        moveCursor(to: offset)
        pinned = (offset, cursor)
    }

    /// Keeps the position of `offset` (visible now) after its bytes are dropped, for a reader
    /// that lets the window slide on inside a value whose findings are reported at its start
    /// (a long string unescaped as it is read). The last one held is kept.
    public func holdPosition(at offset: Int) {
        moveCursor(to: offset)
        held = cursor.position(of: offset, in: self)
    }

    /// Whether a pin keeps bytes that readers are done with.
    public var isPinned: Bool { pinned != nil }

    /// The line cursor moved to `offset` (visible now), for another window over the same input
    /// to take (`adoptCursor`); nil when positions past `offset` were resolved already.
    public func cursor(at offset: Int) -> LineCursor? {
        guard offset >= cursor.offset else { return nil }
        moveCursor(to: offset)
        return cursor
    }

    /// Takes the cursor another window over the same input had at a later offset, for a reader
    /// about to move there without reading what lies between (a worker of a shared input
    /// passing documents another worker visits): the bytes up to it are then dropped without
    /// their lines counted again. Not while pinned.
    public func adoptCursor(_ other: LineCursor) {
        precondition(pinned == nil && other.offset >= cursor.offset, "a cursor ahead of this one, on an unpinned window")
        // Deferred positions lie in what was read: counted here, before the cursor moves on.
        if bounds.pointee.firstUnresolved < bounds.pointee.deferredCount { moveCursor(to: min(bounds.pointee.lastUnresolved, end)) }
        cursor = other
    }

    public func unpin() {
        pinned = nil
    }

    /// Bytes allocated for the window (tests check that memory stays bounded).
    var capacityForTests: Int { capacity }

    /// The byte at absolute `offset`, which must be visible.
    @inline(__always)
    public subscript(offset: Int) -> UInt8 { base[offset - start] }

    /// The position of absolute `offset`. Offsets already dropped resolve to the earliest
    /// position still known; readers ask in increasing order, or within a pinned unit, so this
    /// does not happen.
    public func position(of offset: Int) -> SourcePosition {
        if isBinary { return SourcePosition(line: 1, column: offset + 1, byteOffset: offset) }
        if let held, offset == held.byteOffset, offset < cursor.offset { return held }
        if offset < cursor.offset {
            if let pinned, offset >= pinned.offset {
                cursor = pinned.cursor
            } else if start == 0 {
                cursor = LineCursor()
            }
        }
        moveCursor(to: min(offset, end))
        return cursor.position(of: offset, in: self)
    }

    /// Asks for the position of `offset` (read already) that may be needed later: a ticket for
    /// `deferredPosition(_:)`. The position is counted when it is asked for or when the cursor
    /// passes `offset`, whichever comes first: most documents have no contract violation, whose
    /// positions these are, and counting each when its value was read cost some 200
    /// instructions a position. Tickets are given back in the reverse order
    /// (`releaseDeferred(from:)`), as the objects that take them close.
    public func deferPosition(of offset: Int) -> Int {
        let ticket = bounds.pointee.deferredCount
        // Many values of a layer share its outer offset: one ticket serves them.
        if ticket > 0 && bounds.pointee.deferred![ticket - 1].offset == offset { return ticket - 1 }
        if ticket == bounds.pointee.deferredCapacity { growDeferred() }
        let isPending = bounds.pointee.firstUnresolved < ticket
        // Counted now where it cannot wait its turn: the cursor is there or past it, or one
        // waiting lies after it.
        if isBinary || offset <= cursor.offset || (isPending && offset < bounds.pointee.lastUnresolved) {
            let position = position(of: offset)
            (bounds.pointee.deferred! + ticket).initialize(to: DeferredPosition(offset: offset, position: position))
        } else {
            (bounds.pointee.deferred! + ticket).initialize(to: DeferredPosition(offset: offset, position: nil))
            bounds.pointee.lastUnresolved = offset
        }
        bounds.pointee.deferredCount = ticket + 1
        return ticket
    }

    /// The position of a deferred offset (`deferPosition(of:)`).
    public func deferredPosition(_ ticket: Int) -> SourcePosition {
        precondition(ticket < bounds.pointee.deferredCount, "a ticket not given back")
        if let position = bounds.pointee.deferred![ticket].position { return position }
        moveCursor(to: bounds.pointee.deferred![ticket].offset)
        return bounds.pointee.deferred![ticket].position!
    }

    /// The tickets given so far; the next one's number.
    public var deferredCount: Int { bounds.pointee.deferredCount }

    /// Gives back the tickets from `ticket` on.
    public func releaseDeferred(from ticket: Int) {
        guard ticket < bounds.pointee.deferredCount else { return }
        bounds.pointee.deferredCount = ticket
        bounds.pointee.firstUnresolved = min(bounds.pointee.firstUnresolved, ticket)
    }

    private func growDeferred() {
        let capacity = max(16, bounds.pointee.deferredCapacity * 2)
        let grown = UnsafeMutablePointer<DeferredPosition>.allocate(capacity: capacity)
        if let old = bounds.pointee.deferred {
            grown.moveInitialize(from: old, count: bounds.pointee.deferredCount)
            old.deallocate()
        }
        (bounds.pointee.deferred, bounds.pointee.deferredCapacity) = (grown, capacity)
    }

    /// Moves the line cursor to `target`, counting on the way the deferred positions it passes.
    private func moveCursor(to target: Int) {
        while bounds.pointee.firstUnresolved < bounds.pointee.deferredCount {
            let entry = bounds.pointee.deferred! + bounds.pointee.firstUnresolved
            if entry.pointee.position == nil {
                guard entry.pointee.offset <= target else { break }
                entry.pointee.position = cursor.position(of: entry.pointee.offset, in: self)
            }
            bounds.pointee.firstUnresolved += 1
        }
        cursor.advance(to: target, in: self)
    }
}

/// Where a sliding window's bytes come from.
protocol ByteSource {
    /// Fills some of `buffer`; reports how many bytes, or the end, or why reading failed.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult
    /// Passes `count` bytes without reading them; false when the source cannot, having passed
    /// none.
    mutating func skip(_ count: Int) -> Bool
}

extension ByteSource {
    /// A stream's bytes can only be read.
    mutating func skip(_ count: Int) -> Bool { false }
}

enum ByteSourceResult {
    case bytes(Int)
    case end
    case failure(String)
}

/// Bytes already read, then the rest of a source, if any.
final class PrefixedSource: ByteSource {
    private let prefix: [UInt8]
    /// How much of `prefix` was read.
    private var taken = 0
    private var rest: (any ByteSource)?

    init(prefix: [UInt8], rest: (any ByteSource)?) {
        self.prefix = prefix
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        if taken == prefix.count { return rest?.read(into: buffer) ?? .end }
        let n = min(prefix.count - taken, buffer.count)
        buffer.copyBytes(from: prefix[taken..<taken + n])
        taken += n
        return .bytes(n)
    }
}

/// A file descriptor (a file, a FIFO, stdin), closed when the source goes away.
final class DescriptorSource: ByteSource {
    private let descriptor: Int32
    /// The size a regular file had when opened: reading a different number of bytes means the
    /// file changed while it was read.
    private let expectedSize: Int?
    private var total = 0

    init(descriptor: Int32, expectedSize: Int?) {
        self.descriptor = descriptor
        self.expectedSize = expectedSize
    }

    deinit { close(descriptor) }

    /// A regular file's bytes are passed by moving its offset. Past the file's end, the next
    /// read finds the end, and the file's size changed.
    func skip(_ count: Int) -> Bool {
        guard expectedSize != nil, lseek(descriptor, off_t(count), SEEK_CUR) >= 0 else { return false }
        total += count
        return true
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure("read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                if let expectedSize, total != expectedSize { return .failure("the file changed size while it was read") }
                return .end
            }
            total += n
            if let expectedSize, total > expectedSize { return .failure("the file changed size while it was read") }
            return .bytes(n)
        }
    }
}

/// Converts byte offsets to line and column, the one place that does so.
///
/// Line breaks are LF, CRLF and a lone CR. A UTF-8 byte-order mark at the start of the input
/// takes no column. The cursor only moves forward, so resolving offsets in increasing order costs
/// one pass over the input in total. Its state is absolute: windows over the same input can
/// hand it to each other (`ByteWindow.cursor(at:)`, `adoptCursor`).
public struct LineCursor: Sendable {
    public private(set) var offset = 0
    private var line = 1
    private var column = 1
    /// The previous byte was a CR, so an LF at `offset` ends no second line.
    private var afterCR = false
    private var startedBOMCheck = false

    mutating func position(of target: Int, in window: ByteWindow) -> SourcePosition {
        if target < offset { return SourcePosition(line: line, column: column, byteOffset: offset) }
        advance(to: min(target, window.end), in: window)
        return SourcePosition(line: line, column: column, byteOffset: target)
    }

    mutating func advance(to target: Int, in window: ByteWindow) {
        if !startedBOMCheck && (window.count >= 3 || window.isComplete) {
            startedBOMCheck = true
            if window.start == 0, window.count >= 3, window.base[0] == 0xEF, window.base[1] == 0xBB, window.base[2] == 0xBF {
                offset = 3
            }
        }
        guard target > offset else { return }
        let base = window.base - window.start
        // Worked on in locals: the cursor lives in a class, and its fields would otherwise be
        // loaded and stored around every word.
        var line = self.line, column = self.column, afterCR = self.afterCR
        defer { (self.line, self.column, self.afterCR) = (line, column, afterCR) }
        var i = max(offset, window.start)
        while i < target {
            if !afterCR {
                // While no byte is a CR or non-ASCII, 64 bytes at a time: count the LFs, and take
                // the column from the last one. Indented JSON has an LF every few dozen bytes; a
                // capture's lines run for kilobytes.
                if target - i >= 64 {
                    let counted = LineBreakClassifier.countPlainBlocks(UnsafeRawPointer(base + i), limit: (target - i) / 64)
                    line += counted.lineFeeds
                    // The column after the last LF: the bytes after it, and one.
                    column = counted.lastLineFeed < 0 ? column + counted.blocks * 64 : counted.blocks * 64 - counted.lastLineFeed
                    i += counted.blocks * 64
                }
                // Fewer than 64 bytes before `target`, and 64 visible: one block, its LFs from
                // `target` on masked off. The contract checks ask for positions a few dozen bytes
                // apart, where the words and bytes below cost some 300 instructions a call.
                let remaining = target &- i
                if remaining > 0 && remaining < 64 && i &+ 64 <= window.end {
                    let block = LineBreakClassifier.classify(UnsafeRawPointer(base + i))
                    if !block.needsBytewise {
                        let lineFeeds = block.lineFeeds & ((1 &<< UInt64(remaining)) &- 1)
                        if lineFeeds == 0 {
                            column += remaining
                        } else {
                            line += lineFeeds.nonzeroBitCount
                            // The bytes after the last LF, at bit 63 - leadingZeroBitCount, and one.
                            column = remaining - (63 - lineFeeds.leadingZeroBitCount)
                        }
                        i = target
                        break
                    }
                }
                // Eight bytes at a time up to a CR or non-ASCII byte, or in the last 64 before
                // `target`.
                while i + 8 <= target {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if (SWAR.bytesEqual(w, 0x0D) | w) & SWAR.highBits != 0 { break }
                    let lf = SWAR.exactBytesEqual(w, 0x0A)
                    if lf == 0 {
                        column += 8
                    } else {
                        // One bit a byte, summed by a multiplication (a population count is
                        // a long sequence on baseline x86-64).
                        line += Int(truncatingIfNeeded: ((lf &>> 7) &* SWAR.ones) &>> 56)
                        // Little-endian: the highest set bit belongs to the last LF.
                        let lastLF = (63 - lf.leadingZeroBitCount) / 8
                        column = 8 - lastLF
                    }
                    i += 8
                }
                if i >= target { break }
            }
            let b = base[i]
            if b == 0x0A {
                if !afterCR { line += 1 }
                column = 1
                afterCR = false
            } else if b == 0x0D {
                line += 1
                column = 1
                afterCR = true
            } else {
                afterCR = false
                if b & 0xC0 != 0x80 { column += (b >= 0xF0 ? 2 : 1) }
            }
            i += 1
        }
        offset = target
    }

}

extension ByteWindow {
    /// The position of `offset` in a whole buffer (rule files, configuration, tests).
    public static func position(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition {
        ByteWindow(whole: bytes).position(of: offset)
    }
}
