import AuditBytes
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
    static let habitFields: [(name: StaticString, kind: Kind)] = [
        ("id", .nonEmptyString), ("name", .nonEmptyString), ("description", .optionalString),
        ("color", .nonEmptyString), ("icon", .nonEmptyString), ("frequency", .oneOf(["daily", "weekly", "custom"])),
        ("targetCount", .integer(minimum: 1)), ("category", .nonEmptyString), ("customDays", .weekdays),
        ("createdAt", .dateTime), ("isActive", .boolean), ("notificationEnabled", .boolean),
        ("notificationTime", .optionalTime),
    ]
    static let entryFields: [(name: StaticString, kind: Kind)] = [
        ("id", .nonEmptyString), ("habitId", .nonEmptyString), ("date", .calendarDate), ("completed", .boolean),
        ("count", .integer(minimum: 0)), ("timestamp", .dateTime),
    ]

    /// `screensNames`: whether to screen the payload's names with the app's sensitive-name rule
    /// (false where the scan saw that no name in it matches, or where the caller drops those
    /// violations).
    static func checkHabit(_ payload: CapturedJSON.View, screensNames: Bool, into violations: inout [ContractViolation]) {
        check(payload, required: habitFields, entity: "habit", screensNames: screensNames, into: &violations)
    }

    static func checkEntry(_ payload: CapturedJSON.View, screensNames: Bool, into violations: inout [ContractViolation]) {
        check(payload, required: entryFields, entity: "entry", screensNames: screensNames, into: &violations)
    }

    private static func check(_ payload: CapturedJSON.View, required: [(name: StaticString, kind: Kind)], entity: String,
                              screensNames: Bool, into violations: inout [ContractViolation]) {
        precondition(required.count <= UInt64.bitWidth, "a bit per required field")
        let root = payload.root
        guard payload.kind(root) == .object else { return }
        // One pass over the members: which required fields are present (a bit each: an array
        // of flags took an allocation per payload), and each one's value.
        var present: UInt64 = 0
        // The app writes the fields in `required`'s order: the one after the last found is
        // tried first, which spares a search of the list (its names are unique) per member.
        var next = 0
        for member in payload.children(root) {
            let index: Int
            if next < required.count && payload.keyIs(member, required[next].name) {
                index = next
            } else if let found = required.firstIndex(where: { payload.keyIs(member, $0.name) }) {
                index = found
            } else {
                continue
            }
            next = index + 1
            present |= 1 << UInt64(index)
            if let problem = problem(with: member, in: payload, as: required[index].kind) {
                let key = payload.key(member)
                violations.append(ContractViolation(check: .fieldValue, message: "The \(entity) field \(key) \(problem) (\"malformed payloads are rejected before mutation\").",
                                                    key: key, offset: payload.offset(member), memberPath: [.key("payload"), .key(key)]))
            }
        }
        // Every field present, the payload's usual case, without a list made of none.
        if present != UInt64.max >> (UInt64.bitWidth - required.count) {
            let missing = required.indices.filter { present & 1 << UInt64($0) == 0 }.map { required[$0].name.description }
            violations.append(ContractViolation(check: .requiredField, message: "The \(entity) payload lacks portable fields: \(missing.joined(separator: ", ")) (\"\(entity) payloads require the current portable \(entity) fields\")."))
        }
        // Additive fields are kept, but no sensitive-looking one, at any depth.
        guard screensNames else { return }
        screenNames(in: payload, at: root, path: [.key("payload")], place: "a \(entity) payload", into: &violations)
    }

    /// Whether the app's sensitive-name rule matches a name anywhere in the value at `i`: almost
    /// no payload holds one, and this pass over its entries keeps no path (`screenNames` then
    /// finds where).
    private static func holdsSensitiveName(_ tree: CapturedJSON.View, _ i: Int) -> Bool {
        tree.descendants(i).contains { tree.isMember($0) && tree.withKey($0, AppSensitiveName.matches) }
    }

    /// The app's sensitive-name rule on every name in the value at `i`, at any depth. The path
    /// is kept on one stack and copied only for a match: a payload has many names and almost
    /// never a match.
    static func screenNames(in tree: CapturedJSON.View, at i: Int, path: @autoclosure () -> [PathToken], place: @autoclosure () -> String,
                            into violations: inout [ContractViolation]) {
        // Most values hold no such name: found out without a path kept, or the place written.
        guard holdsSensitiveName(tree, i) else { return }
        let place = place()
        var path = path()
        func walk(_ i: Int) {
            switch tree.kind(i) {
            case .object:
                for member in tree.children(i) {
                    let key = tree.key(member)
                    path.append(.key(key))
                    if tree.withKey(member, AppSensitiveName.matches) {
                        violations.append(ContractValidator.sensitiveName(key, offset: tree.keyOffset(member), path: path, where: place))
                    }
                    walk(member)
                    path.removeLast()
                }
            case .array:
                for (n, element) in tree.children(i).enumerated() where tree.isContainer(element) {
                    path.append(.index(n))
                    walk(element)
                    path.removeLast()
                }
            default:
                break
            }
        }
        walk(i)
    }

    /// What is wrong with the value at `i` as a value of `kind` (by kind, never echoing it), or
    /// nil.
    static func problem(with i: Int, in tree: CapturedJSON.View, as kind: Kind) -> String? {
        let valueKind = tree.kind(i)
        switch kind {
        case .nonEmptyString:
            guard valueKind == .string else { return "is \(tree.kindName(i)), not a string" }
            return tree.withText(i, isBlank) ? "is an empty string" : nil
        case .optionalString:
            return valueKind == .null || valueKind == .string ? nil : "is \(tree.kindName(i)), not a string or null"
        case .oneOf(let allowed):
            guard valueKind == .string else { return "is \(tree.kindName(i)), not one of \(allowed.joined(separator: ", "))" }
            return allowed.contains { tree.isString(i, $0) } ? nil : "is not one of \(allowed.joined(separator: ", "))"
        case .integer(let minimum):
            guard let n = integer(tree, i) else {
                return valueKind == .number ? "is a number that is not a safe integer (the app refuses 12.0)" : "is \(tree.kindName(i)), not an integer"
            }
            return n < minimum ? "is below \(minimum)" : nil
        case .boolean:
            return tree.bool(i) == nil ? "is \(tree.kindName(i)), not a boolean" : nil
        case .dateTime:
            guard valueKind == .string else { return "is \(tree.kindName(i)), not a date-time string" }
            return tree.withText(i, DateTimeText.isDateTime) ? nil : "is not a date-time both the app (DateTime.tryParse) and the server (Date.parse) read"
        case .optionalTime:
            if valueKind == .null { return nil }
            guard valueKind == .string else { return "is \(tree.kindName(i)), not a time HH:mm or null" }
            return tree.withText(i, SettingSchema.minutes) == nil ? "is not a time HH:mm (00:00 to 23:59)" : nil
        case .weekdays:
            if valueKind == .null { return nil }
            guard valueKind == .array else { return "is \(tree.kindName(i)), not null or a list of weekdays" }
            return tree.allChildren(of: i) { $0 == .number && isWeekday($1) } ? nil : "holds something other than a weekday 1 to 7"
        case .calendarDate:
            guard valueKind == .string else { return "is \(tree.kindName(i)), not a date YYYY-MM-DD" }
            return tree.withText(i) { EntityId.isCalendarDate($0[...]) } ? nil : "is not a calendar date YYYY-MM-DD"
        }
    }

    /// The number at `i` as a JSON integer (no fraction, no exponent) within the safe range of a
    /// double. Compared by magnitude: `abs` of the smallest `Int` (-9223372036854775808, which
    /// `Int` reads) traps.
    static func integer(_ tree: CapturedJSON.View, _ i: Int) -> Int? {
        tree.kind(i) == .number ? tree.withText(i, safeInteger) : nil
    }

    /// A number's text as `integer` reads it.
    static func safeInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let n = text.decimalInteger, n.magnitude <= 9_007_199_254_740_991 else { return nil }
        return n
    }

    /// Whether a JSON number's text is an integer 1 to 7, as `safeInteger` reads it. JSON writes
    /// no `+` and no leading zero, so such a number is the one digit. Read by its digit, a
    /// weekday of a list costs some 14 instructions, where `safeInteger` took 45 (BENCHMARKS.md,
    /// "The adversarial inputs' own paths").
    static func isWeekday(_ number: UnsafeBufferPointer<UInt8>) -> Bool {
        number.count == 1 && number[0] &- UInt8(ascii: "1") < 7
    }

    /// Empty or only white space (`String.isBlank`), answered from the first byte for most texts.
    static func isBlank(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let first = text.first, first > 0x20, first < 0x7F { return false }
        return String(decoding: text, as: UTF8.self).isBlank
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
