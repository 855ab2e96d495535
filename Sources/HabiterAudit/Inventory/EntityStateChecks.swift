/// The checks of an entity state, as a snapshot (`GET /v1/snapshot`) and the engine's replica
/// hold it (`personal_sync_replica.dart`): `entityId`, `lifecycleRevision` (a revision or null),
/// `deleted`, and `payloadFields` and `metadataFields`, whose members are registers
/// `{value, revision}`. Register names are screened with the app's sensitive-name rule.
enum EntityStateChecks {
    static func check(_ d: borrowing DocumentDraft, into violations: inout [ContractViolation]) {
        func add(_ message: String, key: String? = nil, offset: Int? = nil) {
            violations.append(ContractViolation(ruleId: "contract.entity-state", message: message, key: key, offset: offset,
                                                memberPath: key.map { [.key($0)] } ?? []))
        }
        guard ContractValidator.entityId(d, into: &violations) != nil else { return }
        ContractValidator.checkSensitiveMembers(d, what: "an entity state", into: &violations)
        if d.deleted?.boolValue == nil {
            add("An entity state needs \"deleted\": true or false (here \(d.deleted?.kindName ?? "missing")).")
        }
        switch d.lifecycleRevision {
        case nil:
            add("An entity state has a lifecycleRevision: a revision {deviceId, sequence} or null.")
        case let node? where node.value != .null:
            if case .failure(let problem) = Revision.parse(node) {
                add("The lifecycleRevision \(problem.message).", key: "lifecycleRevision", offset: node.offset)
            }
        default:
            break
        }
        for (name, registers) in [("payloadFields", d.payloadFields), ("metadataFields", d.metadataFields)] {
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
                      Set(register.map(\.key)) == ["value", "revision"], let revision = member.value.value["revision"] else {
                    violations.append(ContractViolation(ruleId: "contract.entity-state", message: "The register \(name).\(member.key) is not {value, revision}.",
                                                        key: member.key, offset: member.value.offset, memberPath: path))
                    continue
                }
                let node = register.last { $0.key == "revision" }!.value
                if case .failure(let problem) = Revision.parse(JSONValue.Node(value: revision, offset: node.offset)) {
                    violations.append(ContractViolation(ruleId: "contract.entity-state", message: "The register \(name).\(member.key)'s revision \(problem.message).",
                                                        key: member.key, offset: node.offset, memberPath: path + [.key("revision")]))
                }
            }
        }
    }
}
