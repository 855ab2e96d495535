import AuditInputs

/// The schema of a registered setting's value.
public enum SettingSchema: Sendable, Equatable {
    case enumeration([String])
    case boolean
    /// `HH:mm`, 00:00 to 23:59.
    case time
    case integer(minimum: Int, maximum: Int)
    /// Quiet hours: an array of `{"start": "HH:mm", "end": "HH:mm"}` with exactly those two keys,
    /// `start` ≠ `end`, a range may cross midnight (`22:00`–`07:00`). The end minute is covered,
    /// so ranges that merely touch (22:00–23:00, 23:00–23:30) overlap: the app's
    /// `ReminderPreferences` and the server's `validateQuietHours` both reject them.
    case timeRanges

    /// What is wrong with `value` under this schema (naming its kind, never the value), or nil.
    public func problem(with value: JSONValue) -> String? {
        switch self {
        case .enumeration(let values):
            guard let s = value.stringValue else { return "expected one of \(values.joined(separator: ", ")), got \(value.kindName)" }
            return values.contains(s) ? nil : "expected one of \(values.joined(separator: ", ")), got another string"
        case .boolean:
            return value.boolValue == nil ? "expected a boolean, got \(value.kindName)" : nil
        case .time:
            guard let s = value.stringValue else { return "expected a time HH:mm, got \(value.kindName)" }
            return SettingSchema.minutes(s) == nil ? "expected a time HH:mm (00:00 to 23:59)" : nil
        case .integer(let minimum, let maximum):
            guard case .number(let text) = value, let n = Int(text) else {
                return "expected an integer from \(minimum) to \(maximum), got \(value.kindName)"
            }
            return n < minimum || n > maximum ? "expected an integer from \(minimum) to \(maximum), got one outside that range" : nil
        case .timeRanges:
            return SettingSchema.problemWithRanges(value)
        }
    }

    /// Minutes since midnight of a strict `HH:mm`.
    static func minutes(_ text: String) -> Int? {
        var text = text
        return text.withUTF8(minutes)
    }

    static func minutes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        func digit(_ i: Int) -> Int? { bytes[i] &- 0x30 < 10 ? Int(bytes[i] &- 0x30) : nil }
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"), let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4),
              h1 * 10 + h2 < 24, m1 * 10 + m2 < 60 else { return nil }
        return (h1 * 10 + h2) * 60 + m1 * 10 + m2
    }

    private static func problemWithRanges(_ value: JSONValue) -> String? {
        guard let elements = value.arrayElements else { return "expected an array of {start, end} ranges, got \(value.kindName)" }
        // Each range as closed arcs of the day's minutes; one across midnight is two.
        var arcs: [ClosedRange<Int>] = []
        for (i, element) in elements.enumerated() {
            guard let members = element.value.objectMembers, members.count == 2, Set(members.map(\.key)) == ["start", "end"],
                  let start = element.value["start"]?.stringValue.flatMap(minutes),
                  let end = element.value["end"]?.stringValue.flatMap(minutes) else {
                return "range \(i + 1) is not {\"start\": \"HH:mm\", \"end\": \"HH:mm\"}"
            }
            if start == end { return "range \(i + 1) is empty (it starts where it ends)" }
            if start < end { arcs.append(start...end) } else { arcs += [start...1439, 0...end] }
        }
        let sorted = arcs.sorted { $0.lowerBound < $1.lowerBound }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.overlaps(b) {
            return "ranges overlap (the end minute counts as covered, so touching ranges overlap too)"
        }
        return nil
    }
}

/// One key of the approved setting registry.
public struct SettingDefinition: Sendable, Equatable {
    public var key: String
    public var schema: SettingSchema
    public var defaultValue: JSONValue
    public var projection: String
    public var legacySources: [String]

    /// Whether a legacy settings field (`theme` of `habiter_user_preferences`, `settings_theme_mode`,
    /// the legacy `reminderTime`) is a source of this setting.
    public func isLegacySource(_ name: String) -> Bool {
        legacySources.contains { $0 == name || $0.hasSuffix(".\(name)") || $0.hasPrefix("legacy \(name) ") }
    }
}

extension JSONValue {
    /// The kind of a value, for messages that must not show the value.
    var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
