import AuditDetection
import AuditInputs

/// Merges SARIF logs (`habiter-audit merge`), e.g. the shards of one scan: runs of the same tool
/// and category (`automationDetails.id`) become one run, with the rules united (results'
/// `ruleIndex` renumbered), the artifacts concatenated (indexes renumbered), one invocation that
/// succeeded only if all did, and the inventory sections joined.
public enum SARIFMerge {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func merge(_ logs: [(name: String, text: [UInt8])]) throws(Failure) -> String {
        var groups: [String: [JSONValue]] = [:]
        var order: [String] = []
        for log in logs {
            guard let root = try? JSONValue.parse(log.text).value, root["version"]?.stringValue == "2.1.0",
                  let runs = root["runs"]?.arrayElements else {
                throw Failure(description: "\(log.name): not a SARIF 2.1.0 log")
            }
            for run in runs.map(\.value) {
                let tool = run["tool"]?["driver"]?["name"]?.stringValue ?? ""
                let key = tool + "\u{0}" + (run["automationDetails"]?["id"]?.stringValue ?? "")
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(run)
            }
        }
        return JSONOutput.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array(order.map { mergeRuns(groups[$0]!) })),
        ]).rendered()
    }

    static func mergeRuns(_ runs: [JSONValue]) -> JSONOutput {
        var rules: [JSONValue] = []
        var ruleIndexById: [String: Int] = [:]
        var artifacts: [JSONOutput] = []
        var results: [JSONOutput] = []
        var notifications: [JSONOutput] = []
        var successful = true
        var exitCode = 0
        var inventory: [JSONValue] = []
        var baseIds: [(String, JSONOutput)] = []
        for run in runs {
            // The shards' roots (--root): the first run's meaning of a base id wins.
            for member in run["originalUriBaseIds"]?.objectMembers ?? [] where !baseIds.contains(where: { $0.0 == member.key }) {
                baseIds.append((member.key, JSONOutput(member.value.value)))
            }
            var localRuleIndex: [Int: Int] = [:]
            for (i, rule) in (run["tool"]?["driver"]?["rules"]?.arrayElements ?? []).enumerated() {
                let id = rule.value["id"]?.stringValue ?? ""
                if let existing = ruleIndexById[id] {
                    localRuleIndex[i] = existing
                } else {
                    ruleIndexById[id] = rules.count
                    localRuleIndex[i] = rules.count
                    rules.append(rule.value)
                }
            }
            let artifactOffset = artifacts.count
            artifacts += (run["artifacts"]?.arrayElements ?? []).map { JSONOutput($0.value) }
            for result in run["results"]?.arrayElements ?? [] {
                results.append(renumber(result.value, ruleIndex: localRuleIndex, artifactOffset: artifactOffset))
            }
            for invocation in run["invocations"]?.arrayElements ?? [] {
                if invocation.value["executionSuccessful"]?.boolValue == false { successful = false }
                if case .number(let n)? = invocation.value["exitCode"], let code = Int(n) { exitCode = max(exitCode, code) }
                for notification in invocation.value["toolExecutionNotifications"]?.arrayElements ?? [] {
                    notifications.append(renumber(notification.value, ruleIndex: [:], artifactOffset: artifactOffset))
                }
            }
            inventory += (run["properties"]?["inventory"]?.arrayElements ?? []).map(\.value)
        }
        let first = runs[0]
        var driver = first["tool"]?["driver"]?.objectMembers?.map { ($0.key, JSONOutput($0.value.value)) } ?? []
        driver.removeAll { $0.0 == "rules" }
        driver.append(("rules", .array(rules.map(JSONOutput.init))))
        return .members([
            ("tool", .object([("driver", .object(driver))])),
            ("automationDetails", first["automationDetails"].map(JSONOutput.init)),
            ("invocations", .array([.members([
                ("executionSuccessful", .bool(successful)),
                ("exitCode", .int(exitCode)),
                ("toolExecutionNotifications", notifications.isEmpty ? nil : .array(notifications)),
            ])])),
            ("originalUriBaseIds", baseIds.isEmpty ? nil : .object(baseIds)),
            ("artifacts", .array(artifacts)),
            ("results", .array(results)),
            ("columnKind", first["columnKind"].map(JSONOutput.init)),
            ("newlineSequences", first["newlineSequences"].map(JSONOutput.init)),
            ("properties", inventory.isEmpty ? nil : .object([("inventory", .array(mergeInventory(inventory)))])),
        ])
    }

    /// A result or notification with its rule and artifact indexes renumbered for the merged run.
    static func renumber(_ value: JSONValue, ruleIndex: [Int: Int], artifactOffset: Int) -> JSONOutput {
        func walk(_ value: JSONValue, parentKey: String?) -> JSONOutput {
            switch value {
            case .object(let members):
                return .object(members.map { member in
                    if member.key == "ruleIndex", case .number(let n) = member.value.value, let i = Int(n) {
                        return (member.key, ruleIndex[i].map(JSONOutput.int) ?? .int(i))
                    }
                    if member.key == "index", parentKey == "artifactLocation", case .number(let n) = member.value.value, let i = Int(n) {
                        return (member.key, .int(i + artifactOffset))
                    }
                    return (member.key, walk(member.value.value, parentKey: member.key))
                })
            case .array(let elements):
                return .array(elements.map { walk($0.value, parentKey: parentKey) })
            default:
                return JSONOutput(value)
            }
        }
        return walk(value, parentKey: nil)
    }

    /// Inventory lines of several runs, one per store: contexts, inputs and notes united, the
    /// strictest verdict kept.
    static func mergeInventory(_ entries: [JSONValue]) -> [JSONOutput] {
        let verdictOrder = Verdict.allCases.map(\.rawValue)
        var merged: [String: (first: JSONValue, contexts: Set<String>, artifacts: Set<String>, notes: Set<String>, verdict: String)] = [:]
        for entry in entries {
            let key = entry["store"]?.stringValue ?? "?" + (entry["name"]?.stringValue ?? "")
            let strings = { (field: String) in Set((entry[field]?.arrayElements ?? []).compactMap(\.value.stringValue)) }
            let verdict = entry["verdict"]?.stringValue ?? "note"
            if var m = merged[key] {
                m.contexts.formUnion(strings("contexts"))
                m.artifacts.formUnion(strings("artifacts"))
                m.notes.formUnion(strings("notes"))
                if (verdictOrder.firstIndex(of: verdict) ?? 0) > (verdictOrder.firstIndex(of: m.verdict) ?? 0) { m.verdict = verdict }
                merged[key] = m
            } else {
                merged[key] = (entry, strings("contexts"), strings("artifacts"), strings("notes"), verdict)
            }
        }
        return merged.keys.sorted().map { key in
            let m = merged[key]!
            return .object([
                ("store", m.first["store"].map(JSONOutput.init) ?? .null),
                ("name", .string(m.first["name"]?.stringValue ?? "")),
                ("classes", m.first["classes"].map(JSONOutput.init) ?? .array([])),
                ("contexts", .array(m.contexts.sorted().map(JSONOutput.string))),
                ("verdict", .string(m.verdict)),
                ("artifacts", .array(m.artifacts.sorted().map(JSONOutput.string))),
                ("notes", .array(m.notes.sorted().map(JSONOutput.string))),
            ])
        }
    }
}
