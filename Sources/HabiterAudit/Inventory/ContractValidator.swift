/// A document member's value as far as the checks need it: scalars in full, containers by kind
/// only. Not `JSONValue`, whose every value is a heap box: a scan records several per document.
enum DraftValue: Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case object
    case array

    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The scalar as a JSON value (a container has no members here: callers capture those).
    var jsonValue: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .null: .null
        case .object: .object([])
        case .array: .array([])
        }
    }
}

/// The members of an object that the contract checks look at, gathered while it streams past:
/// an entity document (`schemaVersion`, `entityId`, `deleted`, `payload`), a sync message
/// (`protocolVersion`) or a storage envelope (`migratedAt`, `quarantine`).
struct DocumentDraft {
    var startOffset: Int
    /// Where violations are reported: the `entityId` value, else the first document key.
    var position = SourcePosition(line: 1, column: 1, byteOffset: 0)
    var entityId: DraftValue?
    var entityIdOffset: Int?
    /// The `entityId` matched a pattern rule: it is never echoed.
    var entityIdIsSecret = false
    var schemaVersion: DraftValue?
    var deleted: DraftValue?
    var hasPayload = false
    var payloadIsObject = false
    var payload = PayloadDraft()
    var protocolVersion: DraftValue?
    var protocolVersionPosition: SourcePosition?
    var hasMigratedAt = false
    var hasQuarantine = false
}

/// The members of a `payload` object that the checks need: which portable fields are present,
/// the identity fields, and a setting's `value`.
struct PayloadDraft {
    var fields: UInt32 = 0
    var hasOtherKeys = false
    /// Keys of a SharedPreferences dump (`flutter.…`, the secure-storage prefix).
    var hasPrefsKeys = false
    var id: String?
    var habitId: String?
    var date: String?
    var value: JSONValue?

    func has(_ field: PayloadField) -> Bool { fields & (1 << UInt32(field.rawValue)) != 0 }
}

/// Payload fields the contract names (DESIGN.md, wire formats).
enum PayloadField: Int, CaseIterable {
    case id, title, description, color, icon, frequency, target, category, customDays, createdAt, lifecycleState, pauses,
         archivedAt, restoredAt, notificationEnabled, notificationTime, source, reminderPolicy,
         habitId, date, completed, count, timestamp, value

    /// The fields' names as bytes, by length: a key is compared only with names of its length.
    private static let namesByLength: [[([UInt8], PayloadField)]] = {
        let names = allCases.map { (Array(String(describing: $0).utf8), $0) }
        var byLength = [[([UInt8], PayloadField)]](repeating: [], count: names.map(\.0.count).max()! + 1)
        for (name, field) in names { byLength[name.count].append((name, field)) }
        return byLength
    }()

    /// The field a key names, if any.
    static func named(_ key: UnsafeBufferPointer<UInt8>) -> PayloadField? {
        guard key.count < namesByLength.count else { return nil }
        for (name, field) in namesByLength[key.count] where key.hasBytePrefix(name) { return field }
        return nil
    }
}

/// A contract violation of one document.
struct ContractViolation: Equatable {
    var ruleId: String
    var message: String
    /// The key to report when the violation is one member's, not the whole document's.
    var key: String? = nil
}

/// The data contract's rules for entity documents, sync messages and storage envelopes
/// (`contract/personal-sync-data-contract.md`, "Entity compatibility" and "Approved setting
/// registry"). Pure: a draft in, violations out.
enum ContractValidator {
    /// The entity id grammar of the wire format (DESIGN.md), quoted by `contract.entity-id`.
    static let entityIdClause = "ids are habit/<id>, entry/<habit id>/<YYYY-MM-DD> or setting/<stable key>, each part percent-encoded"
    static let supportedSchemaVersions = 1...1
    static let supportedProtocolVersions = 1...1

    /// The current portable habit fields: required in a live habit payload (`reminderPolicy`
    /// is optional, attached when the projection adapter is implemented).
    static let requiredHabitFields: [PayloadField] = [
        .id, .title, .description, .color, .icon, .frequency, .target, .category, .customDays, .createdAt,
        .lifecycleState, .pauses, .archivedAt, .restoredAt, .notificationEnabled, .notificationTime, .source,
    ]
    static let requiredEntryFields: [PayloadField] = [.id, .habitId, .date, .completed, .count, .timestamp]

    /// Whether the draft is an entity document: an `entityId` with a version, a flag or a payload.
    static func isEntityDocument(_ d: borrowing DocumentDraft) -> Bool {
        d.entityId != nil && (d.schemaVersion != nil || d.deleted != nil || d.hasPayload)
    }

    static func check(_ d: borrowing DocumentDraft, inventory: Inventory) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        func add(_ rule: String, _ message: String, key: String? = nil) {
            violations.append(ContractViolation(ruleId: rule, message: message, key: key))
        }

        if d.schemaVersion != nil && d.hasMigratedAt && d.hasQuarantine {
            add("contract.storage-envelope", "A raw storage envelope (schemaVersion, migratedAt, quarantine) in sync data: \"the envelope itself, its migration metadata, quarantine, and local revision never synchronize\".")
        }
        if let version = d.protocolVersion {
            if case .number(let text) = version, let n = Int(text) {
                if n < supportedProtocolVersions.lowerBound {
                    add("contract.protocol-version", "protocolVersion \(n) is below the supported window \(supportedProtocolVersions.lowerBound)–\(supportedProtocolVersions.upperBound): \"a peer below the supported protocol window must upgrade its server\".", key: "protocolVersion")
                } else if n > supportedProtocolVersions.upperBound {
                    add("contract.protocol-version", "protocolVersion \(n) is above the supported window \(supportedProtocolVersions.lowerBound)–\(supportedProtocolVersions.upperBound): \"a peer above it must upgrade its client\".", key: "protocolVersion")
                }
            } else {
                add("contract.protocol-version", "protocolVersion is \(version.kindName), not an integer version.", key: "protocolVersion")
            }
        }
        guard isEntityDocument(d) else { return violations }

        switch d.schemaVersion {
        case .number(let text)? where Int(text).map(supportedSchemaVersions.contains) == true:
            break
        case let other:
            let found = other.map { v -> String in if case .number(let t) = v { return "version \(t)" } else { return v.kindName } } ?? "no schemaVersion"
            add("contract.schema-version", "Unsupported entity schema (\(found)); schema version 1 is supported: \"unsupported entity schemas are rejected before mutation\".")
        }

        guard case .string(let idText)? = d.entityId else {
            add("contract.entity-id", "entityId is \(d.entityId?.kindName ?? "missing"), not a string (\(entityIdClause)).")
            return violations
        }
        let entity: EntityId
        switch EntityId.parse(idText) {
        case .success(let parsed): entity = parsed
        case .failure(let problem):
            add("contract.entity-id", "The entityId does not follow the contract's grammar: \(problem.message) (\(entityIdClause)).")
            return violations
        }

        // The registry permits no unknown key, live or deleted.
        if case .setting(let key) = entity, inventory.setting(key) == nil {
            add("contract.setting-unknown", "The setting key is not in the approved setting registry: \"the registry does not permit unknown keys\".")
            return violations
        }
        let deleted = d.deleted?.boolValue
        if deleted == nil {
            add("contract.deleted-flag", "A document needs \"deleted\": true or false (here \(d.deleted?.kindName ?? "missing")): \"version-1 live documents contain schemaVersion, entityId, deleted: false, and a JSON payload; tombstones contain the same version and ID with deleted: true\".")
        }
        if deleted == true {
            if d.hasPayload {
                add("contract.tombstone-payload", "A tombstone (deleted: true) has a payload key: \"tombstones contain the same version and ID with deleted: true and no payload\".")
            }
            return violations
        }
        guard d.hasPayload && d.payloadIsObject else {
            add("contract.missing-payload", "A live document needs a JSON payload object (\"version-1 live documents contain schemaVersion, entityId, deleted: false, and a JSON payload\").")
            return violations
        }
        let p = d.payload
        if p.hasPrefsKeys {
            add("contract.prefs-dump", "The payload holds SharedPreferences keys: \"it never synchronizes a raw storage envelope, a SharedPreferences dump, secure storage, or native platform state\".")
        }
        switch entity {
        case .habit(let id):
            if p.id != id {
                add("contract.identity-mismatch", "The habit payload's id \(p.id == nil ? "is missing" : "differs from the id in entityId"): \"their stable entity ID must match payload id\".")
            }
            let missing = requiredHabitFields.filter { !p.has($0) }
            if !missing.isEmpty {
                add("contract.required-field", "The habit payload lacks portable fields: \(missing.map { String(describing: $0) }.joined(separator: ", ")) (\"habit payloads require the current portable habit fields\").")
            }
        case .entry(let habitId, let date):
            if p.habitId != habitId || p.date != date {
                add("contract.identity-mismatch", "The entry payload's habitId or date differs from entityId: \"their entity ID must match payload habitId and date\".")
            }
            let missing = requiredEntryFields.filter { !p.has($0) }
            if !missing.isEmpty {
                add("contract.required-field", "The entry payload lacks portable fields: \(missing.map { String(describing: $0) }.joined(separator: ", ")) (\"entry payloads require the current portable entry fields\").")
            }
        case .setting(let key):
            guard let setting = inventory.setting(key) else { return violations }
            if p.hasOtherKeys || !p.has(.value) || p.fields != (1 << UInt32(PayloadField.value.rawValue)) {
                add("contract.setting-payload", "A setting payload holds only \"value\": \"setting payloads contain only value; the entity ID supplies the stable allow-listed key\".")
            }
            if let value = p.value, let problem = setting.schema.problem(with: value) {
                add("contract.setting-value", "The value of \(setting.key) does not match its schema: \(problem) (\"malformed values are rejected before mutation\").")
            }
        }
        return violations
    }
}
