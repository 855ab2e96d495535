import AuditCore
import AuditInputs

/// The checks of an entity state, as a snapshot (`GET /v1/snapshot`) and the engine's replica
/// hold it (`personal_sync_replica.dart`): `entityId`, `lifecycleRevision` (a revision or null),
/// `deleted`, and `payloadFields` and `metadataFields`, whose members are registers
/// `{value, revision}`. Register names are screened with the app's sensitive-name rule.
enum EntityStateChecks {
    static func check(_ d: borrowing DocumentDraft, into violations: inout [ContractViolation]) {
        func add(_ message: String, key: String? = nil, offset: Int? = nil) {
            violations.append(ContractViolation(check: .entityState, message: message, key: key, offset: offset,
                                                memberPath: key.map { [.key($0)] } ?? []))
        }
        guard let entity = ContractValidator.entityId(d, into: &violations) else { return }
        ContractValidator.checkSensitiveMembers(d, what: "an entity state", into: &violations)
        if d.deleted?.boolValue == nil {
            add("An entity state needs \"deleted\": true or false (here \(d.deleted?.kindName ?? "missing")).")
        }
        var lifecycle: Revision?
        switch d.lifecycleRevision {
        case nil:
            add("An entity state has a lifecycleRevision: a revision {deviceId, sequence} or null.")
        case let node? where node.value != .null:
            switch Revision.parse(node) {
            case .success(let revision): lifecycle = revision
            case .failure(let problem): add("The lifecycleRevision \(problem.message).", key: "lifecycleRevision", offset: node.offset)
            }
        default:
            if d.deleted?.boolValue == true { add("A pending entity state (lifecycleRevision null) cannot be deleted.", key: "deleted") }
        }
        for (name, shapeKey, registers) in [("payloadFields", ShapeKeys.payloadFields, d.payloadFields),
                                            ("metadataFields", ShapeKeys.metadataFields, d.metadataFields)] {
            guard let registers else {
                add("An entity state has \(name): an object of field registers.")
                continue
            }
            guard let members = registers.value.objectMembers else {
                add("The entity state's \(name) is \(registers.value.kindName), not an object of field registers.", key: name, offset: registers.offset)
                continue
            }
            for member in members {
                let path: [PathToken] = [.key(name), .key(member.key)]
                if AppSensitiveName.matches(member.key) {
                    violations.append(ContractValidator.sensitiveName(member.key, offset: member.keyOffset, path: path, where: "an entity state's \(name)"))
                }
                guard let register = member.value.value.objectMembers, register.count == 2,
                      Set(register.map(\.key)) == ["value", "revision"], let revision = register.last(where: { $0.key == "revision" })?.value else {
                    violations.append(ContractViolation(check: .entityState, message: "The register \(name).\(member.key) is not {value, revision}.",
                                                        key: member.key, offset: member.value.offset, memberPath: path))
                    continue
                }
                if case .failure(let problem) = Revision.parse(revision) {
                    violations.append(ContractViolation(check: .entityState, message: "The register \(name).\(member.key)'s revision \(problem.message).",
                                                        key: member.key, offset: revision.offset, memberPath: path + [.key("revision")]))
                }
                if d.mayHoldSensitiveName(shapeKey), let value = register.last(where: { $0.key == "value" })?.value {
                    PortableFields.screenNames(in: value, path: path + [.key("value")], place: "an entity state's \(name)", into: &violations)
                }
            }
        }
        if let lifecycle, d.deleted?.boolValue == false, let payload = visiblePayload(d.payloadFields, lifecycle: lifecycle) {
            checkMaterialized(payload, entity: entity, into: &violations)
        }
    }

    /// The live payload the state stands for, as the server's `materializeEntity` makes it: the
    /// registers written at or after the lifecycle revision (earlier ones belong to a life the
    /// entity ended). Each field's offset is its register's.
    private static func visiblePayload(_ registers: JSONValue.Node?, lifecycle: Revision) -> JSONValue.Node? {
        guard let registers, let members = registers.value.objectMembers else { return nil }
        var fields: [JSONValue.Member] = []
        for member in members {
            guard let revisionNode = member.value.value["revision"].map({ JSONValue.Node(value: $0, offset: member.value.offset) }),
                  case .success(let revision) = Revision.parse(revisionNode), let value = member.value.value["value"] else { return nil }
            if !revision.precedes(lifecycle) {
                fields.append(JSONValue.Member(key: member.key, keyOffset: member.keyOffset, value: JSONValue.Node(value: value, offset: member.value.offset)))
            }
        }
        return JSONValue.Node(value: .object(fields), offset: registers.offset)
    }

    /// A materialized habit or entry is checked as a document's payload would be, its
    /// violations placed at the registers.
    private static func checkMaterialized(_ payload: JSONValue.Node, entity: EntityId, into violations: inout [ContractViolation]) {
        var found: [ContractViolation] = []
        switch entity {
        // Its names were screened in the registers (above); these violations are dropped.
        case .habit: PortableFields.checkHabit(payload, screensNames: false, into: &found)
        case .entry: PortableFields.checkEntry(payload, screensNames: false, into: &found)
        case .setting: return
        }
        for var violation in found where violation.check != .sensitiveName {
            if violation.memberPath.first == .key("payload") {
                violation.memberPath = [.key("payloadFields")] + violation.memberPath.dropFirst() + [.key("value")]
            }
            violation.message += " (in the entity state's visible registers)"
            violations.append(violation)
        }
    }
}

extension Revision {
    /// Lamport order: sequence first, then device id by UTF-16 code units (the server's
    /// `compareRevisions`; for the ASCII device ids, byte order).
    func precedes(_ other: Revision) -> Bool {
        sequence != other.sequence ? sequence < other.sequence : Array(deviceId.utf8).lexicographicallyPrecedes(Array(other.deviceId.utf8))
    }
}
