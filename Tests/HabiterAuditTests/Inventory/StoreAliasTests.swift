@testable import AuditCore
@testable import AuditDetection
@testable import AuditScan
import Foundation
import Testing

/// Issue 20's classes 5 and 8: a store under the names app code gives it in a payload
/// (`aiConfig` for `habiter_ai_config`), and the identifiers the app's own device-local stores
/// hold (the widget's undo tokens and action ids), judged by the store, not by a `token` name.
@Suite struct StoreAliasTests {
    /// Every (store, alias) pair of the built-in inventory: the stores that do not synchronize.
    static let aliases: [(store: String, alias: String)] = {
        let stores = TestSupport.builtinPack.inventory.stores
        return stores.filter { store in
            !stores.contains { $0.classes.contains(.synchronized) && ($0.id == store.id || $0.id.hasPrefix(store.id + ".")) }
        }.flatMap { store in
            (store.prefsKeys + store.secureStorageKeys).flatMap { key in Inventory.aliases(of: key).map { (store.id, $0) } }
        }
    }()

    @Test func aliasForms() {
        #expect(Inventory.aliases(of: "habiter_ai_config") == ["habiterAiConfig", "ai_config", "aiConfig"])
        #expect(Inventory.aliases(of: "habiter_smart_reminders_v1")
                == ["habiterSmartRemindersV1", "smart_reminders_v1", "smartRemindersV1", "habiter_smart_reminders", "habiterSmartReminders",
                    "smart_reminders", "smartReminders"])
        #expect(Inventory.aliases(of: "personal_sync.pending.v1").contains("personalSyncPending"))
        // One word says nothing alone.
        #expect(!Inventory.aliases(of: "habiter_habits").contains("habits"))
        #expect(!Inventory.aliases(of: "habiter_onboarding_v2").contains("onboarding"))
    }

    @Test(arguments: [("smart_reminders_v1", "smart_reminders"), ("pending.v12", "pending"), ("a_v1_v2", "a_v1"),
                      ("_v3", ""), ("v1", nil), ("x_v", nil), ("x-v1", nil), ("x_V1", nil), ("x_v1a", nil), ("", nil)] as [(String, String?)])
    func versionSuffix(_ name: String, _ expected: String?) {
        #expect(Inventory.withoutVersionSuffix(name) == expected)
    }

    @Test func storesThatSynchronizeHaveNone() {
        #expect(Self.aliases.count > 40)
        // A habit's `smartReminders` is the reviewed projection of the reminders store.
        #expect(!Self.aliases.contains { $0.alias == "smartReminders" })
        let habit = #"{"schemaVersion": 1, "entityId": "habit/h1", "deleted": false, "payload": {"smartReminders": {"preferences": {}}}}"#
        #expect(!TestSupport.scan(habit).inventory.contains { $0.storeId == "habiter_smart_reminders_v1" })
    }

    @Test func eachStoreIsKnownUnderEachAlias() {
        let inventory = TestSupport.builtinPack.inventory
        for (store, alias) in Self.aliases {
            // A name another store lists as its own field (`aiInsights`) or aliases first stays
            // that store's.
            let named = try! #require(inventory.store(jsonField: alias), "\(alias) of \(store) names no store")
            let text = #"{"exportedBy": "support", "state": {"\#(alias)": {"x": "1"}}}"#
            let seen = TestSupport.scan(text).inventory.map(\.storeId)
            #expect(seen.contains(inventory.stores[named].id), "\(alias) → \(store): \(seen)")
        }
    }

    @Test func aStoreUnderAnAliasInAHabitPayloadIsReported() {
        let push = #"{"operations": [{"operationId": "op-1", "kind": "patch", "document": {"schemaVersion": 1, "entityId": "habit/5f0c1d2e-8a7b-4c3d-9e1f-2a3b4c5d6e7f", "deleted": false, "payload": {"aiConfig": {"provider": "openai", "model": "gpt-4o-mini"}}}}]}"#
        let result = TestSupport.scan(push, options: ScanOptions(context: .sync))
        #expect(result.findings.contains { $0.ruleId == "inventory.sensitive-store" && $0.pathText.hasSuffix("/payload/aiConfig") })
    }

    static let undo = "5f0c1d2e-8a7b-4c3d-9e1f-2a3b4c5d6e7f"

    @Test func theWidgetsIdentifiersAreNotSecrets() {
        let backup = #"{"schemaVersion": 1, "exportedAt": "2026-11-30T10:00:00Z", "habits": [], "entries": [], "settings": {"habiter_widget_undo_tokens": ["\#(Self.undo)"], "habiter_widget_action_ids": {"undoToken": "\#(Self.undo)", "lastActionId": "01HZX3K7Q9V5T2M8N4R6B1C0DE"}}}"#
        let result = TestSupport.scan(backup)
        #expect(!result.findings.contains { $0.ruleId.hasPrefix("name.") }, "\(result.findings.map(\.ruleId))")
        #expect(result.inventory.contains { $0.storeId == "habiter_widget_undo_tokens" })
        // As the app keeps them: a string list in plain prefs.
        let prefs = """
            <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
            <map>
                <string name="flutter.habiter_widget_undo_tokens">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu![&quot;\(Self.undo)&quot;]</string>
            </map>
            """
        #expect(!TestSupport.scan(prefs, name: "FlutterSharedPreferences.xml").findings.contains { $0.ruleId.hasPrefix("name.") })
    }

    @Test func aSecretInTheWidgetsStoreIsStillOne() {
        // Not an identifier: a credential the store should never hold.
        let backup = #"{"settings": {"habiter_widget_action_ids": {"undoToken": "q8Zr-Wm3v-Tt5x-Lp2k"}}}"#
        #expect(TestSupport.scan(backup).findings.contains { $0.ruleId == "name.token" })
    }

    @Test func inSyncDataTheStoreIsAPolicyFinding() {
        let push = #"{"operations": [], "habiter_widget_undo_tokens": ["\#(Self.undo)"]}"#
        let result = TestSupport.scan(push, options: ScanOptions(context: .sync))
        #expect(result.findings.contains { $0.ruleId.hasPrefix("inventory.") && $0.family == .policy }, "\(result.findings.map(\.ruleId))")
        #expect(!result.findings.contains { $0.ruleId == "name.token" && $0.family == .secret })
    }
}
