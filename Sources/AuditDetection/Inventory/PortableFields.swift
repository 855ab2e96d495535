import AuditCore
import AuditInputs

/// The portable habit and entry fields, as the app writes them (`Habit.toMap`,
/// `HabitEntry.toMap`) and as the app's `_validatePayload` and the server's `validateHabit` and
/// `validateEntry` check them: every required field present, and each field of the right type
/// and range. Where the app is stricter than the server (an integer is a JSON integer: `12.0` is
/// refused, as Dart's `is int` refuses it), the app's rule holds. The optional fields (`pauses`,
/// `archivedAt`, `restoredAt`, `source`) and any additive field are checked by neither, beyond
/// the sensitive-name rule on every nested name: they are not checked here either.
enum PortableFields {
    /// What a field's value must be.
    enum Kind {
        case nonEmptyString
        case optionalString
        case oneOf([String])
        /// An integer at least `minimum`, and a safe integer (the server's `Number.isSafeInteger`).
        case integer(minimum: Int)
        case boolean
        case dateTime
        case optionalTime
        case weekdays
        case calendarDate
    }

    /// The habit payload's required fields, in the order `Habit.toMap` writes them.
    static let habitFields: [(name: String, kind: Kind)] = [
        ("id", .nonEmptyString), ("name", .nonEmptyString), ("description", .optionalString),
        ("color", .nonEmptyString), ("icon", .nonEmptyString), ("frequency", .oneOf(["daily", "weekly", "custom"])),
        ("targetCount", .integer(minimum: 1)), ("category", .nonEmptyString), ("customDays", .weekdays),
        ("createdAt", .dateTime), ("isActive", .boolean), ("notificationEnabled", .boolean),
        ("notificationTime", .optionalTime),
    ]
    static let entryFields: [(name: String, kind: Kind)] = [
        ("id", .nonEmptyString), ("habitId", .nonEmptyString), ("date", .calendarDate), ("completed", .boolean),
        ("count", .integer(minimum: 0)), ("timestamp", .dateTime),
    ]

    /// `screensNames`: whether to screen the payload's names with the app's sensitive-name rule
    /// (false where the scan saw that no name in it matches, or where the caller drops those
    /// violations).
    static func checkHabit(_ payload: JSONValue.Node, screensNames: Bool, into violations: inout [ContractViolation]) {
        check(payload, required: habitFields, entity: "habit", screensNames: screensNames, into: &violations)
    }

    static func checkEntry(_ payload: JSONValue.Node, screensNames: Bool, into violations: inout [ContractViolation]) {
        check(payload, required: entryFields, entity: "entry", screensNames: screensNames, into: &violations)
    }

    private static func check(_ payload: JSONValue.Node, required: [(name: String, kind: Kind)], entity: String,
                              screensNames: Bool, into violations: inout [ContractViolation]) {
        precondition(required.count <= UInt64.bitWidth, "a bit per required field")
        guard let members = payload.value.objectMembers else { return }
        // One pass over the members: which required fields are present (a bit each: an array
        // of flags took an allocation per payload), and each one's value.
        var present: UInt64 = 0
        // The app writes the fields in `required`'s order: the one after the last found is
        // tried first, which spares a search of the list (its names are unique) per member.
        var next = 0
        for member in members {
            let index: Int
            if next < required.count && required[next].name == member.key {
                index = next
            } else if let found = required.firstIndex(where: { $0.name == member.key }) {
                index = found
            } else {
                continue
            }
            next = index + 1
            present |= 1 << UInt64(index)
            if let problem = problem(with: member.value, as: required[index].kind) {
                violations.append(ContractViolation(check: .fieldValue, message: "The \(entity) field \(member.key) \(problem) (\"malformed payloads are rejected before mutation\").",
                                                    key: member.key, offset: member.value.offset, memberPath: [.key("payload"), .key(member.key)]))
            }
        }
        let missing = required.indices.filter { present & 1 << UInt64($0) == 0 }.map { required[$0].name }
        if !missing.isEmpty {
            violations.append(ContractViolation(check: .requiredField, message: "The \(entity) payload lacks portable fields: \(missing.joined(separator: ", ")) (\"\(entity) payloads require the current portable \(entity) fields\")."))
        }
        // Additive fields are kept, but no sensitive-looking one, at any depth.
        guard screensNames else { return }
        screenNames(in: payload, path: [.key("payload")], place: "a \(entity) payload", into: &violations)
    }

    /// Whether the app's sensitive-name rule matches a name anywhere in `value`: almost no
    /// payload holds one, and this walk keeps no path (`screenNames` then finds where).
    private static func holdsSensitiveName(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): members.contains { AppSensitiveName.matches($0.key) || holdsSensitiveName($0.value.value) }
        case .array(let elements): elements.contains { holdsSensitiveName($0.value) }
        default: false
        }
    }

    /// The app's sensitive-name rule on every name in `node`, at any depth. The path is kept on
    /// one stack and copied only for a match: a payload has many names and almost never a match.
    static func screenNames(in node: JSONValue.Node, path: @autoclosure () -> [PathToken], place: @autoclosure () -> String,
                            into violations: inout [ContractViolation]) {
        // Most values hold no such name: found out without a path kept, or the place written.
        guard holdsSensitiveName(node.value) else { return }
        let place = place()
        var path = path()
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for member in members {
                    path.append(.key(member.key))
                    if AppSensitiveName.matches(member.key) {
                        violations.append(ContractValidator.sensitiveName(member.key, offset: member.keyOffset, path: path, where: place))
                    }
                    walk(member.value.value)
                    path.removeLast()
                }
            case .array(let elements):
                for (i, element) in elements.enumerated() where element.value.isContainer {
                    path.append(.index(i))
                    walk(element.value)
                    path.removeLast()
                }
            default:
                break
            }
        }
        walk(node.value)
    }

    /// What is wrong with `node` as a value of `kind` (by kind, never echoing it), or nil.
    static func problem(with node: JSONValue.Node, as kind: Kind) -> String? {
        let value = node.value
        switch kind {
        case .nonEmptyString:
            guard let s = value.stringValue else { return "is \(value.kindName), not a string" }
            return s.isBlank ? "is an empty string" : nil
        case .optionalString:
            return value == .null || value.stringValue != nil ? nil : "is \(value.kindName), not a string or null"
        case .oneOf(let allowed):
            guard let s = value.stringValue else { return "is \(value.kindName), not one of \(allowed.joined(separator: ", "))" }
            return allowed.contains(s) ? nil : "is not one of \(allowed.joined(separator: ", "))"
        case .integer(let minimum):
            guard let n = integer(value) else {
                return value.kindName == "a number" ? "is a number that is not a safe integer (the app refuses 12.0)" : "is \(value.kindName), not an integer"
            }
            return n < minimum ? "is below \(minimum)" : nil
        case .boolean:
            return value.boolValue == nil ? "is \(value.kindName), not a boolean" : nil
        case .dateTime:
            guard let s = value.stringValue else { return "is \(value.kindName), not a date-time string" }
            return DateTimeText.isDateTime(s) ? nil : "is not a date-time both the app (DateTime.tryParse) and the server (Date.parse) read"
        case .optionalTime:
            if value == .null { return nil }
            guard let s = value.stringValue else { return "is \(value.kindName), not a time HH:mm or null" }
            return SettingSchema.minutes(s) == nil ? "is not a time HH:mm (00:00 to 23:59)" : nil
        case .weekdays:
            if value == .null { return nil }
            guard let days = value.arrayElements else { return "is \(value.kindName), not null or a list of weekdays" }
            return days.allSatisfy({ integer($0.value).map((1...7).contains) == true }) ? nil : "holds something other than a weekday 1 to 7"
        case .calendarDate:
            guard let s = value.stringValue else { return "is \(value.kindName), not a date YYYY-MM-DD" }
            var text = s
            return text.withUTF8 { EntityId.isCalendarDate($0[...]) } ? nil : "is not a calendar date YYYY-MM-DD"
        }
    }

    /// A JSON integer (no fraction, no exponent) within the safe range of a double. Compared
    /// by magnitude: `abs` of the smallest `Int` (-9223372036854775808, which `Int` reads)
    /// traps.
    static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let text) = value, let n = Int(text), n.magnitude <= 9_007_199_254_740_991 else { return nil }
        return n
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}

extension String {
    /// Empty or only white space, as Dart's `trim().isEmpty` and JavaScript's `!s.trim()` judge
    /// it. Most names start with a letter: those are answered from their first byte.
    var isBlank: Bool {
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }
        return unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
    }
}
