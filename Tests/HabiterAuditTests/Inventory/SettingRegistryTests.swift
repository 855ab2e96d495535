@testable import AuditInputs
import Testing

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
        ("reminders.quietHours", #"[{"start": "22:00", "end": "07:00"}]"#),
        ("reminders.quietHours", #"[{"start": "12:00", "end": "13:00"}, {"start": "22:00", "end": "07:00"}]"#),
        ("reminders.quietHours", #"[{"start": "07:00", "end": "08:00"}, {"start": "08:01", "end": "09:00"}]"#),
        ("reminders.quietHours", #"[{"end": "23:59", "start": "23:00"}, {"start": "00:00", "end": "01:00"}]"#),
    ])
    func conformingValuesPass(_ key: String, _ json: String) {
        #expect(Self.problem(key, json) == nil)
    }

    static let overlap = "ranges overlap (the end minute counts as covered, so touching ranges overlap too)"

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
        ("reminders.globalDailyLimit", "12.0", "expected an integer from 1 to 64, got a number"),
        ("reminders.globalDailyLimit", #""8""#, "expected an integer from 1 to 64, got a string"),
        ("reminders.quietHours", "{}", "expected an array of {start, end} ranges, got an object"),
        ("reminders.quietHours", #"[{"start": "22:00", "end": "22:00"}]"#, "range 1 is empty (it starts where it ends)"),
        ("reminders.quietHours", #"[{"start": "22:00", "end": "07:00"}, {"start": "06:00", "end": "08:00"}]"#, SettingRegistryTests.overlap),
        ("reminders.quietHours", #"[{"start": "23:00", "end": "01:00"}, {"start": "00:30", "end": "02:00"}]"#, SettingRegistryTests.overlap),
        ("reminders.quietHours", #"[{"start": "08:00", "end": "12:00"}, {"start": "09:00", "end": "10:00"}]"#, SettingRegistryTests.overlap),
        // The end minute is covered (the app's ReminderPreferences and the server agree).
        ("reminders.quietHours", #"[{"start": "22:00", "end": "23:00"}, {"start": "23:00", "end": "23:30"}]"#, SettingRegistryTests.overlap),
        ("reminders.quietHours", #"[{"start": "22:00", "end": "07:00"}, {"start": "07:00", "end": "08:00"}]"#, SettingRegistryTests.overlap),
        ("reminders.quietHours", #"[{"from": "22:00", "to": "07:00"}]"#, #"range 1 is not {"start": "HH:mm", "end": "HH:mm"}"#),
        ("reminders.quietHours", #"[{"start": "22:00", "end": "07:00", "note": "x"}]"#, #"range 1 is not {"start": "HH:mm", "end": "HH:mm"}"#),
        ("reminders.quietHours", #"[{"start": "7:00", "end": "08:00"}]"#, #"range 1 is not {"start": "HH:mm", "end": "HH:mm"}"#),
        ("reminders.quietHours", #"["22:00-07:00"]"#, #"range 1 is not {"start": "HH:mm", "end": "HH:mm"}"#),
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
