import AuditBytes
import AuditDetection
import AuditInputs

/// What the scan needs to know about a key name: the name rule it matches, the inventory store
/// it names, and what it means in sync documents. Plain data (no references), so the millions of
/// lookups of a scan copy it for free; the name match itself stays in the cache.
struct KeyFacts: Equatable {
    /// Index of the key's `NameMatch` in the cache, or -1.
    var nameIndex: Int32 = -1
    /// Index of a store in `Inventory.stores`, or -1.
    var storeIndex: Int32 = -1
    /// The document and message key it is (`entityId`, `payload`, `operations`, …), if any.
    var shape: ShapeKeys = []
    /// The app's own sensitive-name rule matches it (`AppSensitiveName`).
    var isAppSensitive = false
    /// A SharedPreferences key (`flutter.…`, the secure-storage prefix).
    var isPrefsKey = false
    /// Some pattern rule matches the key itself (a secret used as a key): only such keys are
    /// scanned with the pattern rules again where they occur.
    var matchesPattern = false
    /// The context rules whose provider keyword the key holds (`cloudflare_token`): its value
    /// is read as if the keyword stood beside it.
    var contextRules: ContextMask = 0
    /// The member of a name/value object the key names (`NameValuePairs`), if any.
    var pairRole = NameValueRole.none
    /// Index of the key's text in the cache (`KeyFactsCache.text(of:)`), or -1 for a key the
    /// cache did not keep.
    var textIndex: Int32 = -1

    static let none = KeyFacts()
    var store: Int? { storeIndex < 0 ? nil : Int(storeIndex) }
}

/// A key judged outside the cache (`ArtifactScan.judgeKey`): its facts, and the name rule it
/// matches, which the cache would keep by index.
struct KeyJudgement {
    var facts: KeyFacts
    var name: NameMatch?
}

/// Remembers `KeyFacts` by exact key bytes. Real inputs use a small vocabulary of keys
/// (`entityId`, `payload`, `title`, …) millions of times, so each distinct key is judged once.
/// Per thread; bounded (it stops learning when full, it never evicts or grows past its limits).
/// Slots and key bytes live in raw memory: a lookup takes no reference counting and no
/// uniqueness check.
public final class KeyFactsCache {
    private static let slotCount = 4096
    private static let maxKeyLength = 64
    private static let arenaLimit = 256 * 1024

    /// Sixteen bytes, so that the slots (64 KB) stay in the faster caches: the lookups of a scan
    /// land on random slots.
    private struct Slot {
        var hash: UInt64 = 0
        var start: Int32 = 0
        var length: Int16 = -1
        /// Index into `results`.
        var result: Int16 = -1
    }

    private let slots: UnsafeMutablePointer<Slot>

    /// A key learnt, by its index in `results` (the order it was learnt in): where its bytes
    /// are, and the key found right after it the last time (-1: none). Its slot keeps where its
    /// bytes are too, so that a probe compares within the slot it reads.
    private struct Learnt {
        var start: Int32
        var length: Int16
        var successor: Int16 = -1
    }

    /// The keys learnt, and in `lastFound` the one found last (-1: none). Sync data repeats its
    /// documents' shapes, so the next key is mostly the one that followed last time: compared
    /// with that key first, it is found without being hashed or probed for. Dense, so that the
    /// few keys of a real input share a few cache lines, where the slots they hash to lie
    /// anywhere in 64 KB: a prediction through the slots waited on two loads from the second-level
    /// cache. Raw memory, like `slots`.
    private let learnt: UnsafeMutablePointer<Learnt>
    private let lastFound: UnsafeMutablePointer<Int>
    /// The bytes of the keys learnt, one after another (`arenaCount` of `arenaCapacity` used).
    /// Read on every lookup, so in boxes (see `UncheckedBox`).
    private let arenaBox: UncheckedBox<UnsafeMutablePointer<UInt8>>
    private var arena: UnsafeMutablePointer<UInt8> {
        _read { yield arenaBox.value }
        _modify { yield &arenaBox.value }
    }
    private var arenaCount = 0
    private var arenaCapacity = KeyFactsCache.initialArenaCapacity
    private static let initialArenaCapacity = 4096
    private let resultsBox = UncheckedBox<[KeyFacts]>([])
    private var results: [KeyFacts] {
        _read { yield resultsBox.value }
        _modify { yield &resultsBox.value }
    }
    private var names: [NameMatch] = []
    /// The text of each key kept, for the contract checks' trees: a payload's keys recur in every
    /// document, and decoding each occurrence into a `String` again cost about 190 instructions.
    /// Read for every key of a captured member, so in a box (see `UncheckedBox`).
    private let textsBox = UncheckedBox<[String]>([])
    private var texts: [String] {
        _read { yield textsBox.value }
        _modify { yield &textsBox.value }
    }
    /// `KeyFacts.nameIndex` of a key the cache could not keep (too long, or the cache is full)
    /// that matches a name rule: the name is matched again from the key (`hasUncachedName`), so
    /// that no answer depends on which key was looked up last.
    private static let uncachedNameIndex = Int32.max

    init() {
        slots = .allocate(capacity: KeyFactsCache.slotCount)
        slots.initialize(repeating: Slot(), count: KeyFactsCache.slotCount)
        learnt = .allocate(capacity: KeyFactsCache.slotCount)
        lastFound = .allocate(capacity: 1)
        lastFound.initialize(to: -1)
        arenaBox = UncheckedBox(.allocate(capacity: KeyFactsCache.initialArenaCapacity))
    }

    deinit {
        slots.deallocate()
        learnt.deallocate()
        lastFound.deallocate()
        arena.deallocate()
    }

    /// Whether `facts` are of a key the cache could not keep and that matches a name rule.
    static func hasUncachedName(_ facts: KeyFacts) -> Bool {
        facts.nameIndex == uncachedNameIndex
    }

    /// The name match of facts this cache returned; nil for a key it could not keep
    /// (`hasUncachedName` says whether that key has one).
    func name(of facts: KeyFacts) -> NameMatch? {
        facts.nameIndex < 0 || KeyFactsCache.hasUncachedName(facts) ? nil : names[Int(facts.nameIndex)]
    }

    /// The text of the key `facts` were returned for, when the cache kept it.
    func text(of facts: KeyFacts) -> String? {
        facts.textIndex < 0 ? nil : texts.withUnsafeBufferPointer { $0[Int(facts.textIndex)] }
    }

    /// A look-up's answer: the facts, or where a key the cache does not hold would go (its
    /// hash, and a free slot if the probe found one).
    enum Lookup {
        case found(KeyFacts)
        case missed(Miss)
    }

    struct Miss {
        fileprivate var hash: UInt64
        fileprivate var free: Int?
    }

    /// The cached facts for `key`, or where to keep them (`learn`) once judged. A look-up and a
    /// separate `learn`, not one call with a closure to judge a miss: the closure's context
    /// kept the scan retained around every look-up.
    func lookUp(_ key: UnsafeBufferPointer<UInt8>) -> Lookup {
        let previous = lastFound.pointee
        if previous >= 0 {
            let predicted = Int(learnt[previous].successor)
            if predicted >= 0 {
                let candidate = learnt[predicted]
                if Int(candidate.length) == key.count && KeyFactsCache.equal(arena + Int(candidate.start), key) {
                    lastFound.pointee = predicted
                    return .found(results.withUnsafeBufferPointer { $0[predicted] })
                }
            }
        }
        var free: Int?
        let hash = WordHash.hash(key)
        if key.count <= KeyFactsCache.maxKeyLength {
            var index = Int(truncatingIfNeeded: hash) & (KeyFactsCache.slotCount - 1)
            for _ in 0..<8 {
                let slot = slots[index]
                if slot.length < 0 {
                    free = index
                    break
                }
                if slot.hash == hash && Int(slot.length) == key.count && KeyFactsCache.equal(arena + Int(slot.start), key) {
                    if previous >= 0 { learnt[previous].successor = slot.result }
                    lastFound.pointee = Int(slot.result)
                    return .found(results.withUnsafeBufferPointer { $0[Int(slot.result)] })
                }
                index = (index + 1) & (KeyFactsCache.slotCount - 1)
            }
        }
        // A key the cache does not hold breaks the chain: the next key is probed for.
        lastFound.pointee = -1
        return .missed(Miss(hash: hash, free: free))
    }

    /// Keeps the facts and name match judged for a `key` that `lookUp` missed (while there is
    /// room), and returns the facts as the cache answers them.
    func learn(_ key: UnsafeBufferPointer<UInt8>, _ judged: KeyJudgement, at miss: Miss) -> KeyFacts {
        var facts = judged.facts
        let name = judged.name
        let hash = miss.hash
        guard let free = miss.free, arenaCount + key.count <= KeyFactsCache.arenaLimit else {
            if name != nil { facts.nameIndex = KeyFactsCache.uncachedNameIndex }
            return facts
        }
        if let name {
            facts.nameIndex = Int32(names.count)
            names.append(name)
        }
        facts.textIndex = Int32(texts.count)
        texts.append(JSONString.decode(key, escaped: false))
        let resultIndex = results.count
        results.append(facts)
        slots[free] = Slot(hash: hash, start: Int32(arenaCount), length: Int16(key.count), result: Int16(resultIndex))
        (learnt + resultIndex).initialize(to: Learnt(start: Int32(arenaCount), length: Int16(key.count)))
        if arenaCount + key.count > arenaCapacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: min(KeyFactsCache.arenaLimit, 2 * (arenaCount + key.count)))
            grown.update(from: arena, count: arenaCount)
            arena.deallocate()
            arena = grown
            arenaCapacity = min(KeyFactsCache.arenaLimit, 2 * (arenaCount + key.count))
        }
        if let base = key.baseAddress { (arena + arenaCount).update(from: base, count: key.count) }
        arenaCount += key.count
        return facts
    }

    /// Whether the `key.count` bytes at `stored` are `key`'s.
    @inline(__always)
    private static func equal(_ stored: UnsafePointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = key.baseAddress else { return true }
        return UnsafeRawPointer(stored).sameBytes(as: UnsafeRawPointer(base), count: key.count)
    }

    /// FNV-1a, 64-bit.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        key.withMemoryRebound(to: UInt8.self) { hash($0) }
    }

    /// FNV-1a, 64-bit.
    @inline(__always)
    public static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
