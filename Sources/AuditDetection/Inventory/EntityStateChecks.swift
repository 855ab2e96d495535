import AuditCore
import AuditInputs

/// The checks of an entity state, as a snapshot (`GET /v1/snapshot`) and the engine's replica
/// hold it (`personal_sync_replica.dart`): `entityId`, `lifecycleRevision` (a revision or null),
/// `deleted`, and `payloadFields` and `metadataFields`, whose members are registers
/// `{value, revision}`. Register names are screened with the app's sensitive-name rule.
enum EntityStateChecks {
    static func check(_ d: borrowing DocumentDraft, texts: UnsafeBufferPointer<UInt8>, into violations: inout [ContractViolation]) {
        func add(_ message: String, key: String? = nil, offset: Int? = nil) {
            violations.append(ContractViolation(check: .entityState, message: message, key: key, offset: offset,
                                                memberPath: key.map { [.key($0)] } ?? []))
        }
        guard let entity = ContractValidator.entityId(d, texts: texts, into: &violations) else { return }
        ContractValidator.checkSensitiveMembers(d, what: "an entity state", into: &violations)
        if d.deleted?.boolValue == nil {
            add("An entity state needs \"deleted\": true or false (here \(d.deleted?.kindName ?? "missing")).")
        }
        var lifecycle: Revision?
        switch d.lifecycleRevision?.view {
        case nil:
            add("An entity state has a lifecycleRevision: a revision {deviceId, sequence} or null.")
        case let tree? where tree.kind(tree.root) != .null:
            switch Revision.parse(tree, at: tree.root) {
            case .success(let revision): lifecycle = revision
            case .failure(let problem): add("The lifecycleRevision \(problem.message).", key: "lifecycleRevision", offset: tree.rootOffset)
            }
        default:
            if d.deleted?.boolValue == true { add("A pending entity state (lifecycleRevision null) cannot be deleted.", key: "deleted") }
        }
        for (name, shapeKey, registers) in [("payloadFields", ShapeKeys.payloadFields, d.payloadFields?.view),
                                            ("metadataFields", ShapeKeys.metadataFields, d.metadataFields?.view)] {
            guard let registers else {
                add("An entity state has \(name): an object of field registers.")
                continue
            }
            guard registers.kind(registers.root) == .object else {
                add("The entity state's \(name) is \(registers.kindName(registers.root)), not an object of field registers.", key: name, offset: registers.rootOffset)
                continue
            }
            for member in registers.children(registers.root) {
                let key = registers.key(member)
                let path: [PathToken] = [.key(name), .key(key)]
                if registers.withKey(member, AppSensitiveName.matches) {
                    violations.append(ContractValidator.sensitiveName(key, offset: registers.keyOffset(member), path: path, where: "an entity state's \(name)"))
                }
                guard let (value, revision) = register(member, in: registers) else {
                    violations.append(ContractViolation(check: .entityState, message: "The register \(name).\(key) is not {value, revision}.",
                                                        key: key, offset: registers.offset(member), memberPath: path))
                    continue
                }
                if case .failure(let problem) = Revision.parse(registers, at: revision) {
                    violations.append(ContractViolation(check: .entityState, message: "The register \(name).\(key)'s revision \(problem.message).",
                                                        key: key, offset: registers.offset(revision), memberPath: path + [.key("revision")]))
                }
                if d.mayHoldSensitiveName(shapeKey) {
                    PortableFields.screenNames(in: registers, at: value, path: path + [.key("value")], place: "an entity state's \(name)", into: &violations)
                }
            }
        }
        if let lifecycle, d.deleted?.boolValue == false,
           let payload = visiblePayload(d.payloadFields?.view, lifecycle: lifecycle, in: d.lifecycleRevision!.view) {
            payload.withView { checkMaterialized($0, entity: entity, into: &violations) }
        }
    }

    /// The `value` and `revision` of the register at `i`, exactly those two members; nil when
    /// it is something else.
    private static func register(_ i: Int, in tree: CapturedJSON.View) -> (value: Int, revision: Int)? {
        guard tree.kind(i) == .object, tree.count(i) == 2 else { return nil }
        var members = tree.children(i)
        let (first, second) = (members.next()!, members.next()!)
        if tree.keyIs(first, "value") && tree.keyIs(second, "revision") { return (first, second) }
        if tree.keyIs(first, "revision") && tree.keyIs(second, "value") { return (second, first) }
        return nil
    }

    /// The live payload the state stands for, as the server's `materializeEntity` makes it: the
    /// registers written at or after the lifecycle revision (earlier ones belong to a life the
    /// entity ended). Each field's offset is its register's. `lifecycle` was parsed from
    /// `lifecycleTree`.
    private static func visiblePayload(_ registers: CapturedJSON.View?, lifecycle: Revision, in lifecycleTree: CapturedJSON.View) -> CapturedJSON? {
        guard let registers, registers.kind(registers.root) == .object else { return nil }
        var fields: [JSONValue.Member] = []
        for member in registers.children(registers.root) {
            guard let revisionIndex = registers.member("revision", of: member),
                  case .success(let revision) = Revision.parse(registers, at: revisionIndex),
                  let value = registers.member("value", of: member) else { return nil }
            if !revision.precedes(lifecycle, in: registers, otherIn: lifecycleTree) {
                fields.append(JSONValue.Member(key: registers.key(member), keyOffset: registers.keyOffset(member),
                                               value: JSONValue.Node(value: registers.jsonNode(value).value, offset: registers.offset(member))))
            }
        }
        return CapturedJSON(JSONValue.Node(value: .object(fields), offset: registers.rootOffset))
    }

    /// A materialized habit or entry is checked as a document's payload would be, its
    /// violations placed at the registers.
    private static func checkMaterialized(_ payload: CapturedJSON.View, entity: EntityId, into violations: inout [ContractViolation]) {
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
    /// `compareRevisions`; for the ASCII device ids, byte order). The revision was parsed from
    /// `tree`, `other` from `otherTree`.
    func precedes(_ other: Revision, in tree: CapturedJSON.View, otherIn otherTree: CapturedJSON.View) -> Bool {
        sequence != other.sequence ? sequence < other.sequence
            : withDeviceId(in: tree) { mine in other.withDeviceId(in: otherTree) { mine.lexicographicallyPrecedes($0) } }
    }
}
