import Foundation
import Testing

/// `rules/inventory.json` against the Personal Sync data contract it encodes.
///
/// The contract's Markdown is parsed here, independently of the library, so that a row added to
/// the contract and forgotten in the inventory fails the suite with the row's name. The inventory's
/// own hygiene (unique ids, known classes and verdicts) is checked even when the contract is absent.
@Suite struct InventoryCompletenessTests {
    // MARK: Paths

    /// Three directories above this file's folder (`Tests/HabiterAuditTests/Inventory/`).
    static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `HABITER_AUDIT_INVENTORY` points the suite at another copy of the inventory (used to show
    /// that the suite catches a removed entry without touching `rules/`).
    static var inventoryURL: URL {
        if let path = ProcessInfo.processInfo.environment["HABITER_AUDIT_INVENTORY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repoRoot.appendingPathComponent("rules/inventory.json")
    }

    static let contractURL = repoRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/contract/personal-sync-data-contract.md")

    static let knownClasses: Set<String> = ["synchronized", "device-local", "derived", "sensitive", "unsupported"]
    static let contexts: Set<String> = ["sync", "prefs", "backup", "payload"]
    static let verdictLevels: Set<String> = ["allowed", "note", "warning", "error"]
    static let keyLists = ["prefsKeys", "jsonFields", "nativePrefsFiles", "nativeKeys", "secureStorageKeys"]
    static let storeFields: Set<String> = Set(["id", "name", "table", "classes", "qualifier", "reason"] + keyLists)
    static let settingFields: Set<String> = ["key", "schema", "default", "projection", "legacySources"]

    // MARK: Loading

    /// The contract's text; the test that needs it is skipped, with the reason, when it is absent.
    static func contractText() throws -> String {
        guard let text = try? String(contentsOf: contractURL, encoding: .utf8) else {
            try Test.cancel("the contract is absent at \(contractURL.path)")
        }
        return text
    }

    static func loadInventory() throws -> Inventory {
        let data = try Data(contentsOf: inventoryURL)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                "\(inventoryURL.path) is not a JSON object")
        return Inventory(root: root)
    }

    /// A thin view over the decoded JSON; missing or mistyped fields read as empty and are
    /// reported by `inventoryIsWellFormed`.
    struct Inventory {
        let root: [String: Any]
        var stores: [[String: Any]] { root["stores"] as? [[String: Any]] ?? [] }
        var settings: [[String: Any]] { root["settings"] as? [[String: Any]] ?? [] }
        var verdicts: [String: Any] { root["verdicts"] as? [String: Any] ?? [:] }

        func store(named name: String) -> [String: Any]? { stores.first { $0["name"] as? String == name } }
        func setting(_ key: String) -> [String: Any]? { settings.first { $0["key"] as? String == key } }

        /// Every identifier the inventory knows: store ids and their dotted/colon components,
        /// every key list, and the setting keys.
        var identifiers: Set<String> {
            var all = Set<String>()
            for store in stores {
                if let id = store["id"] as? String {
                    all.insert(id)
                    all.formUnion(id.split(whereSeparator: { $0 == "." || $0 == ":" }).map(String.init))
                }
                for list in InventoryCompletenessTests.keyLists { all.formUnion(strings(store[list])) }
            }
            all.formUnion(settings.compactMap { $0["key"] as? String })
            return all
        }
    }

    static func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }

    // MARK: Contract parsing

    struct Table {
        var heading: String
        var header: [String]
        var rows: [[String]] = []

        func column(_ names: String...) -> Int? { header.firstIndex { names.contains($0) } }
    }

    /// The contract's tables, each under the last section heading before it. A row is a line
    /// containing `|`; in this document many rows start without a leading `|`. The first line of
    /// a table is its header and the `|---|` line after it is skipped. A cell that itself holds
    /// `|` (an enum such as `light | dark | system`) yields extra cells, joined back into the
    /// second column.
    static func tables(in text: String) -> [Table] {
        var tables: [Table] = []
        var heading = ""
        var current: Table?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            guard line.contains("|") else {
                if let table = current { tables.append(table); current = nil }
                if isHeading(line) { heading = line }
                continue
            }
            if isSeparator(line) { continue }
            var cells = splitCells(line)
            guard var table = current else {
                current = Table(heading: heading, header: cells)
                continue
            }
            if cells.count > table.header.count, table.header.count >= 2 {
                let extra = cells.count - table.header.count
                cells.replaceSubrange(1...(1 + extra), with: [cells[1...(1 + extra)].joined(separator: " | ")])
            }
            table.rows.append(cells)
            current = table
        }
        if let table = current { tables.append(table) }
        return tables
    }

    static func splitCells(_ line: String) -> [String] {
        var body = Substring(line)
        if body.hasPrefix("|") { body = body.dropFirst() }
        if body.hasSuffix("|") { body = body.dropLast() }
        return body.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func isSeparator(_ line: String) -> Bool {
        line.contains("-") && line.allSatisfy { "|-: ".contains($0) }
    }

    /// A section heading: a short capitalised line that is not a sentence, list item or comment.
    static func isHeading(_ line: String) -> Bool {
        guard let first = line.first, first.isUppercase, line.count <= 60 else { return false }
        if let last = line.last, ".:;,".contains(last) { return false }
        return line.split(separator: " ").count <= 7
    }

    /// Classes of a Class cell: `Device-local / Derived` is two classes; the text after the class
    /// word (`Synchronized only through the allow-list`) is its qualifier; a hyphenated variant
    /// (`Sensitive-adjacent`) keeps the whole word as qualifier. An unknown word comes back as is.
    static func classes(_ cell: String) -> [(name: String, qualifier: String?)] {
        cell.components(separatedBy: " / ").map { part in
            let lower = part.lowercased()
            guard let known = knownClasses.sorted(by: { $0.count > $1.count }).first(where: { lower.hasPrefix($0) }) else {
                return (lower, nil)
            }
            let rest = String(part.dropFirst(known.count))
            if rest.isEmpty { return (known, nil) }
            if rest.hasPrefix("-") { return (known, part) }
            return (known, rest.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Identifiers named in a cell: snake_case names (with dotted paths and `*` globs) and
    /// camelCase/PascalCase names. `habiter_widget_pin/result` names `habiter_widget_pin` and
    /// `habiter_widget_result`. File names (`personal_sync_contract.dart`) are not stores.
    static func identifiers(in cell: String) -> [String] {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.*/"))
        var result: [String] = []
        for raw in cell.components(separatedBy: allowed.inverted) {
            let token = raw.trimmingCharacters(in: CharacterSet(charactersIn: "./"))
            if token.hasSuffix(".dart") { continue }
            let parts = token.components(separatedBy: "/")
            if parts.count == 2, parts[0].contains("_"), let cut = parts[0].range(of: "_", options: .backwards) {
                result += [parts[0], parts[0][..<cut.lowerBound] + "_" + parts[1]]
            } else if parts.count == 1, isIdentifier(token) {
                result.append(token)
            }
        }
        return result
    }

    static func isIdentifier(_ token: String) -> Bool {
        if token.contains("_") { return token.first?.isLetter == true }
        let chars = Array(token)
        guard chars.count > 2, chars[0].isLetter else { return false }
        // camelCase or PascalCase: a lowercase letter followed later by an uppercase one.
        for i in 1..<chars.count where chars[i].isUppercase && chars[i - 1].isLowercase { return true }
        return false
    }

    /// True when `identifier`, or a dotted prefix of it, is known to the inventory.
    static func covered(_ identifier: String, by known: Set<String>, allowPrefix: Bool) -> Bool {
        if known.contains(identifier) { return true }
        guard allowPrefix else { return false }
        var parts = identifier.split(separator: ".").map(String.init)
        while parts.count > 1 {
            parts.removeLast()
            if known.contains(parts.joined(separator: ".")) { return true }
        }
        return false
    }

    /// Store tables: every table except the classification rules and the setting registry.
    static func storeTables(_ tables: [Table]) -> [Table] {
        tables.filter { $0.header.first != "Class" && $0.header.first != "Stable key" }
    }

    // MARK: The inventory on its own

    @Test func inventoryIsWellFormed() throws {
        let inventory = try Self.loadInventory()
        var problems: [String] = []

        let topLevel = Set(inventory.root.keys)
        if topLevel != ["$comment", "stores", "settings", "verdicts"] {
            problems.append("top-level keys are \(topLevel.sorted()), expected $comment, stores, settings, verdicts")
        }
        if (inventory.root["$comment"] as? String)?.isEmpty != false { problems.append("$comment is missing or empty") }

        var ids = Set<String>(), prefsOwners: [String: String] = [:]
        for (index, store) in inventory.stores.enumerated() {
            let id = store["id"] as? String ?? "stores[\(index)]"
            let unknown = Set(store.keys).subtracting(Self.storeFields)
            if !unknown.isEmpty { problems.append("\(id): unknown fields \(unknown.sorted())") }
            for field in ["id", "name", "table", "reason"] where (store[field] as? String)?.isEmpty != false {
                problems.append("\(id): \(field) must be a non-empty string")
            }
            if let qualifier = store["qualifier"], (qualifier as? String)?.isEmpty != false {
                problems.append("\(id): qualifier must be a non-empty string when present")
            }
            if !ids.insert(id).inserted { problems.append("duplicate store id \(id)") }
            let classes = Self.strings(store["classes"])
            if classes.isEmpty { problems.append("\(id): classes must be a non-empty array of strings") }
            if Set(classes).count != classes.count { problems.append("\(id): duplicate classes \(classes)") }
            for cls in classes where !Self.knownClasses.contains(cls) { problems.append("\(id): unknown class \(cls)") }
            for list in Self.keyLists {
                guard let values = store[list] as? [String] else {
                    problems.append("\(id): \(list) must be an array of strings"); continue
                }
                for value in values where value.isEmpty || value != value.trimmingCharacters(in: .whitespaces) {
                    problems.append("\(id): \(list) holds a blank or padded name")
                }
            }
            for key in Self.strings(store["prefsKeys"]) {
                if key.hasPrefix("flutter.") { problems.append("\(id): prefs key \(key) must omit the flutter. prefix") }
                if let owner = prefsOwners.updateValue(id, forKey: key) {
                    problems.append("prefs key \(key) belongs to both \(owner) and \(id)")
                }
            }
            for key in Self.strings(store["secureStorageKeys"]) {
                if !classes.contains("sensitive") { problems.append("\(id): secure-storage key \(key) in a store that is not sensitive") }
                if !Self.strings(store["prefsKeys"]).contains(key) {
                    problems.append("\(id): secure-storage key \(key) must also be listed in prefsKeys (it must never appear in plain prefs)")
                }
            }
        }

        let verdicts = inventory.verdicts
        if Set(verdicts.keys) != Self.knownClasses {
            problems.append("verdicts cover \(verdicts.keys.sorted()), expected \(Self.knownClasses.sorted())")
        }
        for cls in Self.knownClasses.sorted() {
            guard let byContext = verdicts[cls] as? [String: String] else {
                problems.append("verdicts.\(cls) must map each context to a level"); continue
            }
            if Set(byContext.keys) != Self.contexts {
                problems.append("verdicts.\(cls) covers \(byContext.keys.sorted()), expected \(Self.contexts.sorted())")
            }
            for (context, level) in byContext.sorted(by: { $0.key < $1.key }) where !Self.verdictLevels.contains(level) {
                problems.append("verdicts.\(cls).\(context): unknown level \(level)")
            }
        }

        var keys = Set<String>()
        for (index, setting) in inventory.settings.enumerated() {
            let key = setting["key"] as? String ?? "settings[\(index)]"
            if !keys.insert(key).inserted { problems.append("duplicate setting \(key)") }
            if Set(setting.keys) != Self.settingFields {
                problems.append("\(key): fields are \(setting.keys.sorted()), expected \(Self.settingFields.sorted())")
            }
            if (setting["projection"] as? String)?.isEmpty != false { problems.append("\(key): projection must be a non-empty string") }
            if Self.strings(setting["legacySources"]).isEmpty { problems.append("\(key): legacySources must be a non-empty array of strings") }
            problems += Self.schemaProblems(setting, key: key)
        }
        if inventory.settings.count != 15 { problems.append("\(inventory.settings.count) settings, expected the registry's 15") }

        #expect(problems.isEmpty, "rules/inventory.json:\n\(problems.joined(separator: "\n"))")
    }

    /// A setting's schema is one of the known types and its default conforms to it.
    static func schemaProblems(_ setting: [String: Any], key: String) -> [String] {
        guard let schema = setting["schema"] as? [String: Any], let type = schema["type"] as? String else {
            return ["\(key): schema must be an object with a type"]
        }
        let value = setting["default"]
        switch type {
        case "enum":
            let values = strings(schema["values"])
            if values.isEmpty || Set(values).count != values.count { return ["\(key): enum values must be distinct strings"] }
            if let v = value as? String, values.contains(v) { return [] }
            return ["\(key): default is not one of \(values)"]
        case "boolean":
            return isBool(value) ? [] : ["\(key): default must be a boolean"]
        case "time":
            return (value as? String).map(isTime) == true ? [] : ["\(key): default must be an HH:mm time"]
        case "integer":
            guard let min = integer(schema["minimum"]), let max = integer(schema["maximum"]), min <= max else {
                return ["\(key): integer schema needs integer minimum <= maximum"]
            }
            guard let v = integer(value), (min...max).contains(v) else { return ["\(key): default must be an integer in \(min)...\(max)"] }
            return []
        case "timeRanges":
            guard let ranges = value as? [Any] else { return ["\(key): default must be an array of time ranges"] }
            for range in ranges {
                guard let r = range as? [String: Any], let start = r["from"] as? String, let end = r["to"] as? String,
                      isTime(start), isTime(end), start != end else {
                    return ["\(key): each default range must be a non-empty {from, to} pair of HH:mm times"]
                }
            }
            return []
        default:
            return ["\(key): unknown schema type \(type)"]
        }
    }

    /// JSONSerialization gives booleans as NSNumber with objCType "c" (on Linux, `1 is Bool` is true).
    static func isBool(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, !isBool(number) else { return nil }
        let int = number.intValue
        return Double(int) == number.doubleValue ? int : nil
    }

    static func isTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute)
    }

    // MARK: The inventory against the contract

    @Test func contractClassesAreTheKnownClasses() throws {
        let contract = try Self.contractText()
        let table = try #require(Self.tables(in: contract).first { $0.header.first == "Class" },
                                 "the contract has no classification table")
        let named = Set(table.rows.map { $0[0].lowercased() })
        #expect(named == Self.knownClasses, "the contract's classes \(named.sorted()) differ from \(Self.knownClasses.sorted())")
    }

    @Test func everyContractRowIsAStore() throws {
        let contract = try Self.contractText()
        let inventory = try Self.loadInventory()
        let tables = Self.storeTables(Self.tables(in: contract))
        #expect(tables.count == 5, "expected five store tables in the contract, found \(tables.map(\.heading))")
        var problems: [String] = []
        for table in tables {
            let classColumn = table.column("Class")
            let reasonColumn = table.column("Reason", "Contract behavior", "Values")
            for row in table.rows {
                let name = row[0]
                guard let store = inventory.store(named: name) else {
                    problems.append("missing store \"\(name)\" (table \"\(table.heading)\")"); continue
                }
                let id = store["id"] as? String ?? name
                if store["table"] as? String != table.heading {
                    problems.append("\(id): table is \(store["table"] ?? "absent"), the contract says \"\(table.heading)\"")
                }
                if let column = classColumn, column < row.count {
                    let expected = Self.classes(row[column])
                    let classes = Self.strings(store["classes"])
                    if Set(classes) != Set(expected.map(\.name)) {
                        problems.append("\(id): classes \(classes), the contract says \"\(row[column])\" = \(expected.map(\.name))")
                    }
                    let qualifiers = expected.compactMap(\.qualifier)
                    if store["qualifier"] as? String != qualifiers.first || qualifiers.count > 1 {
                        problems.append("\(id): qualifier \(store["qualifier"] ?? "absent"), the contract says \(qualifiers)")
                    }
                }
                if let column = reasonColumn, column < row.count, store["reason"] as? String != row[column] {
                    problems.append("\(id): reason differs from the contract's \"\(table.header[column])\" text")
                }
            }
        }
        #expect(problems.isEmpty, "rules/inventory.json against the contract's tables:\n\(problems.joined(separator: "\n"))")
    }

    @Test func everyContractIdentifierIsInTheInventory() throws {
        let contract = try Self.contractText()
        let inventory = try Self.loadInventory()
        let known = inventory.identifiers
        var missing: [String] = []
        for table in Self.storeTables(Self.tables(in: contract)) {
            for row in table.rows {
                for identifier in Self.identifiers(in: row[0])
                where !Self.covered(identifier, by: known, allowPrefix: false) && !Self.envelopeShapeKeys.contains(identifier) {
                    missing.append("\(identifier) (row \"\(row[0])\", table \"\(table.heading)\")")
                }
            }
            // The native table's Values column names the keys inside each native file.
            if let values = table.column("Values") {
                for row in table.rows where values < row.count {
                    let nativeKeys = Set(Self.strings(inventory.store(named: row[0])?["nativeKeys"]))
                    for identifier in Self.identifiers(in: row[values]) where !nativeKeys.contains(identifier) {
                        missing.append("native key \(identifier) (row \"\(row[0])\")")
                    }
                }
            }
        }
        // Anywhere else (prose, setting sources): a store key or a dotted path below a known store.
        let anywhere = Self.identifiers(in: contract).filter { $0.contains("_") }
        for identifier in Set(anywhere).sorted() where !Self.covered(identifier, by: known, allowPrefix: true) {
            missing.append("\(identifier) (named in the contract's text)")
        }
        #expect(missing.isEmpty, "identifiers missing from rules/inventory.json:\n\(missing.joined(separator: "\n"))")
    }

    /// Names the scanner knows by the storage envelope's shape (`ShapeKeys`, the check
    /// `contract.storage-envelope`), not as fields of a store: alone, a `migratedAt` says nothing.
    static let envelopeShapeKeys: Set<String> = ["migratedAt", "quarantine"]

    /// Stores and categories that the contract classifies in prose rather than in a table row.
    static let proseStores: [(name: String, table: String, classes: Set<String>, evidence: String)] = [
        ("habiter_storage_envelope", "Canonical habit state", ["device-local"],
         "The envelope itself, its migration metadata, quarantine, and local revision never synchronize"),
        ("habiter_smart_reminders_v1", "Canonical habit state", ["device-local"],
         "Runtime planning and learning fields from that same store remain local."),
        ("habiter_user_preferences", "Approved setting registry", ["synchronized"],
         "habiter_user_preferences.theme and settings_theme_mode"),
        ("habiter_user_preferences.aiInsights", "Approved setting registry", ["unsupported"],
         "habiter_user_preferences.aiInsights is unsupported in version 1"),
        ("Notification permission state, OS channels, time-zone resolution, platform notification IDs, delivery success, and permission-prompt history",
         "Reminder and notification persistence", ["device-local"], " are always device-local."),
        ("Installed application inventory, usage-access and overlay permissions, foreground-service state, update installer permission, package installer source, widget IDs, OS backups, and notification channels",
         "Native Android persistence and files", ["device-local"], " are device-local even when"),
        ("Endpoint origins and sanitized connection timestamps", "Secure storage and never-synchronized data", ["device-local"],
         " may later use ordinary preferences but remain device-scoped connection metadata."),
    ]

    @Test func proseStoresAreInTheInventory() throws {
        let contract = try Self.contractText()
        let inventory = try Self.loadInventory()
        var problems: [String] = []
        for prose in Self.proseStores {
            // The evidence either follows the name (a list that ends in its class) or stands alone.
            let sentence = prose.evidence.hasPrefix(" ") ? prose.name + prose.evidence : prose.evidence
            if !contract.contains(sentence) { problems.append("the contract no longer says: \(sentence)") }
            guard let store = inventory.store(named: prose.name) else {
                problems.append("missing store \"\(prose.name)\" (prose of \"\(prose.table)\")"); continue
            }
            if store["table"] as? String != prose.table { problems.append("\(prose.name): table should be \"\(prose.table)\"") }
            if Set(Self.strings(store["classes"])) != prose.classes {
                problems.append("\(prose.name): classes \(Self.strings(store["classes"])), expected \(prose.classes.sorted())")
            }
            if let reason = store["reason"] as? String, !contract.contains(reason) {
                problems.append("\(prose.name): reason is not the contract's text")
            }
        }
        #expect(problems.isEmpty, "prose stores against rules/inventory.json:\n\(problems.joined(separator: "\n"))")
    }

    @Test func settingRegistryMatchesTheContract() throws {
        let contract = try Self.contractText()
        let inventory = try Self.loadInventory()
        let table = try #require(Self.tables(in: contract).first { $0.header.first == "Stable key" },
                                 "the contract has no setting registry table")
        #expect(table.rows.count == 15, "the contract's registry has \(table.rows.count) keys, expected 15")
        #expect(inventory.settings.count == table.rows.count, "rules/inventory.json has \(inventory.settings.count) settings, the contract \(table.rows.count)")
        var problems: [String] = []
        for row in table.rows where row.count == 4 {
            let key = row[0]
            guard let setting = inventory.setting(key) else { problems.append("missing setting \(key)"); continue }
            problems += Self.compare(setting, key: key, schemaAndDefault: row[1])
            if setting["projection"] as? String != row[2] { problems.append("\(key): projection should be \(row[2])") }
            let sources = row[3].components(separatedBy: "; ").flatMap { $0.components(separatedBy: " and ") }
            if Self.strings(setting["legacySources"]) != sources {
                problems.append("\(key): legacySources should be \(sources)")
            }
        }
        let contractKeys = Set(table.rows.map { $0[0] })
        for setting in inventory.settings {
            if let key = setting["key"] as? String, !contractKeys.contains(key) { problems.append("setting \(key) is not in the contract") }
        }
        #expect(problems.isEmpty, "settings against the contract's registry:\n\(problems.joined(separator: "\n"))")
    }

    /// Compares a setting with the contract's "Schema / default" cell, e.g. `Integer 1..64; 8`.
    static func compare(_ setting: [String: Any], key: String, schemaAndDefault cell: String) -> [String] {
        guard let split = cell.range(of: "; ", options: .backwards) else { return ["\(key): cannot read \"\(cell)\""] }
        let schemaText = String(cell[..<split.lowerBound])
        let defaultText = String(cell[split.upperBound...])
        let schema = setting["schema"] as? [String: Any] ?? [:]
        let type = schema["type"] as? String ?? "absent"
        let value = setting["default"]
        func expect(_ expectedType: String, _ ok: Bool) -> [String] {
            if type != expectedType { return ["\(key): schema type \(type), the contract says \"\(schemaText)\" (\(expectedType))"] }
            return ok ? [] : ["\(key): schema or default differs from the contract's \"\(cell)\""]
        }
        if schemaText == "Boolean" {
            return expect("boolean", isBool(value) && (value as? Bool).map { String($0) } == defaultText)
        }
        if schemaText == "HH:mm" {
            return expect("time", value as? String == defaultText)
        }
        if schemaText.hasPrefix("Integer ") {
            let bounds = schemaText.dropFirst("Integer ".count).components(separatedBy: "..").compactMap { Int($0) }
            return expect("integer", bounds.count == 2 && integer(schema["minimum"]) == bounds[0]
                          && integer(schema["maximum"]) == bounds[1] && integer(value) == Int(defaultText))
        }
        if schemaText.contains("local-time ranges") {
            return expect("timeRanges", defaultText == "[]" && (value as? [Any])?.isEmpty == true)
        }
        if schemaText.contains(" | ") {
            let values = schemaText.components(separatedBy: " | ")
            return expect("enum", strings(schema["values"]) == values && value as? String == defaultText)
        }
        return ["\(key): the contract's schema \"\(schemaText)\" is of a kind this test does not know"]
    }
}
