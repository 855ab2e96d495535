import AuditBytes
import AuditCore

/// The contract's classes of data.
public enum DataClass: String, Sendable, CaseIterable, Comparable {
    case synchronized
    case deviceLocal = "device-local"
    case derived
    case sensitive
    case unsupported

    /// The position among `allCases`: a switch, where `allCases.firstIndex` searched an array
    /// on every comparison and verdict.
    public var rank: Int {
        switch self {
        case .synchronized: 0
        case .deviceLocal: 1
        case .derived: 2
        case .sensitive: 3
        case .unsupported: 4
        }
    }

    public static func < (a: DataClass, b: DataClass) -> Bool { a.rank < b.rank }
}

/// What seeing data of a class in a context means.
public enum Verdict: String, Sendable, CaseIterable, Comparable {
    /// Expected there.
    case allowed
    /// Listed in the report's inventory section, not a finding.
    case note
    case warning
    case error

    /// The position among `allCases`, as a switch.
    public var rank: Int {
        switch self {
        case .allowed: 0
        case .note: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (a: Verdict, b: Verdict) -> Bool { a.rank < b.rank }
}

/// One store or field of the data contract's persistence inventory.
public struct Store: Sendable, Equatable {
    public var id: String
    /// As the contract's table names it.
    public var name: String
    /// The contract table it comes from.
    public var table: String
    public var classes: [DataClass]
    public var qualifier: String?
    /// The contract's reason for the classification.
    public var reason: String
    /// Keys in `FlutterSharedPreferences.xml`, without `flutter.`.
    public var prefsKeys: [String]
    /// Field names that carry this data inside JSON.
    public var jsonFields: [String]
    public var nativePrefsFiles: [String]
    public var nativeKeys: [String]
    public var secureStorageKeys: [String]

    public var isSensitive: Bool { classes.contains(.sensitive) }

    /// A store the app keeps in plain SharedPreferences by design (it has prefs keys and no
    /// secure-storage key): a prefs export is where it lives, not where it leaked to. Not a
    /// store the contract calls sensitive outright (`habiter_storage_backup_v0`, the verbatim
    /// legacy values with the old AI key): a prefs export carries that recovery material off
    /// the device. A sensitive-adjacent one (`habiter_ai_config`: provider and model) does live
    /// there by design.
    public var livesInPlainPrefs: Bool {
        !prefsKeys.isEmpty && secureStorageKeys.isEmpty && (!isSensitive || qualifier == "Sensitive-adjacent")
    }
}

/// The classification inventory of the data contract (`rules/inventory.json`): every store and
/// field, its class and the contract's reason, how it appears on disk and on the wire, the
/// setting registry, and the verdict for each class in each context. Immutable, and a class so
/// that the per-document checks share it without copying its tables.
public final class Inventory: Sendable {
    public let stores: [Store]
    public let settings: [SettingDefinition]
    /// Verdicts by class, then context.
    public let verdicts: [DataClass: [ScanContext: Verdict]]

    /// Stores by prefs key (without `flutter.`), by JSON field name and by secure-storage key:
    /// perfect hashes over the names' bytes, asked for every preference and every new key.
    private let byPrefsKey: PerfectByteTable
    private let byJSONField: PerfectByteTable
    private let bySecureStorageKey: PerfectByteTable
    private let settingsByKey: [String: Int]
    /// `verdicts` flattened, by class rank then context rank; `.error` where it has none.
    private let verdictTable: [Verdict]
    /// The row length of `verdictTable`, counted once: `allCases` makes its array when asked.
    private static let contextCount = ScanContext.allCases.count

    public init(stores: [Store], settings: [SettingDefinition], verdicts: [DataClass: [ScanContext: Verdict]]) {
        self.stores = stores
        self.settings = settings
        self.verdicts = verdicts
        verdictTable = DataClass.allCases.flatMap { dataClass in
            ScanContext.allCases.map { verdicts[dataClass]?[$0] ?? .error }
        }
        // The first store to name a key keeps it (`PerfectByteTable` keeps a key's first entry).
        var byPrefsKey: [(key: [UInt8], value: Int)] = [], byJSONField: [(key: [UInt8], value: Int)] = []
        var bySecureStorageKey: [(key: [UInt8], value: Int)] = []
        for (i, store) in stores.enumerated() {
            byPrefsKey += store.prefsKeys.map { (Array($0.utf8), i) }
            byJSONField += (store.jsonFields + store.prefsKeys + store.secureStorageKeys).map { (Array($0.utf8), i) }
            // A store that synchronizes, whole or in part, travels under these names as reviewed
            // data (a habit's `smartReminders`): its aliases name the projection, not the store.
            let synchronizes = stores.contains { other in
                other.classes.contains(.synchronized) && (other.id == store.id || other.id.hasPrefix(store.id + "."))
            }
            for key in store.prefsKeys + store.secureStorageKeys where !synchronizes {
                byJSONField += Inventory.aliases(of: key).map { (Array($0.utf8), i) }
            }
            bySecureStorageKey += store.secureStorageKeys.map { (Array($0.utf8), i) }
        }
        self.byPrefsKey = PerfectByteTable(byPrefsKey)
        self.byJSONField = PerfectByteTable(byJSONField)
        self.bySecureStorageKey = PerfectByteTable(bySecureStorageKey)
        settingsByKey = Dictionary(settings.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names app code gives a store's key when it carries the store in a payload:
    /// `habiter_ai_config` as `ai_config`, `aiConfig` or `habiterAiConfig`,
    /// `habiter_smart_reminders_v1` as `smartReminders` or `smart_reminders_v1`. Without the
    /// `habiter_` prefix, without a `_v1` (or `.v1`) suffix, and in camelCase, each alone and
    /// together. An alias of one word (`habits`, `onboarding`) says nothing alone and is left out.
    public static func aliases(of key: String) -> [String] {
        var bases = [key]
        if key.hasPrefix("habiter_") { bases.append(String(key.dropFirst("habiter_".count))) }
        for base in bases {
            if let unversioned = withoutVersionSuffix(base) { bases.append(unversioned) }
        }
        var aliases: [String] = []
        // By bytes, as the words are ASCII letters and digits: Character's letter test and
        // `uppercased()` were 2.6 M of the 65 M instructions of a scan's start-up.
        for base in bases {
            let words = base.utf8.split(whereSeparator: { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") })
            guard words.count >= 2, words.allSatisfy({ $0.allSatisfy(ASCIICase.isLetterOrDigit) }) else { continue }
            var camel = Array(words[0])
            for word in words.dropFirst() {
                camel.append(ASCIICase.upper(word.first!))
                camel += word.dropFirst()
            }
            for alias in [base, String(decoding: camel, as: UTF8.self)] where alias != key && !aliases.contains(alias) { aliases.append(alias) }
        }
        return aliases
    }

    /// `name` without its version suffix (`_v1`, `.v12`), nil when it has none. By hand: the
    /// regular expression it replaces was 14 % of loading the rule pack.
    static func withoutVersionSuffix(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        var digits = bytes.count
        while digits > 0, bytes[digits - 1] &- 0x30 < 10 { digits -= 1 }
        guard digits < bytes.count, digits >= 2, bytes[digits - 1] == UInt8(ascii: "v"),
              bytes[digits - 2] == UInt8(ascii: "_") || bytes[digits - 2] == UInt8(ascii: ".") else { return nil }
        return String(decoding: bytes[..<(digits - 2)], as: UTF8.self)
    }

    /// The store a prefs key (without `flutter.`) belongs to.
    public func store(prefsKey key: String) -> Int? { byPrefsKey.value(key) }

    /// The store a JSON field name names (a runtime field, a prefs store name, a secure key).
    public func store(jsonField name: String) -> Int? { byJSONField.value(name) }

    /// The store a JSON field name, as UTF-8 bytes, names.
    public func store(jsonField name: UnsafeBufferPointer<UInt8>) -> Int? { byJSONField.value(name) }

    /// The store a secure-storage key belongs to.
    public func store(secureStorageKey key: String) -> Int? { bySecureStorageKey.value(key) }

    /// The registered setting with this stable key.
    public func setting(_ key: String) -> SettingDefinition? { settingsByKey[key].map { settings[$0] } }

    /// The verdict for data of one class in `context` (asked for every unlisted prefs key: no
    /// array is made for the one class).
    public func verdict(for dataClass: DataClass, in context: ScanContext) -> Verdict {
        verdictTable[dataClass.rank * Inventory.contextCount + context.rank]
    }

    /// The strictest verdict for data of these classes in `context`.
    public func verdict(for classes: [DataClass], in context: ScanContext) -> Verdict {
        classes.lazy.map { self.verdict(for: $0, in: context) }.max() ?? .error
    }

    /// The verdict for a store seen in `context`. In a prefs export, a store that lives in plain
    /// prefs is at home whatever its class (`habiter_storage_backup_v0`, `habiter_ai_config`):
    /// listed, not reported; a secure-storage store there (`classly_token`) keeps its verdict.
    public func verdict(for store: Store, in context: ScanContext) -> Verdict {
        let verdict = verdict(for: store.classes, in: context)
        return context == .prefs && store.livesInPlainPrefs ? min(verdict, .note) : verdict
    }
}
