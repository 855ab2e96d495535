import AuditBytes
import Synchronization

/// A JSON value captured whole for the contract checks, flat: entries in document order (a
/// container before its members, with the index past its last) and one block holding the keys'
/// and scalars' bytes. Building one makes no `String` and no array per container, and dropping
/// it frees an object and two blocks, where a `JSONValue` tree cost a string, an array slot and
/// their release per value (BENCHMARKS.md, "The contract checks on flat captures"). The checks read it
/// through its `view` by entry index and compare bytes; a value is made a `String` or a `JSONValue`
/// only where one is reported, or checked by a schema that reads `JSONValue`s.
///
/// Unchecked: `ManagedBuffer`, which holds a tree's memory, is not `Sendable`, but a tree never
/// changes once built, and a large tree's blocks go back to their scratch under its lock.
public struct CapturedJSON: @unchecked Sendable {
    public enum Kind: UInt8, Sendable {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value, in 32 bytes: a captured member of 4 MB (`ContractDrafts.maxCapturedBytes`)
    /// holds up to two million. Offsets are kept from the root's (a captured member's span fits
    /// 32 bits); `keyStart` is -1 for a value that is not an object's member.
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var kind: Kind
        /// The index past the last entry of the value's subtree.
        @usableFromInline var end: Int32 = 0
        @usableFromInline var keyStart: Int32 = -1
        @usableFromInline var keyCount: Int32 = 0
        /// A string's or number's text in the bytes.
        @usableFromInline var textStart: Int32 = 0
        @usableFromInline var textCount: Int32 = 0
        /// The offsets of the value's first byte and of its key's (members), from the root's.
        @usableFromInline var offset: Int32
        @usableFromInline var keyOffset: Int32 = 0

        @inlinable init(kind: Kind, offset: Int32) {
            self.kind = kind
            self.offset = offset
        }

        /// The member's name among the tree's `bytes` (empty for a value that is not a member).
        @inlinable func key(in bytes: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes + Int(max(keyStart, 0)), count: Int(keyCount))
        }

        /// The string's or number's text among the tree's `bytes` (empty for any other kind).
        @inlinable func text(in bytes: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes + Int(textStart), count: Int(textCount))
        }
    }

    /// The tree's memory, freed with its last copy; never changed once built. A tree copied out
    /// of its builder holds its entries and bytes in the object's own allocation (one `malloc`
    /// a tree, where an object and two blocks took three); a large tree points at the blocks it
    /// was built in (`Loan`).
    @usableFromInline final class Storage: ManagedBuffer<StorageHeader, Entry> {
        // Read through the header's pointer: `header`, a class's stored property, is checked for
        // overlapping access at every read.
        @inlinable var entries: UnsafeMutablePointer<Entry> { withUnsafeMutablePointerToHeader { $0.pointee.entries } }
        @inlinable var entryCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.entryCount } }
        @inlinable var bytes: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToHeader { $0.pointee.bytes } }
        /// The root's offset.
        @inlinable var baseOffset: Int { withUnsafeMutablePointerToHeader { $0.pointee.baseOffset } }

        /// A copy of `entryCount` entries and `byteCount` bytes, in one allocation of room for
        /// `room` elements or more: the entries, then the bytes in the elements after them.
        static func copying(entries: UnsafePointer<Entry>, entryCount: Int, bytes: UnsafePointer<UInt8>, byteCount: Int,
                            baseOffset: Int, room: Int) -> Storage {
            let buffer = create(minimumCapacity: max(room, elementCount(entryCount: entryCount, byteCount: byteCount))) { buffer in
                buffer.withUnsafeMutablePointerToElements { tail in
                    header(copying: entries, entryCount: entryCount, bytes: bytes, byteCount: byteCount, baseOffset: baseOffset,
                           into: tail, capacity: buffer.capacity)
                }
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        /// The elements `entryCount` entries and `byteCount` bytes take.
        static func elementCount(entryCount: Int, byteCount: Int) -> Int {
            entryCount + (byteCount + MemoryLayout<Entry>.stride - 1) / MemoryLayout<Entry>.stride
        }

        /// The entries and bytes copied into `tail`, and the header that finds them.
        private static func header(copying entries: UnsafePointer<Entry>, entryCount: Int, bytes: UnsafePointer<UInt8>, byteCount: Int,
                                   baseOffset: Int, into tail: UnsafeMutablePointer<Entry>, capacity: Int) -> StorageHeader {
            let tailEntries = UnsafeMutableRawPointer(tail).bindMemory(to: Entry.self, capacity: entryCount)
            tailEntries.initialize(from: entries, count: entryCount)
            let tailBytes = UnsafeMutableRawPointer(tail + entryCount).bindMemory(to: UInt8.self, capacity: byteCount)
            tailBytes.initialize(from: bytes, count: byteCount)
            return StorageHeader(entries: tailEntries, entryCount: entryCount, bytes: tailBytes, baseOffset: baseOffset, loan: nil,
                                 capacity: capacity)
        }

        /// Makes this storage, a copy's given back (`SpareStorages`), hold a copy of another
        /// tree's entries and bytes when they fit; whether they did. Entries and bytes are
        /// trivial values: the old ones need no deinitialising.
        func refill(entries: UnsafePointer<Entry>, entryCount: Int, bytes: UnsafePointer<UInt8>, byteCount: Int,
                    baseOffset: Int) -> Bool {
            withUnsafeMutablePointers { header, tail in
                let capacity = header.pointee.capacity
                guard Storage.elementCount(entryCount: entryCount, byteCount: byteCount) <= capacity else { return false }
                header.pointee = Storage.header(copying: entries, entryCount: entryCount, bytes: bytes, byteCount: byteCount,
                                                baseOffset: baseOffset, into: tail, capacity: capacity)
                return true
            }
        }

        /// The blocks a large tree was built in, lent by `loan`'s scratch.
        static func lent(entries: UnsafeMutablePointer<Entry>, entryCount: Int, bytes: UnsafeMutablePointer<UInt8>, baseOffset: Int,
                         loan: Loan) -> Storage {
            let buffer = create(minimumCapacity: 0) { _ in
                StorageHeader(entries: entries, entryCount: entryCount, bytes: bytes, baseOffset: baseOffset, loan: loan, capacity: 0)
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            // The entries and bytes are trivial values: a copy's need no deinitialising.
            if let loan = withUnsafeMutablePointerToHeader({ $0.pointee.loan }) {
                loan.scratch.takeBack(entries: entries, capacity: loan.entryCapacity)
                loan.scratch.takeBack(bytes: bytes, capacity: loan.byteCapacity)
            }
        }
    }

    /// Where a tree's entries and bytes are, and the root's offset.
    @usableFromInline struct StorageHeader {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let entryCount: Int
        @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
        @usableFromInline let baseOffset: Int
        /// The scratch whose blocks a large tree was built in: they go back to it when the tree
        /// is dropped.
        let loan: Loan?
        /// The elements a copy has room for (0 for a large tree's, which holds none).
        let capacity: Int
    }

    /// The storages of copied trees that their holders gave back (`giveBack(_:to:)`), for the
    /// next trees to be copied into. A sync document's captured members are a few small trees
    /// each, made and dropped for every operation; `malloc`, `free` and the object's set-up
    /// and release were some 350 instructions a tree. Kept in raw memory, moved in and out:
    /// an array's uniqueness checks and a retain of each storage cost half of what they spared.
    public final class SpareStorages {
        /// The most kept; with the drafts' trees of a few nested documents at once, a few are
        /// given back at a time.
        static let limit = 16
        /// The room a new copy is made with, in elements (32 bytes): a builder's first room,
        /// which a payload fits, so that the next tree fits the storage too.
        static let room = Scratch.entryRoom + Scratch.byteRoom / MemoryLayout<Entry>.stride

        /// `limit` slots, the first `kept.pointee` holding a storage.
        private let slots = UnsafeMutablePointer<Storage>.allocate(capacity: SpareStorages.limit)
        private let kept = UnsafeMutablePointer<Int>.allocate(capacity: 1)

        public init() { kept.initialize(to: 0) }

        deinit {
            slots.deinitialize(count: kept.pointee)
            slots.deallocate()
            kept.deallocate()
        }

        /// How many storages are kept.
        var count: Int { kept.pointee }

        func keep(_ storage: consuming Storage) {
            guard kept.pointee < SpareStorages.limit else { return }
            (slots + kept.pointee).initialize(to: storage)
            kept.pointee += 1
        }

        /// The storage given back last, taken out.
        func take() -> Storage? {
            guard kept.pointee > 0 else { return nil }
            kept.pointee -= 1
            return (slots + kept.pointee).move()
        }
    }

    /// Takes `tree`, and gives its storage back to `spares` when it was the storage's last
    /// holder and the storage is a copy (a large tree's memory goes back to its scratch when it
    /// is dropped). Checked in place: a copy of the tree would be a second holder.
    public static func giveBack(_ tree: inout CapturedJSON?, to spares: SpareStorages) {
        guard tree != nil else { return }
        guard isKnownUniquelyReferenced(&tree!.storage), tree!.storage.withUnsafeMutablePointerToHeader({ $0.pointee.loan == nil }) else {
            tree = nil
            return
        }
        spares.keep(tree.take().unsafelyUnwrapped.takeStorage())
    }

    /// The storage, moved out of the consumed tree.
    private consuming func takeStorage() -> Storage { storage }

    /// A scratch's blocks lent to a large tree, and their capacities.
    final class Loan: Sendable {
        let scratch: Scratch
        let entryCapacity: Int
        let byteCapacity: Int

        init(scratch: Scratch, entryCapacity: Int, byteCapacity: Int) {
            (self.scratch, self.entryCapacity, self.byteCapacity) = (scratch, entryCapacity, byteCapacity)
        }
    }

    /// A `var` only so that `giveBack` can tell whether a tree is its storage's last holder.
    @usableFromInline var storage: Storage

    /// The tree of a parsed value: a captured member that is a scalar, or a value the checks
    /// make of several captured ones (an entity state's visible payload).
    public init(_ node: JSONValue.Node) {
        var builder = Builder()
        builder.add(node)
        self = builder.takeResult()!
    }

    @usableFromInline init(storage: Storage) { self.storage = storage }

    // MARK: Reading

    /// The tree read where its memory is, without holding it: a view is a few pointers and
    /// counts, copied and passed without reference counting. Valid only while a `CapturedJSON`
    /// holding the tree lives and its storage is not given back (`giveBack`): the contract
    /// checks read a draft's trees through views while the draft holds them. Each copy of a
    /// tree, made as the checks bound a draft's member, passed it on or captured it, retained
    /// and released its storage: some 57 atomic counts an operation of the bench inputs, 7 with
    /// views (BENCHMARKS.md, "The contract checks through views").
    @inlinable public var view: View {
        storage.withUnsafeMutablePointerToHeader { header in
            View(entries: header.pointee.entries, entryCount: header.pointee.entryCount, bytes: header.pointee.bytes,
                 baseOffset: header.pointee.baseOffset)
        }
    }

    /// `body` with the tree's view, the tree kept alive until it returns.
    @inlinable public func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(view) }
    }

    /// A tree's memory, read in place (`view`).
    public struct View {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let entryCount: Int
        @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
        @usableFromInline let baseOffset: Int

        @inlinable init(entries: UnsafeMutablePointer<Entry>, entryCount: Int, bytes: UnsafeMutablePointer<UInt8>, baseOffset: Int) {
            (self.entries, self.entryCount, self.bytes, self.baseOffset) = (entries, entryCount, bytes, baseOffset)
        }

        /// The root's index.
        @inlinable public var root: Int { 0 }
        /// Where the root value begins.
        @inlinable public var rootOffset: Int { baseOffset }

        /// The entry at `i`: an index the tree gave (`root`, `children`, `member`, `descendants`).
        @inlinable func entry(_ i: Int) -> Entry {
            precondition(i >= 0 && i < entryCount, "an index of this tree")
            return entries[i]
        }

        @inlinable public func kind(_ i: Int) -> Kind { entry(i).kind }
        @inlinable public func offset(_ i: Int) -> Int { baseOffset + Int(entry(i).offset) }
        @inlinable public func keyOffset(_ i: Int) -> Int { baseOffset + Int(entry(i).keyOffset) }
        @inlinable public func isContainer(_ i: Int) -> Bool { kind(i) == .object || kind(i) == .array }
        /// Whether the value at `i` is an object's member (has a key).
        @inlinable public func isMember(_ i: Int) -> Bool { entry(i).keyStart >= 0 }

        /// Members of an object, elements of an array (counted: the checks ask of few).
        @inlinable public func count(_ i: Int) -> Int {
            var count = 0
            for _ in children(i) { count += 1 }
            return count
        }

        /// The members or elements of the container at `i`, in document order.
        @inlinable public func children(_ i: Int) -> Children { Children(entries: entries, index: i + 1, end: Int(entry(i).end)) }

        public struct Children: Sequence, IteratorProtocol {
            @usableFromInline let entries: UnsafeMutablePointer<Entry>
            @usableFromInline var index: Int
            @usableFromInline let end: Int

            @inlinable init(entries: UnsafeMutablePointer<Entry>, index: Int, end: Int) {
                (self.entries, self.index, self.end) = (entries, index, end)
            }

            @inlinable public mutating func next() -> Int? {
                guard index < end else { return nil }
                defer { index = Int(entries[index].end) }
                return index
            }
        }

        /// Whether `predicate` holds for the kind and text (as `withText` gives it) of every member
        /// or element of the container at `i`, read in place: through `children`, `kind` and
        /// `withText`, each element read the storage's header and checked its index again, 6 of
        /// the some 50 instructions a weekday of a list cost (BENCHMARKS.md, "The adversarial
        /// inputs' own paths").
        @inlinable public func allChildren(of i: Int, satisfy predicate: (Kind, UnsafeBufferPointer<UInt8>) throws -> Bool) rethrows -> Bool {
            try forEachChildEntry(of: i) { _, entry, bytes in try predicate(entry.kind, entry.text(in: bytes)) }
        }

        /// Calls `body` with the index and entry of each member or element of the container at `i`,
        /// in order, and the tree's bytes, read in place, until it returns false; whether it never
        /// did. (`member` and `allChildren`; `children` gives indices, each read again.)
        @inlinable @discardableResult
        func forEachChildEntry(of i: Int, _ body: (Int, Entry, UnsafeMutablePointer<UInt8>) throws -> Bool) rethrows -> Bool {
            let end = Int(entry(i).end)
            var child = i + 1
            while child < end {
                let entry = entries[child]
                guard try body(child, entry, bytes) else { return false }
                child = Int(entry.end)
            }
            return true
        }

        /// The entries of the value at `i` below it, at every depth.
        @inlinable public func descendants(_ i: Int) -> Range<Int> { (i + 1)..<Int(entry(i).end) }

        /// The last member of the object at `i` named `key` (the one most parsers keep), or nil.
        /// Read from the entries in place: through `children` and `keyIs`, each member cost a
        /// bounds check, the storage's header read twice and a call to compare (some 280
        /// instructions a look-up of an object of two members).
        @inlinable public func member(_ key: StaticString, of i: Int) -> Int? {
            guard kind(i) == .object else { return nil }
            var found: Int?
            forEachChildEntry(of: i) { child, entry, bytes in
                if entry.key(in: bytes).equals(key) { found = child }
                return true
            }
            return found
        }

        /// Whether the member at `i` is named `name`, byte for byte.
        @inlinable public func keyIs(_ i: Int, _ name: StaticString) -> Bool { keyBytes(i).equals(name) }

        /// Calls `body` with the name of each member of the object at `i`, in order.
        @inlinable public func forEachKey(of i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            forEachChildEntry(of: i) { _, entry, bytes in
                body(entry.key(in: bytes))
                return true
            }
        }

        /// Calls `body` with the member's name at `i` (empty for a value that is not a member).
        @inlinable public func withKey<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try body(keyBytes(i))
        }

        /// Calls `body` with the text of the string or number at `i` (a string unescaped; empty for
        /// any other kind).
        @inlinable public func withText<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try body(textBytes(i))
        }

        /// The bytes of the member's name at `i` and of the string's or number's text, in the tree's
        /// memory: valid only while the tree lives.
        @inlinable public func keyBytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            entry(i).key(in: bytes)
        }

        @inlinable public func textBytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            entry(i).text(in: bytes)
        }

        /// The member's name at `i`, made a `String` (for a report).
        @inlinable public func key(_ i: Int) -> String { withKey(i) { String(decoding: $0, as: UTF8.self) } }

        /// The string at `i`, made a `String`; nil for any other kind.
        @inlinable public func string(_ i: Int) -> String? {
            kind(i) == .string ? withText(i) { String(decoding: $0, as: UTF8.self) } : nil
        }

        /// Whether the value at `i` is the string `text`, byte for byte.
        @inlinable public func isString(_ i: Int, _ text: String) -> Bool {
            var text = text
            return text.withUTF8 { isString(i, $0) }
        }

        /// Whether the value at `i` is a string of the UTF-8 `text`, byte for byte.
        @inlinable public func isString(_ i: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            kind(i) == .string && withText(i) { $0.equals(text) }
        }

        /// The boolean at `i`, or nil.
        @inlinable public func bool(_ i: Int) -> Bool? {
            switch kind(i) {
            case .true: true
            case .false: false
            default: nil
            }
        }

        /// The value at `i` as a `JSONValue` tree.
        public func jsonNode(_ i: Int) -> JSONValue.Node {
            let value: JSONValue
            switch kind(i) {
            case .object: value = .object(children(i).map { JSONValue.Member(key: key($0), keyOffset: keyOffset($0), value: jsonNode($0)) })
            case .array: value = .array(children(i).map(jsonNode))
            case .string: value = .string(withText(i) { String(decoding: $0, as: UTF8.self) })
            case .number: value = .number(withText(i) { String(decoding: $0, as: UTF8.self) })
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .null: value = .null
            }
            return JSONValue.Node(value: value, offset: offset(i))
        }

        /// The kind of a value, for messages that must not show the value.
        public func kindName(_ i: Int) -> String {
            switch kind(i) {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .true, .false: "a boolean"
            case .null: "null"
            }
        }
    }

    // MARK: Building

    /// Builds a tree from the events of one JSON value, keys and strings unescaped by the caller.
    /// Its entries, bytes and open containers grow in raw memory of its own, kept from tree to
    /// tree: a finished tree is copied out of it at its exact size or, far larger than a
    /// payload, takes the memory it was built in. Built in arrays, every event paid their
    /// uniqueness and bounds checks and a generic `append(contentsOf:)` (BENCHMARKS.md, "The
    /// contract checks on flat captures").
    public struct Builder: Sendable {
        @usableFromInline let scratch = Scratch()
        @usableFromInline var pendingKeyStart: Int32 = -1
        @usableFromInline var pendingKeyCount: Int32 = 0
        @usableFromInline var pendingKeyOffset: Int32 = 0

        public init() {}

        /// Whether the value is complete: its last container closed, or its scalar given.
        public var isComplete: Bool { scratch.state.pointee.openCount == 0 && scratch.state.pointee.entryCount > 0 }

        /// Takes the finished tree (nil when none was finished) and leaves the builder empty for
        /// the next. With `spares`, a copy goes into a storage kept there, else into a new one
        /// with a builder's first room (`SpareStorages.room`); without, into storage of its size.
        public mutating func takeResult(reusing spares: SpareStorages? = nil) -> CapturedJSON? {
            guard isComplete else { return nil }
            return CapturedJSON(storage: scratch.takeTree(reusing: spares, room: spares == nil ? 0 : SpareStorages.room))
        }

        @inlinable public mutating func key(_ name: UnsafeBufferPointer<UInt8>, at offset: Int) {
            pendingKeyStart = scratch.append(name)
            pendingKeyCount = Int32(truncatingIfNeeded: name.count)
            pendingKeyOffset = scratch.relative(offset)
        }

        @inlinable public mutating func containerStart(isObject: Bool, at offset: Int) {
            let index = append(Entry(kind: isObject ? .object : .array, offset: scratch.relative(offset)))
            scratch.push(Int32(truncatingIfNeeded: index))
        }

        @inlinable public mutating func containerEnd() {
            let state = scratch.state
            guard state.pointee.openCount > 0 else { return }
            state.pointee.openCount -= 1
            state.pointee.entries[Int(state.pointee.open[state.pointee.openCount])].end = Int32(truncatingIfNeeded: state.pointee.entryCount)
        }

        @inlinable public mutating func scalar(_ kind: Kind, _ text: UnsafeBufferPointer<UInt8>, at offset: Int) {
            var entry = Entry(kind: kind, offset: scratch.relative(offset))
            entry.textStart = scratch.append(text)
            entry.textCount = Int32(truncatingIfNeeded: text.count)
            append(entry)
        }

        @inlinable public mutating func literal(_ value: JSONLiteral, at offset: Int) {
            let kind: Kind = switch value {
            case .true: .true
            case .false: .false
            case .null: .null
            }
            append(Entry(kind: kind, offset: scratch.relative(offset)))
        }

        /// Appends `entry` as the next value (a scalar's subtree ends after it; a container's
        /// end is set when it closes): a member of the innermost open object takes the pending
        /// key. Returns its index.
        @inlinable @discardableResult mutating func append(_ entry: consuming Entry) -> Int {
            let state = scratch.state
            if state.pointee.openCount > 0 && state.pointee.entries[Int(state.pointee.open[state.pointee.openCount - 1])].kind == .object {
                entry.keyStart = pendingKeyStart
                entry.keyCount = pendingKeyCount
                entry.keyOffset = pendingKeyOffset
            }
            let index = state.pointee.entryCount
            entry.end = Int32(truncatingIfNeeded: index + 1)
            if index == state.pointee.entryCapacity { scratch.growEntries() }
            (state.pointee.entries + index).initialize(to: entry)
            state.pointee.entryCount = index + 1
            return index
        }

        /// Adds a parsed value, as its events would.
        mutating func add(_ node: JSONValue.Node) {
            switch node.value {
            case .object(let members):
                containerStart(isObject: true, at: node.offset)
                for member in members {
                    var name = member.key
                    name.withUTF8 { key($0, at: member.keyOffset) }
                    add(member.value)
                }
                containerEnd()
            case .array(let elements):
                containerStart(isObject: false, at: node.offset)
                for element in elements { add(element) }
                containerEnd()
            case .string(var text): text.withUTF8 { scalar(.string, $0, at: node.offset) }
            case .number(var text): text.withUTF8 { scalar(.number, $0, at: node.offset) }
            case .bool(let b): literal(b ? .true : .false, at: node.offset)
            case .null: literal(.null, at: node.offset)
            }
        }
    }

    /// A builder's memory: entries, bytes and the open containers' indices, each grown by
    /// doubling. Its counts live behind a pointer, not in stored `var`s, which Swift would check
    /// for overlapping access at every event (as `UncheckedBox` does for a scan's state). One
    /// builder uses it, on one thread.
    @usableFromInline final class Scratch: @unchecked Sendable {
        @usableFromInline struct State {
            @usableFromInline var entries: UnsafeMutablePointer<Entry>
            @usableFromInline var entryCount = 0
            @usableFromInline var entryCapacity: Int
            @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
            @usableFromInline var byteCount = 0
            @usableFromInline var byteCapacity: Int
            @usableFromInline var open: UnsafeMutablePointer<Int32>
            @usableFromInline var openCount = 0
            @usableFromInline var openCapacity: Int
            /// The tree's root offset, once its first value came.
            @usableFromInline var baseOffset = 0
        }

        /// The room a builder starts with and keeps: a payload fits. A tree of more entries or
        /// bytes than 64 times that takes the builder's memory with it instead of a copy.
        static let entryRoom = 64, byteRoom = 1024, openRoom = 16, handOver = 64

        @usableFromInline let state: UnsafeMutablePointer<State>
        /// Blocks of a large tree, given back when it was dropped (`takeBack`), for the next large
        /// tree to grow into: a fresh block of megabytes is memory the kernel maps page by page
        /// at its first write, and a 100 MB push body of 1 MB payloads spent 40 % of its time
        /// there. One of each kind, the largest given back; behind a lock, as a tree may be
        /// dropped on another thread than the one that builds.
        private var spareEntries: (block: UnsafeMutablePointer<Entry>, capacity: Int)?
        private var spareBytes: (block: UnsafeMutablePointer<UInt8>, capacity: Int)?
        private let spareLock = Mutex<Void>(())

        init() {
            state = .allocate(capacity: 1)
            state.initialize(to: State(entries: .allocate(capacity: Scratch.entryRoom), entryCapacity: Scratch.entryRoom,
                                       bytes: .allocate(capacity: Scratch.byteRoom), byteCapacity: Scratch.byteRoom,
                                       open: .allocate(capacity: Scratch.openRoom), openCapacity: Scratch.openRoom))
        }

        deinit {
            state.pointee.entries.deallocate()
            state.pointee.bytes.deallocate()
            state.pointee.open.deallocate()
            state.deallocate()
            spareEntries?.block.deallocate()
            spareBytes?.block.deallocate()
        }

        /// `offset` from the tree's root offset (the first value's sets it). A captured member
        /// spans at most `ContractDrafts.maxCapturedBytes`, far within 32 bits.
        @inlinable func relative(_ offset: Int) -> Int32 {
            if state.pointee.entryCount == 0 && state.pointee.openCount == 0 { state.pointee.baseOffset = offset }
            return Int32(offset - state.pointee.baseOffset)
        }

        /// Appends `bytes`; returns where they start.
        @inlinable func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            let start = state.pointee.byteCount
            if state.pointee.byteCapacity - start < bytes.count { growBytes(toHold: start + bytes.count) }
            if let base = bytes.baseAddress { (state.pointee.bytes + start).update(from: base, count: bytes.count) }
            state.pointee.byteCount = start + bytes.count
            return Int32(start)
        }

        @inlinable func push(_ index: Int32) {
            if state.pointee.openCount == state.pointee.openCapacity { growOpen() }
            state.pointee.open[state.pointee.openCount] = index
            state.pointee.openCount += 1
        }

        @usableFromInline func growEntries() {
            (state.pointee.entries, state.pointee.entryCapacity) =
                enlarged(state.pointee.entries, count: state.pointee.entryCount, toHold: state.pointee.entryCapacity * 2, spare: \.spareEntries)
        }

        @usableFromInline func growBytes(toHold count: Int) {
            var needed = state.pointee.byteCapacity
            while needed < count { needed *= 2 }
            (state.pointee.bytes, state.pointee.byteCapacity) =
                enlarged(state.pointee.bytes, count: state.pointee.byteCount, toHold: needed, spare: \.spareBytes)
        }

        @usableFromInline func growOpen() {
            state.pointee.openCapacity *= 2
            state.pointee.open = moved(state.pointee.open, count: state.pointee.openCount, into: .allocate(capacity: state.pointee.openCapacity))
        }

        /// The first `count` of `old` moved into `new`; `old` is freed.
        private func moved<T>(_ old: UnsafeMutablePointer<T>, count: Int, into new: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            new.moveInitialize(from: old, count: count)
            old.deallocate()
            return new
        }

        /// The first `count` of `block` moved into the spare block at `spare` when it holds
        /// `needed` or more (it is then no longer spare), else into a new block of `needed`;
        /// `block` is freed. The new block and its capacity.
        private func enlarged<T>(_ block: UnsafeMutablePointer<T>, count: Int, toHold needed: Int,
                                 spare: ReferenceWritableKeyPath<Scratch, (block: UnsafeMutablePointer<T>, capacity: Int)?>)
            -> (block: UnsafeMutablePointer<T>, capacity: Int) {
            nonisolated(unsafe) var taken: (block: UnsafeMutablePointer<T>, capacity: Int)?
            spareLock.withLock { _ in
                guard let spareBlock = self[keyPath: spare], spareBlock.capacity >= needed else { return }
                (taken, self[keyPath: spare]) = (spareBlock, nil)
            }
            let target = taken ?? (.allocate(capacity: needed), needed)
            return (moved(block, count: count, into: target.block), target.capacity)
        }

        /// A large tree's entry block, back from the tree: kept as the spare when larger than
        /// the one there, else freed.
        func takeBack(entries: UnsafeMutablePointer<Entry>, capacity: Int) {
            keep((entries, capacity), as: \.spareEntries)
        }

        /// A large tree's byte block, back from the tree (as `takeBack(entries:)`).
        func takeBack(bytes: UnsafeMutablePointer<UInt8>, capacity: Int) {
            keep((bytes, capacity), as: \.spareBytes)
        }

        private func keep<T>(_ block: (block: UnsafeMutablePointer<T>, capacity: Int),
                             as spare: ReferenceWritableKeyPath<Scratch, (block: UnsafeMutablePointer<T>, capacity: Int)?>) {
            nonisolated(unsafe) var freed: UnsafeMutablePointer<T>?
            spareLock.withLock { _ in
                if let kept = self[keyPath: spare], kept.capacity >= block.capacity {
                    freed = block.block
                } else {
                    freed = self[keyPath: spare]?.block
                    self[keyPath: spare] = block
                }
            }
            freed?.deallocate()
        }

        /// The finished tree's memory: a copy of its exact size or, for a tree far larger than
        /// a payload, the blocks it was built in (a copy would double its peak), lent until the
        /// tree is dropped, the scratch starting again with its first room. The scratch is left
        /// empty.
        /// A copy goes into a storage of `spares` where one fits, else into a new one with room
        /// for `room` elements or more.
        func takeTree(reusing spares: SpareStorages?, room: Int) -> Storage {
            let s = state.pointee
            state.pointee.entryCount = 0
            state.pointee.byteCount = 0
            guard s.entryCount > Scratch.entryRoom * Scratch.handOver || s.byteCount > Scratch.byteRoom * Scratch.handOver else {
                // A spare too small for this tree is dropped: the new copy has room for it and more.
                if let spare = spares?.take(),
                   spare.refill(entries: s.entries, entryCount: s.entryCount, bytes: s.bytes, byteCount: s.byteCount, baseOffset: s.baseOffset) {
                    return spare
                }
                return Storage.copying(entries: s.entries, entryCount: s.entryCount, bytes: s.bytes, byteCount: s.byteCount,
                                       baseOffset: s.baseOffset, room: room)
            }
            (state.pointee.entries, state.pointee.entryCapacity) = (.allocate(capacity: Scratch.entryRoom), Scratch.entryRoom)
            (state.pointee.bytes, state.pointee.byteCapacity) = (.allocate(capacity: Scratch.byteRoom), Scratch.byteRoom)
            return Storage.lent(entries: s.entries, entryCount: s.entryCount, bytes: s.bytes, baseOffset: s.baseOffset,
                                loan: Loan(scratch: self, entryCapacity: s.entryCapacity, byteCapacity: s.byteCapacity))
        }
    }
}
