import Foundation

/// Writes Jetpack DataStore preferences files for tests, byte by byte as androidx.datastore's
/// protobuf-lite writes a `PreferenceMap`: one field-1 entry per preference, each holding the
/// key (field 1) and then the `Value` (field 2), lengths as minimal varints, fixed-width values
/// little-endian. Independent of the scanner's reader and writer, so that each checks the other.
public enum DataStoreFixture {
    /// The `Value` oneof; what Flutter's `SharedPreferencesAsync` writes is `boolean`, `long`
    /// (`setInt`), `double`, `string`, and `string` behind the list prefix (`setStringList`).
    public enum Value {
        case boolean(Bool)
        case float(Float)
        case integer(Int32)
        case long(Int64)
        case string(String)
        case stringSet([String])
        case double(Double)
        case bytes([UInt8])
    }

    /// A whole file: the entries in order.
    public static func file(_ entries: [(String, Value)]) -> [UInt8] {
        entries.flatMap { entry($0.0, $0.1) }
    }

    /// One map entry, with its tag and length.
    public static func entry(_ key: String, _ value: Value) -> [UInt8] {
        lengthDelimited(1, lengthDelimited(1, Array(key.utf8)) + lengthDelimited(2, encoded(value)))
    }

    /// The `Value` message's bytes.
    public static func encoded(_ value: Value) -> [UInt8] {
        switch value {
        case .boolean(let b): return tag(1, 0) + varint(b ? 1 : 0)
        case .float(let f): return tag(2, 5) + littleEndian(UInt64(f.bitPattern), 4)
        case .integer(let i): return tag(3, 0) + varint(UInt64(bitPattern: Int64(i)))
        case .long(let l): return tag(4, 0) + varint(UInt64(bitPattern: l))
        case .string(let s): return lengthDelimited(5, Array(s.utf8))
        case .stringSet(let members): return lengthDelimited(6, members.flatMap { lengthDelimited(1, Array($0.utf8)) })
        case .double(let d): return tag(7, 1) + littleEndian(d.bitPattern, 8)
        case .bytes(let b): return lengthDelimited(8, b)
        }
    }

    /// A field tag: field number and wire type.
    public static func tag(_ field: UInt64, _ wireType: UInt64) -> [UInt8] { varint(field << 3 | wireType) }

    /// A length-delimited field: tag, length, bytes.
    public static func lengthDelimited(_ field: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        tag(field, 2) + varint(UInt64(bytes.count)) + bytes
    }

    public static func varint(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
        return out
    }

    private static func littleEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    /// What `setStringList` stores since shared_preferences_android 2.4.3: the JSON list prefix
    /// and the list as JSON.
    public static func flutterList(_ strings: [String]) -> String {
        let json = try! JSONSerialization.data(withJSONObject: strings)
        return "VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu!" + String(decoding: json, as: UTF8.self)
    }

    /// A store as the Habiter app leaves it on Android: the storage envelope (JSON text whose
    /// `data` holds the AI config with `apiKey`), the smart reminders, and one value of every
    /// type Flutter writes, plus an int32 and a string set as other DataStore users write them.
    public static func habiterStore(apiKey: String) -> [UInt8] {
        file(habiterStoreEntries(apiKey: apiKey))
    }

    /// The entries of `habiterStore`, in file order.
    public static func habiterStoreEntries(apiKey: String) -> [(String, Value)] {
        let envelope = ##"{"schemaVersion":1,"migratedAt":"2026-11-30T08:00:00.000Z","data":{"habiter_habits":[{"id":"84056f60-82ae-4992-b425-ad4895d86006","name":"Morning run","description":null,"color":"#F44336","icon":"directions_run","frequency":"daily","targetCount":1,"category":"Fitness","customDays":null,"createdAt":"2025-04-02T06:10:00.000Z","isActive":true,"notificationEnabled":true,"notificationTime":"06:30"}],"habiter_habit_entries":[],"habiter_habit_state_revision":3,"habiter_ai_config":{"provider":"gemini","model":"gemini-1.5-flash","apiKey":"\##(apiKey)"}},"quarantine":[]}"##
        let reminders = #"{"schemaVersion":1,"preferences":{"enabled":true},"policies":[{"schemaVersion":1,"habitId":"84056f60-82ae-4992-b425-ad4895d86006","enabled":true,"mode":"fixedTimes","intensity":"balanced","fixed":{"times":["06:30"]},"snoozeDurationMinutes":10,"createdAt":"2026-11-01T08:00:00.000Z","updatedAt":"2026-11-01T08:00:00.000Z"}],"signals":[],"profiles":[],"plannedReminders":[],"pendingSnoozes":[],"legacyMigrationComplete":true,"processedActionIds":[]}"#
        return [
            ("habiter_storage_envelope", .string(envelope)),
            ("habiter_smart_reminders_v1", .string(reminders)),
            ("classly_last_sync", .long(1_764_489_600_000)),
            ("habiter_onboarding_v2", .boolean(true)),
            ("reminder_volume", .double(0.75)),
            ("launch_count", .integer(-3)),
            ("habiter_widget_action_ids", .stringSet(["action-1", "action-2"])),
            ("recent_icons", .string(flutterList(["directions_run", "translate"]))),
        ]
    }
}
