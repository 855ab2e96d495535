import AuditCore
import AuditInputs
import AuditScan

/// GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding
/// and one `::error` line per input error, which the runner turns into inline annotations on the
/// files of a pull request; then the plain summary line. Findings a baseline or an allowlist
/// accepts are not annotated (the summary counts them); notices, such as an expired allowlist
/// entry, are warnings without a file. The workflow-command equivalent of
/// SARIF for runs without code scanning (private repositories without GitHub Advanced Security).
///
/// Annotations attach to `file` as a path relative to the repository root, so the scan should run
/// from the checkout with relative paths. A member of an archive (`bundle.zip!backup.json`) is no
/// file of the repository: its annotations attach to the archive, the member and its line and
/// column in the message. Escaping follows the Actions toolkit (`escapeData`,
/// `escapeProperty` in `@actions/core`): a message or a value can never end the command early or
/// start a new one. Before that, everything an input can carry is shown through `DisplayText`:
/// the runner's log renders ANSI escapes, and a name must not recolour or hide a line.
public enum GitHubReport {
    public static func render(_ input: ReportInput) -> String {
        var out = ""
        let archives = Set(input.result.artifacts.filter(isArchive).map(\.name))
        for finding in input.result.activeFindings {
            let path = finding.pathText.isEmpty ? "/" : finding.pathText
            out += command(command(for: finding.level), artifact: finding.artifact, position: finding.position,
                           title: finding.ruleId, message: "\(finding.message) (\(path))", archives: archives)
        }
        for notice in input.result.notices {
            out += "::warning title=\(escapeProperty(ToolInfo.name))::\(escapeData(DisplayText.escaped(notice)))\n"
        }
        for error in input.result.errors {
            out += command("error", artifact: error.artifact, position: error.position,
                           title: "input.\(error.kind.rawValue)",
                           message: "Could not scan this input (the gate fails closed): \(error.reason)", archives: archives)
        }
        return out + TextReport.summaryLine(input) + "\n"
    }

    /// `error`, `warning` or `notice`: GitHub's name for SARIF's `note` is `notice`.
    static func command(for level: Level) -> String {
        switch level {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// Whether an artifact is an archive the scan opened (`zip`, `tar+gzip`, `android-backup`).
    static func isArchive(_ artifact: ArtifactSummary) -> Bool {
        artifact.format.flatMap { $0.split(separator: "+").first }.flatMap { ArchiveFormat(rawValue: String($0)) } != nil
    }

    /// The outermost archive among `archives` that holds `artifact` (`a.zip` for
    /// `a.zip!b.zip!c.json`), and the member's name inside it; nil for a file of its own.
    static func archiveMember(_ artifact: String, among archives: Set<String>) -> (archive: String, member: Substring)? {
        var next = artifact.startIndex
        while let bang = artifact[next...].firstIndex(of: "!") {
            let archive = String(artifact[..<bang])
            if archives.contains(archive) { return (archive, artifact[artifact.index(after: bang)...]) }
            next = artifact.index(after: bang)
        }
        return nil
    }

    /// One workflow command line. Stdin has no file to annotate, nor has a member of one of
    /// `archives`: the place goes in the message (the member's, on the archive's file).
    static func command(_ name: String, artifact: String, position: SourcePosition?, title: String, message: String,
                        archives: Set<String> = []) -> String {
        var properties: [(String, String)] = []
        var message = DisplayText.escaped(message)
        var artifact = artifact
        var position = position
        if let (archive, member) = archiveMember(artifact, among: archives) {
            message = DisplayText.escaped(member + (position.map { ":\($0.line):\($0.column)" } ?? "")) + ": " + message
            (artifact, position) = (archive, nil)
        }
        artifact = DisplayText.escaped(artifact)
        let title = DisplayText.escaped(title)
        if artifact == "-" {
            let at = position.map { "stdin:\($0.line):\($0.column)" } ?? "stdin"
            message = "\(at): \(message)"
        } else {
            properties.append(("file", fileProperty(artifact)))
            if let position {
                properties.append(("line", String(position.line)))
                properties.append(("col", String(position.column)))
            }
        }
        properties.append(("title", title))
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(name) \(list)::\(escapeData(message))\n"
    }

    /// The artifact as GitHub expects a workspace-relative path: without a leading `./`.
    static func fileProperty(_ artifact: String) -> String {
        var path = Substring(artifact)
        while path.hasPrefix("./") {
            path = path.dropFirst(2)
            while path.hasPrefix("/") { path = path.dropFirst() }
        }
        return path.isEmpty ? artifact : String(path)
    }

    /// A command's message: `%`, CR and LF are percent-encoded (`%` first, so that an encoded
    /// sequence in the text stays literal).
    public static func escapeData(_ text: String) -> String {
        percentEncode(text, property: false)
    }

    /// A property value: as a message, and also `:` (which would end the properties) and `,`
    /// (which would start the next one).
    public static func escapeProperty(_ text: String) -> String {
        percentEncode(text, property: true)
    }

    /// `text` with `%`, CR, LF (and in a `property` `:` and `,`) written as `%XX` (uppercase
    /// hex). All are ASCII, and UTF-8 never uses an ASCII byte inside another character, so the
    /// bytes are read, not the scalars: appended a scalar at a time, with a set looked up for
    /// each, a finding's line took some 90,000 instructions.
    private static func percentEncode(_ text: String, property: Bool) -> String {
        @inline(__always) func encoded(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "%") || byte == 0x0D || byte == 0x0A || (property && (byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")))
        }
        if text.utf8AllSatisfy({ !encoded($0) }) { return text }
        let digits: StaticString = "0123456789ABCDEF"
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if encoded(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(digits.utf8Start[Int(byte >> 4)])
                out.append(digits.utf8Start[Int(byte & 15)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
