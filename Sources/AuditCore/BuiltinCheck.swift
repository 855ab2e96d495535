/// The checks built into the scanner, by rule id: the code decides when one applies, a rule of
/// the pack (`rules/contract.json`, `rules/inventory-rules.json`) describes it (level, family,
/// message, help). The one list of their ids; `BuiltinCheckTests` holds it against the rule files.
public enum BuiltinCheck: String, CaseIterable, Sendable {
    // The data contract: `ContractValidator` and its checks.
    case schemaVersion = "contract.schema-version"
    case protocolVersion = "contract.protocol-version"
    case entityId = "contract.entity-id"
    case deletedFlag = "contract.deleted-flag"
    case tombstonePayload = "contract.tombstone-payload"
    case missingPayload = "contract.missing-payload"
    case identityMismatch = "contract.identity-mismatch"
    case requiredField = "contract.required-field"
    case fieldValue = "contract.field-value"
    case settingUnknown = "contract.setting-unknown"
    case settingPayload = "contract.setting-payload"
    case settingValue = "contract.setting-value"
    case storageEnvelope = "contract.storage-envelope"
    case prefsDump = "contract.prefs-dump"
    case operation = "contract.operation"
    case pushBody = "contract.push-body"
    case entityState = "contract.entity-state"
    case sensitiveName = "contract.sensitive-name"
    // The classification inventory: a store seen where it may not be.
    case localDataInSync = "inventory.local-data-in-sync"
    case unsupportedInSync = "inventory.unsupported-in-sync"
    case sensitiveStore = "inventory.sensitive-store"
}

/// Rules of the built-in pack that the code treats in a way of their own (a PKCE verifier is
/// paired with its challenge, a JWT is redacted by its parts, ...): the pack must hold them.
public enum SpecialRule: String, CaseIterable, Sendable {
    case passwordVerifier = "name.password-verifier"
    case authorizationResponse = "name.authorization-response"
    case pkceVerifier = "name.pkce-verifier"
    case jwt = "secret.jwt"
    case secureStorageDump = "secret.secure-storage-dump"
}
