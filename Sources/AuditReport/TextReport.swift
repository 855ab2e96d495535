import AuditCore

/// The terminal report: findings grouped by file, then input errors, then a one-line summary.
/// Colour only when asked for (the CLI asks when stdout is a terminal and NO_COLOR is unset).
/// Everything an input can carry (file names, keys in messages and paths, error reasons) is
/// shown through `DisplayText`, so no input can write to the terminal.
public enum TextReport {
    /// The widest name the inventory section aligns its columns to.
    static let inventoryNameColumn = 48

    public static func render(_ input: ReportInput, colour: Bool) -> String {
        let style = Style(enabled: colour)
        // Bytes, not a string: a piece appended to a string took some 500 instructions, and a
        // finding is a dozen pieces.
        var out: [UInt8] = []
        out.reserveCapacity(input.result.findings.count * 200 + 256)
        func put(_ text: String) { out += text.utf8 }
        var currentArtifact: String?
        input.result.findings.withUnsafeBufferPointer { findings in
            for finding in findings where finding.isActive {
                if finding.artifact != currentArtifact {
                    if currentArtifact != nil { put("\n") }
                    put(style.bold(DisplayText.escaped(finding.artifact)))
                    put("\n")
                    currentArtifact = finding.artifact
                }
                put("  ")
                put((String(finding.position.line) + ":" + String(finding.position.column)).padding(toLength: 9))
                put(style.level(finding.level))
                put("  ")
                put(DisplayText.escaped(finding.ruleId))
                put("\n           ")
                put(DisplayText.escaped(finding.message))
                put("\n           ")
                put(style.start(Style.dimCode))
                put(finding.pathText.isEmpty ? "/" : DisplayText.escaped(finding.pathText))
                put("  [")
                put(finding.family.rawValue)
                put(", ")
                put(finding.context.rawValue)
                put(", ")
                put(finding.confidence.rawValue)
                put(" confidence]")
                put(style.end)
                put("\n")
            }
        }
        if !input.result.inventory.isEmpty {
            if !out.isEmpty { put("\n") }
            put(style.bold("Inventory: stores seen") + "\n")
            let names = input.result.inventory.map { DisplayText.escaped($0.name) }
            // Names are shown whole; one longer than the column stands on a line of its own.
            let width = min(Self.inventoryNameColumn, names.map(\.count).max() ?? 0)
            let indent = String(repeating: " ", count: width + 2)
            for (entry, name) in zip(input.result.inventory, names) {
                let classes = entry.classes.map(\.rawValue).joined(separator: " / ")
                let contexts = entry.contexts.map(\.rawValue).joined(separator: ", ")
                put("  " + (name.count > width ? name + "\n  " + indent : name.padding(toLength: width + 2))
                    + entry.verdict.rawValue.padding(toLength: 9) + classes + " in " + contexts + "\n")
                for note in entry.notes { put("  " + indent + style.dim(DisplayText.escaped(note)) + "\n") }
            }
        }
        let accepted = input.result.findings.filter { !$0.isActive }
        if !accepted.isEmpty || !input.result.absent.isEmpty || !input.result.notices.isEmpty {
            if !out.isEmpty { put("\n") }
            let byBaseline = accepted.filter { $0.suppression?.source == .baseline }.count
            if !accepted.isEmpty {
                put("Accepted, not shown: \(accepted.count) finding\(accepted.count == 1 ? "" : "s") (\(byBaseline) by the baseline, \(accepted.count - byBaseline) by the allowlist).\n")
            }
            if !input.result.absent.isEmpty {
                put("Gone since the baseline: \(input.result.absent.count) finding\(input.result.absent.count == 1 ? "" : "s") (fixed, or their input removed).\n")
            }
            for notice in input.result.notices { put(style.level(.warning) + "  " + DisplayText.escaped(notice) + "\n") }
        }
        let skipped = input.result.artifacts.filter { $0.skipped != nil }
        if !skipped.isEmpty {
            if !out.isEmpty { put("\n") }
            put(style.bold("Inputs skipped") + "\n")
            for artifact in skipped {
                put("  " + DisplayText.escaped(artifact.name) + ": " + DisplayText.escaped(artifact.skipped!) + "\n")
            }
        }
        if !input.result.errors.isEmpty {
            if !out.isEmpty { put("\n") }
            put(style.bold("Inputs that could not be scanned") + "\n")
            for error in input.result.errors {
                put("  " + style.level(.error) + "  " + error.description + "\n")
            }
        }
        if !out.isEmpty { put("\n") }
        put(summaryLine(input) + "\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// The secrets a capture repeats in several of its requests, by rule and count: "1
    /// secret.jwt in 4 requests" (one finding each request, one request one finding); of the
    /// active findings.
    package static func repeatedAcrossRequests(_ findings: [Finding]) -> String? {
        // Each secret as its input's number (findings come by input: a name hashed at every
        // finding took some 3,600 instructions each), its hash and its finding, sorted so that a
        // secret's findings lie side by side: counted in a dictionary, they took some 1,400
        // instructions a finding, on one thread after the report.
        var secrets: [(artifact: Int, hash: UInt64, finding: Int)] = []
        var artifacts: [String: Int] = [:]
        var lastArtifact: String?
        var artifact = 0
        // Read in place: a finding copied out takes some 700 instructions.
        findings.withUnsafeBufferPointer { findings in
            for i in findings.indices where findings[i].isActive && findings[i].isInRequest {
                guard let hash = findings[i].secretHash else { continue }
                if findings[i].artifact != lastArtifact {
                    lastArtifact = findings[i].artifact
                    artifact = artifacts[findings[i].artifact] ?? artifacts.count
                    artifacts[findings[i].artifact] = artifact
                }
                secrets.append((artifact, hash, i))
            }
        }
        secrets.sort { ($0.artifact, $0.hash, $0.finding) < ($1.artifact, $1.hash, $1.finding) }
        struct Kind: Hashable, Comparable {
            var rule: String, requests: Int
            static func < (a: Kind, b: Kind) -> Bool { a.rule != b.rule ? a.rule < b.rule : a.requests > b.requests }
        }
        // A run of one secret's findings counts as its first finding's rule.
        var kinds: [Kind: Int] = [:]
        var start = 0
        while start < secrets.count {
            var end = start + 1
            while end < secrets.count && secrets[end].artifact == secrets[start].artifact && secrets[end].hash == secrets[start].hash { end += 1 }
            if end - start > 1 { kinds[Kind(rule: findings[secrets[start].finding].ruleId, requests: end - start), default: 0] += 1 }
            start = end
        }
        guard !kinds.isEmpty else { return nil }
        let phrases = kinds.keys.sorted().map { "\(kinds[$0]!) \($0.rule) in \($0.requests) requests" }
        return "repeated across requests: " + phrases.joined(separator: ", ")
    }

    package static func summaryLine(_ input: ReportInput) -> String {
        summaryLine(input, tally: FindingTally(input.result.findings))
    }

    /// The summary line, with the findings already counted.
    static func summaryLine(_ input: ReportInput, tally: FindingTally) -> String {
        let active = tally.active
        let files = input.result.artifacts.count
        let withFindings = tally.inputsWithActive
        var parts: [String] = []
        for level in FindingTally.levels.reversed() where tally.activeCount(level) > 0 {
            let n = tally.activeCount(level)
            parts.append("\(n) \(level.rawValue)\(n == 1 ? "" : "s")")
        }
        var line = active == 0 ? "No findings" : "\(active) finding\(active == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
        // "in 2 of 4 inputs" only when some inputs had none: "No findings in 1 input", "3 findings … in 2 inputs".
        line += withFindings == 0 || withFindings == files ? " in \(files) input\(files == 1 ? "" : "s")" : " in \(withFindings) of \(files) inputs"
        let accepted = input.result.findings.count - active
        if accepted > 0 { line += " (\(accepted) more accepted)" }
        if let repeated = repeatedAcrossRequests(input.result.findings) { line += "; \(repeated)" }
        let skipped = input.result.artifacts.filter { $0.skipped != nil }.count
        if skipped > 0 { line += "; \(skipped) skipped" }
        let errors = input.result.errors.count
        if errors > 0 { line += "; \(errors) input error\(errors == 1 ? "" : "s"): the scan is incomplete" }
        switch input.exitCode {
        case 0: line += ". Gate passed."
        case 1: line += ". Gate failed (--fail-on \(input.failOn.description))."
        default: line += ". Gate failed: not every input could be scanned."
        }
        return line
    }

    struct Style {
        let enabled: Bool
        static let dimCode = "2"
        func wrap(_ text: String, _ code: String) -> String { enabled ? start(code) + text + end : text }
        /// What begins text shown in `code`'s style (nothing without colour); `end` ends it.
        func start(_ code: String) -> String { enabled ? "\u{1B}[\(code)m" : "" }
        var end: String { enabled ? "\u{1B}[0m" : "" }
        func bold(_ text: String) -> String { wrap(text, "1") }
        func dim(_ text: String) -> String { wrap(text, Self.dimCode) }
        func level(_ level: Level) -> String {
            let label = level.rawValue.padding(toLength: 7)
            switch level {
            case .error: return wrap(label, "31")
            case .warning: return wrap(label, "33")
            case .note: return wrap(label, "36")
            }
        }
    }
}

extension String {
    /// The string padded on the right with spaces to `length` characters.
    package func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
