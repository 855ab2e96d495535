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
        try runs(of: logs).rendered()
    }

    /// The runs of the logs, grouped by tool and category, read whole before any is written: a
    /// log that is no SARIF log fails the merge before its output is begun.
    public struct Runs {
        /// In the order each group first appears.
        fileprivate let groups: [[JSONValue]]

        /// The merged log.
        public func rendered() -> String {
            JSONStreamWriter.rendered(reserving: 1 << 16) { writer, flush in SARIFMerge.write(groups, into: &writer, flush: flush) }
        }

        /// Writes the merged log to `sink` as it is made, about `chunk` bytes at a time; false
        /// when the sink fails.
        public func write(chunk: Int = 1 << 20, to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
            JSONStreamWriter.stream(chunk: chunk, to: sink) { writer, flush in SARIFMerge.write(groups, into: &writer, flush: flush) }
        }
    }

    /// Reads the logs, grouping their runs; fails on a log that is no SARIF 2.1.0 log.
    public static func runs(of logs: [(name: String, text: [UInt8])]) throws(Failure) -> Runs {
        var groups: [String: Int] = [:]
        var runGroups: [[JSONValue]] = []
        for log in logs {
            guard let root = try? JSONValue.parse(log.text).value, root["version"]?.stringValue == "2.1.0",
                  let runs = root["runs"]?.arrayElements else {
                throw Failure(description: "\(log.name): not a SARIF 2.1.0 log")
            }
            for run in runs.map(\.value) {
                let tool = run["tool"]?["driver"]?["name"]?.stringValue ?? ""
                let key = tool + "\u{0}" + (run["automationDetails"]?["id"]?.stringValue ?? "")
                if let group = groups[key] {
                    runGroups[group].append(run)
                } else {
                    groups[key] = runGroups.count
                    runGroups.append([run])
                }
            }
        }
        return Runs(groups: runGroups)
    }

    /// Written member by member from the parsed logs, as the scan's SARIF is: built as a tree
    /// and then a string, two shards of 25 MB took 620 MiB at the peak.
    private static func write(_ groups: [[JSONValue]], into writer: inout JSONStreamWriter, flush: JSONStreamWriter.Flush) -> Bool {
        writer.open("{")
        writer.key("$schema"); writer.string("https://json.schemastore.org/sarif-2.1.0.json")
        writer.key("version"); writer.string("2.1.0")
        writer.key("runs"); writer.open("[")
        for runs in groups {
            writer.element()
            guard mergeRuns(runs, into: &writer, flush: flush) else { return false }
        }
        writer.close("]")
        writer.close("}")
        return true
    }

    /// One run of `runs`: rules united, artifacts concatenated, results renumbered.
    private static func mergeRuns(_ runs: [JSONValue], into writer: inout JSONStreamWriter, flush: JSONStreamWriter.Flush) -> Bool {
        var rules: [JSONValue] = []
        var ruleIndexById: [String: Int] = [:]
        // Each run's rule indexes in the merged run, and the number of artifacts before its own.
        var ruleIndexes: [[Int: Int]] = []
        var artifactOffsets: [Int] = []
        // Each run's tool execution notifications, from all its invocations.
        var notifications: [[JSONValue.Node]] = []
        var artifactCount = 0
        var successful = true
        var exitCode = 0
        var inventory: [JSONValue] = []
        var baseIds: [JSONValue.Member] = []
        for run in runs {
            // The shards' roots (--root): the first run's meaning of a base id wins.
            for member in run["originalUriBaseIds"]?.objectMembers ?? [] where !baseIds.contains(where: { $0.key == member.key }) {
                baseIds.append(member)
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
            ruleIndexes.append(localRuleIndex)
            artifactOffsets.append(artifactCount)
            artifactCount += run["artifacts"]?.arrayElements?.count ?? 0
            var runNotifications: [JSONValue.Node] = []
            for invocation in run["invocations"]?.arrayElements ?? [] {
                runNotifications += invocation.value["toolExecutionNotifications"]?.arrayElements ?? []
                if invocation.value["executionSuccessful"]?.boolValue == false { successful = false }
                if case .number(let n)? = invocation.value["exitCode"], let code = Int(n) { exitCode = max(exitCode, code) }
            }
            notifications.append(runNotifications)
            inventory += (run["properties"]?["inventory"]?.arrayElements ?? []).map(\.value)
        }
        let first = runs[0]
        writer.open("{")
        writer.key("tool"); writer.open("{")
        writer.key("driver"); writer.open("{")
        for member in first["tool"]?["driver"]?.objectMembers ?? [] where member.key != "rules" {
            writer.key(escaping: member.key)
            writer.value(member.value.value)
        }
        writer.key("rules"); writer.open("[")
        for rule in rules {
            writer.element()
            writer.value(rule)
        }
        writer.close("]")
        writer.close("}")
        writer.close("}")
        if let details = first["automationDetails"] {
            writer.key("automationDetails"); writer.value(details)
        }
        writer.key("invocations"); writer.open("[")
        writer.element(); writer.open("{")
        writer.key("executionSuccessful"); writer.bool(successful)
        writer.key("exitCode"); writer.int(exitCode)
        if notifications.contains(where: { !$0.isEmpty }) {
            writer.key("toolExecutionNotifications"); writer.open("[")
            for (run, list) in notifications.enumerated() {
                for notification in list {
                    writer.element()
                    writeRenumbered(notification.value, ruleIndex: [:], artifactOffset: artifactOffsets[run], into: &writer)
                }
            }
            writer.close("]")
        }
        writer.close("}")
        writer.close("]")
        if !baseIds.isEmpty {
            writer.key("originalUriBaseIds"); writer.value(.object(baseIds))
        }
        writer.key("artifacts"); writer.open("[")
        for run in runs {
            for artifact in run["artifacts"]?.arrayElements ?? [] {
                writer.element()
                writer.value(artifact.value)
            }
        }
        writer.close("]")
        writer.key("results"); writer.open("[")
        for (i, run) in runs.enumerated() {
            for result in run["results"]?.arrayElements ?? [] {
                writer.element()
                writeRenumbered(result.value, ruleIndex: ruleIndexes[i], artifactOffset: artifactOffsets[i], into: &writer)
                guard flush(&writer) else { return false }
            }
        }
        writer.close("]")
        if let columnKind = first["columnKind"] {
            writer.key("columnKind"); writer.value(columnKind)
        }
        if let sequences = first["newlineSequences"] {
            writer.key("newlineSequences"); writer.value(sequences)
        }
        if !inventory.isEmpty {
            writer.key("properties"); writer.open("{")
            writer.key("inventory"); writer.value(.array(mergeInventory(inventory)))
            writer.close("}")
        }
        writer.close("}")
        return true
    }

    /// A result or notification with its rule and artifact indexes renumbered for the merged run.
    private static func writeRenumbered(_ value: JSONValue, parentKey: String? = nil, ruleIndex: [Int: Int], artifactOffset: Int,
                                        into writer: inout JSONStreamWriter) {
        switch value {
        case .object(let members):
            writer.open("{")
            for member in members {
                writer.key(escaping: member.key)
                if member.key == "ruleIndex", case .number(let n) = member.value.value, let i = Int(n) {
                    writer.int(ruleIndex[i] ?? i)
                } else if member.key == "index", parentKey == "artifactLocation", case .number(let n) = member.value.value, let i = Int(n) {
                    writer.int(i + artifactOffset)
                } else {
                    writeRenumbered(member.value.value, parentKey: member.key, ruleIndex: ruleIndex, artifactOffset: artifactOffset, into: &writer)
                }
            }
            writer.close("}")
        case .array(let elements):
            writer.open("[")
            for element in elements {
                writer.element()
                writeRenumbered(element.value, parentKey: parentKey, ruleIndex: ruleIndex, artifactOffset: artifactOffset, into: &writer)
            }
            writer.close("]")
        default:
            writer.value(value)
        }
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
