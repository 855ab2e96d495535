import AuditCore
import AuditDetection
import AuditInputs

/// The classification inventory itself, as `habiter-audit inventory` prints it: every store with
/// its class, reason and on-disk and on-wire names, the setting registry, and the verdict table.
package enum InventoryListing {
    package enum Format: String, CaseIterable { case text, json, markdown }

    package static func render(_ inventory: Inventory, as format: Format) -> String {
        switch format {
        case .text: return text(inventory)
        case .json: return json(inventory).rendered()
        case .markdown: return markdown(inventory)
        }
    }

    /// The contract's tables in the order the inventory lists them.
    private static func tables(_ inventory: Inventory) -> [(name: String, stores: [Store])] {
        var order: [String] = []
        var byTable: [String: [Store]] = [:]
        for store in inventory.stores {
            if byTable[store.table] == nil { order.append(store.table) }
            byTable[store.table, default: []].append(store)
        }
        return order.map { ($0, byTable[$0]!) }
    }

    private static func classText(_ store: Store) -> String {
        store.classes.map(\.rawValue).joined(separator: " / ") + (store.qualifier.map { " (\($0))" } ?? "")
    }

    /// Where the store appears: prefs keys, JSON fields, native files and keys, secure keys.
    private static func appearances(_ store: Store) -> [(label: String, names: String)] {
        [("prefs keys", store.prefsKeys), ("JSON fields", store.jsonFields), ("native files", store.nativePrefsFiles),
         ("native keys", store.nativeKeys), ("secure keys", store.secureStorageKeys)]
            .filter { !$0.1.isEmpty }.map { ($0.0, $0.1.joined(separator: ", ")) }
    }

    /// The exception to the verdict table, in words.
    static let plainPrefsNote = "In a prefs export, a store the app keeps in plain prefs by design is at most a note, whatever its class."

    static func schemaText(_ schema: SettingSchema) -> String {
        switch schema {
        case .enumeration(let values): return values.joined(separator: " | ")
        case .boolean: return "boolean"
        case .time: return "HH:mm"
        case .integer(let minimum, let maximum): return "integer \(minimum)–\(maximum)"
        case .timeRanges: return "[{from, to}] HH:mm, non-empty, non-overlapping"
        }
    }


    private static func valueText(_ value: JSONValue) -> String {
        JSONOutput(value).renderedOnOneLine()
    }

    // MARK: Text

    private static func text(_ inventory: Inventory) -> String {
        var out = ""
        for table in tables(inventory) {
            out += table.name + "\n"
            for store in table.stores {
                out += "  " + store.id + "\n"
                var lines = [("class", classText(store))]
                if store.name != store.id { lines.append(("name", store.name)) }
                lines += appearances(store)
                lines.append(("reason", store.reason))
                for (label, value) in lines { out += "      " + (label + ":").padding(toLength: 14) + value + "\n" }
            }
            out += "\n"
        }
        out += "Approved setting registry\n"
        let width = inventory.settings.map(\.key.count).max() ?? 0
        for setting in inventory.settings {
            out += "  " + setting.key.padding(toLength: width + 2) + schemaText(setting.schema)
                + "; default " + valueText(setting.defaultValue) + "; " + setting.projection + "\n"
        }
        out += "\nVerdicts (class in context)\n"
        out += "  " + "".padding(toLength: 14) + ScanContext.allCases.map { $0.rawValue.padding(toLength: 10) }.joined() + "\n"
        for dataClass in DataClass.allCases {
            out += "  " + dataClass.rawValue.padding(toLength: 14)
                + ScanContext.allCases.map { inventory.verdict(for: [dataClass], in: $0).rawValue.padding(toLength: 10) }.joined() + "\n"
        }
        return out + plainPrefsNote + "\n\n\(inventory.stores.count) stores, \(inventory.settings.count) settings.\n"
    }

    // MARK: JSON

    private static func json(_ inventory: Inventory) -> JSONOutput {
        .object([
            ("stores", .array(inventory.stores.map { store in
                .members([
                    ("id", .string(store.id)),
                    ("name", .string(store.name)),
                    ("table", .string(store.table)),
                    ("classes", .array(store.classes.map { .string($0.rawValue) })),
                    ("qualifier", store.qualifier.map(JSONOutput.string)),
                    ("reason", .string(store.reason)),
                    ("prefsKeys", .array(store.prefsKeys.map(JSONOutput.string))),
                    ("jsonFields", .array(store.jsonFields.map(JSONOutput.string))),
                    ("nativePrefsFiles", .array(store.nativePrefsFiles.map(JSONOutput.string))),
                    ("nativeKeys", .array(store.nativeKeys.map(JSONOutput.string))),
                    ("secureStorageKeys", .array(store.secureStorageKeys.map(JSONOutput.string))),
                ])
            })),
            ("settings", .array(inventory.settings.map { setting in
                .object([
                    ("key", .string(setting.key)),
                    ("schema", .string(schemaText(setting.schema))),
                    ("default", JSONOutput(setting.defaultValue)),
                    ("projection", .string(setting.projection)),
                    ("legacySources", .array(setting.legacySources.map(JSONOutput.string))),
                ])
            })),
            ("verdicts", .object(DataClass.allCases.map { dataClass in
                (dataClass.rawValue, .object(ScanContext.allCases.map {
                    ($0.rawValue, .string(inventory.verdict(for: [dataClass], in: $0).rawValue))
                }))
            })),
        ])
    }

    // MARK: Markdown

    /// A table cell: pipes escaped, line breaks flattened.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private static func markdown(_ inventory: Inventory) -> String {
        var out = "# Personal Sync data inventory\n\n"
        for table in tables(inventory) {
            out += "## \(table.name)\n\n| Store | Class | Appears as | Reason |\n| --- | --- | --- | --- |\n"
            for store in table.stores {
                let name = store.name == store.id ? "`\(store.id)`" : "`\(store.id)`: \(store.name)"
                out += "| \(cell(name)) | \(cell(classText(store))) | \(cell(appearances(store).map { "\($0.label): \($0.names)" }.joined(separator: "; "))) | \(cell(store.reason)) |\n"
            }
            out += "\n"
        }
        out += "## Approved setting registry\n\n| Key | Schema | Default | Projection | Legacy sources |\n| --- | --- | --- | --- | --- |\n"
        for setting in inventory.settings {
            out += "| `\(setting.key)` | \(cell(schemaText(setting.schema))) | `\(cell(valueText(setting.defaultValue)))` | \(cell(setting.projection)) | \(cell(setting.legacySources.joined(separator: "; "))) |\n"
        }
        out += "\n## Verdicts\n\n| Class | " + ScanContext.allCases.map(\.rawValue).joined(separator: " | ") + " |\n"
        out += "| --- |" + String(repeating: " --- |", count: ScanContext.allCases.count) + "\n"
        for dataClass in DataClass.allCases {
            out += "| \(dataClass.rawValue) | " + ScanContext.allCases.map { inventory.verdict(for: [dataClass], in: $0).rawValue }.joined(separator: " | ") + " |\n"
        }
        return out + "\n" + plainPrefsNote + "\n"
    }
}
