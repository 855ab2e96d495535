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

    /// `slotCount` slots, and `lengths.upperBound` bytes for each; none until a value is remembered.
    private var slots: UnsafeMutablePointer<Slot>?
    private var bytes: UnsafeMutablePointer<UInt8>?
    private(set) var slotCount = 0
    /// Values remembered since the table was made.
    private var taken = 0

    deinit {
        slots?.deallocate()
        bytes?.deallocate()
    }

    /// A value looked up: whether it was remembered, and its hash, for `remember`.
    struct Lookup {
        let isRemembered: Bool
        fileprivate let settings: Settings
        fileprivate let hash: UInt64
    }

    /// Looks `value` up in `settings`; nil for a value of a length not kept.
    func lookUp(_ value: UnsafeRawBufferPointer, _ settings: Settings) -> Lookup? {
        guard QuietValues.lengths.contains(value.count) else { return nil }
        let hash = QuietValues.hash(value, settings)
        guard let slots, let bytes else { return Lookup(isRemembered: false, settings: settings, hash: hash) }
        let index = index(of: hash)
        let slot = slots[index]
        let isRemembered = slot.hash == hash && Int(slot.length) == value.count && slot.settings == settings
            && memcmp(bytes + index * QuietValues.lengths.upperBound, value.baseAddress!, value.count) == 0
        return Lookup(isRemembered: isRemembered, settings: settings, hash: hash)
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
