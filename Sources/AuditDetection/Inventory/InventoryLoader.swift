import AuditCore
import AuditInputs
import AuditRules

/// Reads `rules/inventory.json` (embedded like the rule pack). Malformed data is a rule-file
/// error naming the file, the position and the entry.
public enum InventoryLoader {
    static let fileName = "inventory.json"

    /// The built-in inventory.
    public static func builtin() throws(FileFormatError) -> Inventory {
        guard let file = BuiltinRuleFiles.files.first(where: { $0.name == fileName }) else {
            throw FileFormatError(file: "builtin:\(fileName)", reason: "the built-in inventory is missing")
        }
        return try parse(Array(file.text.utf8), file: "builtin:\(fileName)")
    }

    static func parse(_ text: [UInt8], file: String) throws(FileFormatError) -> Inventory {
        let root: JSONValue
        do {
            root = try JSONValue.parse(text).value
        } catch {
            throw FileFormatError(file: file, reason: "not valid JSON")
        }
        let reader = InventoryFileReader(file: file)
        return Inventory(stores: try reader.stores(root["stores"]), settings: try reader.settings(root["settings"]),
                         verdicts: try reader.verdicts(root["verdicts"]))
    }
}

/// The sections of an inventory file, each read and checked; errors name the file.
private struct InventoryFileReader {
    let file: String

    func fail(_ reason: String) -> FileFormatError { FileFormatError(file: file, reason: reason) }

    func strings(_ value: JSONValue?) throws(FileFormatError) -> [String] {
        guard let value else { return [] }
        guard let elements = value.arrayElements else { throw fail("expected an array of strings") }
        var result: [String] = []
        for e in elements {
            guard let s = e.value.stringValue else { throw fail("expected an array of strings") }
            result.append(s)
        }
        return result
    }

    func stores(_ section: JSONValue?) throws(FileFormatError) -> [Store] {
        var stores: [Store] = []
        var ids = Set<String>()
        for element in section?.arrayElements ?? [] {
            let entry = element.value
            guard let id = entry["id"]?.stringValue, let name = entry["name"]?.stringValue,
                  let table = entry["table"]?.stringValue, let reason = entry["reason"]?.stringValue else {
                throw fail("a store needs id, name, table and reason")
            }
            guard ids.insert(id).inserted else { throw fail("store '\(id)': duplicate id") }
            var classes: [DataClass] = []
            for text in try strings(entry["classes"]) {
                guard let c = DataClass(rawValue: text) else { throw fail("store '\(id)': unknown class '\(text)'") }
                classes.append(c)
            }
            if classes.isEmpty { throw fail("store '\(id)': no class") }
            stores.append(Store(
                id: id, name: name, table: table, classes: classes, qualifier: entry["qualifier"]?.stringValue, reason: reason,
                prefsKeys: try strings(entry["prefsKeys"]), jsonFields: try strings(entry["jsonFields"]),
                nativePrefsFiles: try strings(entry["nativePrefsFiles"]), nativeKeys: try strings(entry["nativeKeys"]),
                secureStorageKeys: try strings(entry["secureStorageKeys"])))
        }
        return stores
    }

    func settings(_ section: JSONValue?) throws(FileFormatError) -> [SettingDefinition] {
        var settings: [SettingDefinition] = []
        for element in section?.arrayElements ?? [] {
            let entry = element.value
            guard let key = entry["key"]?.stringValue, let schema = entry["schema"], let type = schema["type"]?.stringValue,
                  let defaultValue = entry["default"], let projection = entry["projection"]?.stringValue else {
                throw fail("a setting needs key, schema, default and projection")
            }
            let parsed: SettingSchema
            switch type {
            case "enum": parsed = .enumeration(try strings(schema["values"]))
            case "boolean": parsed = .boolean
            case "time": parsed = .time
            case "integer":
                guard let minimum = schema["minimum"]?.integerValue, let maximum = schema["maximum"]?.integerValue else {
                    throw fail("setting '\(key)': an integer schema needs minimum and maximum")
                }
                parsed = .integer(minimum: minimum, maximum: maximum)
            case "timeRanges": parsed = .timeRanges
            default: throw fail("setting '\(key)': unknown schema type '\(type)'")
            }
            if let problem = parsed.problem(with: defaultValue) { throw fail("setting '\(key)': the default does not fit the schema: \(problem)") }
            settings.append(SettingDefinition(key: key, schema: parsed, defaultValue: defaultValue, projection: projection,
                                              legacySources: try strings(entry["legacySources"])))
        }
        return settings
    }

    /// Every class needs a verdict in every context.
    func verdicts(_ section: JSONValue?) throws(FileFormatError) -> [DataClass: [ScanContext: Verdict]] {
        var verdicts: [DataClass: [ScanContext: Verdict]] = [:]
        for member in section?.objectMembers ?? [] {
            guard let c = DataClass(rawValue: member.key) else { throw fail("verdicts: unknown class '\(member.key)'") }
            for contextMember in member.value.value.objectMembers ?? [] {
                guard let context = ScanContext(rawValue: contextMember.key),
                      let verdict = contextMember.value.value.stringValue.flatMap(Verdict.init(rawValue:)) else {
                    throw fail("verdicts: bad entry for '\(member.key)'")
                }
                verdicts[c, default: [:]][context] = verdict
            }
        }
        for c in DataClass.allCases {
            for context in ScanContext.allCases where verdicts[c]?[context] == nil {
                throw fail("verdicts: no verdict for \(c.rawValue) in \(context.rawValue)")
            }
        }
        return verdicts
    }
}
