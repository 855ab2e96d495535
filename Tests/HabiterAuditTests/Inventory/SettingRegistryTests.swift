import Testing
@testable import HabiterAudit

/// The registry's value schemas, exactly: what passes, what fails and what the message says
/// (never the value itself).
@Suite struct SettingRegistryTests {
    static func value(_ json: String) -> JSONValue { try! JSONValue.parse(Array(json.utf8)).value }

    static func problem(_ key: String, _ json: String) -> String? {
        TestSupport.builtinPack.inventory.setting(key)!.schema.problem(with: value(json))
    }

    @Test(arguments: [
        ("appearance.theme", #""dark""#), ("appearance.language", #""en""#),
        ("coaching.showRecoverySupport", "false"), ("reminders.activeDayStart", #""00:00""#),
        ("reminders.activeDayEnd", #""23:59""#), ("reminders.globalDailyLimit", "1"),
        ("reminders.globalDailyLimit", "64"), ("reminders.defaultSnoozeMinutes", "1440"),
        ("reminders.quietHours", "[]"),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "07:00"}]"#),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "07:00"}, {"from": "12:00", "to": "13:00"}]"#),
        ("reminders.quietHours", #"[{"from": "07:00", "to": "08:00"}, {"from": "08:00", "to": "09:00"}]"#),
        ("reminders.quietHours", #"[{"to": "00:00", "from": "23:00"}, {"from": "00:00", "to": "01:00"}]"#),
    ])
    func conformingValuesPass(_ key: String, _ json: String) {
        #expect(Self.problem(key, json) == nil)
    }

    @Test(arguments: [
        ("appearance.theme", #""Dark""#, "expected one of light, dark, system, got another string"),
        ("appearance.theme", "1", "expected one of light, dark, system, got a number"),
        ("coaching.showRecoverySupport", #""true""#, "expected a boolean, got a string"),
        ("reminders.activeDayStart", #""24:00""#, "expected a time HH:mm (00:00 to 23:59)"),
        ("reminders.activeDayStart", #""7:30""#, "expected a time HH:mm (00:00 to 23:59)"),
        ("reminders.activeDayStart", #""07:3a""#, "expected a time HH:mm (00:00 to 23:59)"),
        ("reminders.activeDayStart", #""+7:30""#, "expected a time HH:mm (00:00 to 23:59)"),
        ("reminders.globalDailyLimit", "0", "expected an integer from 1 to 64, got one outside that range"),
        ("reminders.globalDailyLimit", "65", "expected an integer from 1 to 64, got one outside that range"),
        ("reminders.globalDailyLimit", "8.5", "expected an integer from 1 to 64, got a number"),
        ("reminders.globalDailyLimit", #""8""#, "expected an integer from 1 to 64, got a string"),
        ("reminders.quietHours", "{}", "expected an array of {from, to} ranges, got an object"),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "22:00"}]"#, "range 1 is empty (it starts where it ends)"),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "07:00"}, {"from": "06:00", "to": "08:00"}]"#, "ranges overlap"),
        ("reminders.quietHours", #"[{"from": "23:00", "to": "01:00"}, {"from": "00:30", "to": "02:00"}]"#, "ranges overlap"),
        ("reminders.quietHours", #"[{"from": "08:00", "to": "12:00"}, {"from": "09:00", "to": "10:00"}]"#, "ranges overlap"),
        ("reminders.quietHours", #"[{"start": "22:00", "end": "07:00"}]"#, #"range 1 is not {"from": "HH:mm", "to": "HH:mm"}"#),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "07:00", "note": "x"}]"#, #"range 1 is not {"from": "HH:mm", "to": "HH:mm"}"#),
        ("reminders.quietHours", #"["22:00-07:00"]"#, #"range 1 is not {"from": "HH:mm", "to": "HH:mm"}"#),
    ])
    func nonConformingValuesFailWithAReason(_ key: String, _ json: String, _ reason: String) {
        #expect(Self.problem(key, json) == reason)
    }

    @Test func everyDefaultFitsItsSchema() {
        for setting in TestSupport.builtinPack.inventory.settings {
            #expect(setting.schema.problem(with: setting.defaultValue) == nil, "\(setting.key)")
        }
    }

    @Test func keysOutsideTheRegistryAreNotSettings() {
        let inventory = TestSupport.builtinPack.inventory
        #expect(inventory.settings.count == 15)
        for key in ["Appearance.theme", "appearance.theme ", "reminders.quietHour", "reminders", "ai.apiKey", "appearance"] {
            #expect(inventory.setting(key) == nil, "\(key)")
        }
    }

    @Test func legacySourcesMapBackupFieldsToRegistryKeys() {
        let settings = TestSupport.builtinPack.inventory.settings
        func target(_ name: String) -> String? { settings.first { $0.isLegacySource(name) }?.key }
        #expect(target("theme") == "appearance.theme")
        #expect(target("settings_theme_mode") == "appearance.theme")
        #expect(target("language") == "appearance.language")
        #expect(target("reminderTime") == "reminders.dailyOverview.time")
        #expect(target("notifications") == "reminders.enabled")
        #expect(target("aiInsights") == nil)
    }
}
