import AuditBytes
import AuditDetection
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// String values in which the layer decoders opened nothing and the pattern rules found
/// nothing, remembered with everything that outcome depends on, so that the same value in the
/// same settings is not decoded and scanned again. Sync data repeats its values: a device id in
/// every operation, a habit's id in every entry, a capture's headers in every request; in the
/// bench inputs three in five values of 8 bytes or more are repeats.
///
/// Only that outcome is remembered: a value in which anything was found, opened or refused is
/// scanned every time. Decoders and pattern rules are pure functions of the bytes and the
/// settings kept here (`Settings`), so a value remembered would come out the same again.
/// Direct-mapped: a value takes the slot its hash names, in place of what was there. The table
/// starts small and grows, forgetting what it held, each time it has taken as many values as it
/// has slots, up to 4,096 slots (about 350 KB). A worker keeps its table from input to input
/// (`WorkerCaches`); growing it spares a scan of few values, alone or as a shared input's second
/// worker, the full table (made for each of 3,000 small files, it cost their scan 9 % more
/// instructions).
///
/// Some keys' values never recur (an operation's id, an entity's, a timestamp): a third of a
/// sync log's lookups, each a load from a random slot. A value is looked up with the key it is
/// under (`KeyFacts.textIndex`, from the JSON visitor), and a key whose last `sampledAfter`
/// lookups found nothing has its values looked up once in `sampledAfter` only, until one is
/// found again. A value not looked up is scanned, as one not found would be: the answers are
/// the same.
final class QuietValues {
    /// What the outcome depends on besides the bytes.
    struct Settings: Equatable {
        var context: ContextMask
        var excluded: UInt16
        var depth: UInt8
        var kind: TextKind?

        init(context: ContextMask, excluded: UInt16, depth: Int, kind: TextKind?) {
            self.context = context
            self.excluded = excluded
            self.depth = UInt8(truncatingIfNeeded: min(depth, 255))
            self.kind = kind
        }
    }

    private struct Slot {
        var hash: UInt64 = 0
        var settings: Settings
        /// -1: empty.
        var length: Int16 = -1
    }

    /// Shorter values cost less to scan than a lookup; longer ones repeat less.
    static let lengths = 8...64
    static let slotCounts = (first: 64, last: 4096)

    /// The lookups in a row that found nothing after which a key's values are sampled, and the
    /// share sampled (one in this many).
    static let sampledAfter: UInt16 = 64

    /// For each key index below `KeyFactsCache.capacity`, the lookups under it since one found
    /// its value (wrapping to 0 after 65,535, which starts the count afresh).
    private let keyMisses: UnsafeMutablePointer<UInt16> = {
        let counts = UnsafeMutablePointer<UInt16>.allocate(capacity: KeyFactsCache.capacity)
        counts.initialize(repeating: 0, count: KeyFactsCache.capacity)
        return counts
    }()

    /// `slotCount` slots, and `lengths.upperBound` bytes for each; none until a value is remembered.
    private var slots: UnsafeMutablePointer<Slot>?
    private var bytes: UnsafeMutablePointer<UInt8>?
    private(set) var slotCount = 0
    /// Values remembered since the table was made.
    private var taken = 0

    deinit {
        keyMisses.deallocate()
        slots?.deallocate()
        bytes?.deallocate()
    }

    /// A value looked up: whether it was remembered, and its hash, for `remember`.
    struct Lookup {
        let isRemembered: Bool
        fileprivate let settings: Settings
        fileprivate let hash: UInt64
    }

    /// Looks `value` up in `settings`, under the key of index `key` (-1: none); nil for a value
    /// of a length not kept, or not looked up because its key's values do not recur.
    func lookUp(_ value: UnsafeRawBufferPointer, _ settings: Settings, key: Int32 = -1) -> Lookup? {
        guard QuietValues.lengths.contains(value.count) else { return nil }
        let misses = key >= 0 ? keyMisses[Int(key)] : 0
        if misses >= QuietValues.sampledAfter && misses % QuietValues.sampledAfter != 0 {
            keyMisses[Int(key)] = misses &+ 1
            return nil
        }
        let hash = QuietValues.hash(value, settings)
        let isRemembered = holds(value, settings, hash: hash)
        if key >= 0 { keyMisses[Int(key)] = isRemembered ? 0 : misses &+ 1 }
        return Lookup(isRemembered: isRemembered, settings: settings, hash: hash)
    }

    /// Whether the table holds `value` in `settings` (none before a value is remembered).
    /// Inlined: out of line, the profile-guided build read 0.3–0.5 % more instructions on the
    /// bench inputs (callgrind, 4 MB).
    @inline(__always)
    private func holds(_ value: UnsafeRawBufferPointer, _ settings: Settings, hash: UInt64) -> Bool {
        guard let slots, let bytes else { return false }
        let index = index(of: hash)
        let slot = slots[index]
        return slot.hash == hash && Int(slot.length) == value.count && slot.settings == settings
            && memcmp(bytes + index * QuietValues.lengths.upperBound, value.baseAddress!, value.count) == 0
    }

    /// Remembers that `value`, looked up as `lookup`, gave nothing.
    func remember(_ value: UnsafeRawBufferPointer, _ lookup: Lookup) {
        if taken == slotCount && slotCount < QuietValues.slotCounts.last { makeTable(slotCount: slotCount == 0 ? QuietValues.slotCounts.first : slotCount * 4) }
        taken += 1
        let index = index(of: lookup.hash)
        slots![index] = Slot(hash: lookup.hash, settings: lookup.settings, length: Int16(value.count))
        (bytes! + index * QuietValues.lengths.upperBound).update(from: value.baseAddress!.assumingMemoryBound(to: UInt8.self), count: value.count)
    }

    /// The text kind is left out of the seed, which only picks the slot: the settings are
    /// compared whole, and a value met under two kinds (only a capture's bodies declare one)
    /// merely shares its slot.
    private static func hash(_ value: UnsafeRawBufferPointer, _ settings: Settings) -> UInt64 {
        let seed = settings.context ^ UInt64(settings.excluded) &<< 48 ^ UInt64(settings.depth) &<< 40
        return WordHash.hash(value.assumingMemoryBound(to: UInt8.self), seed: seed)
    }

    private func index(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash) & (slotCount - 1)
    }

    /// A new, empty table of `slotCount` slots in place of the one there was.
    private func makeTable(slotCount: Int) {
        slots?.deallocate()
        bytes?.deallocate()
        let empty = Slot(settings: Settings(context: 0, excluded: 0, depth: 0, kind: nil))
        slots = .allocate(capacity: slotCount)
        slots!.initialize(repeating: empty, count: slotCount)
        bytes = .allocate(capacity: slotCount * QuietValues.lengths.upperBound)
        self.slotCount = slotCount
        taken = 0
    }
}
