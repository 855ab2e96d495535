import AuditBytes
import AuditCore
import AuditInputs
import AuditReport

/// Reads and writes baseline files (`docs/baseline.md`): JSON with the format version, the salt
/// of the value digests, and one entry per accepted finding, in report order.
public enum BaselineFile {
    public static func render(_ baseline: Baseline) -> String {
        JSONOutput.object([
            ("baselineFormat", .int(Baseline.formatVersion)),
            ("tool", .object([("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))])),
            ("salt", .string(Hex.encode(baseline.salt))),
            ("findings", .array(baseline.entries.map { entry in
                .members([
                    ("ruleId", .string(entry.ruleId)),
                    ("artifact", .string(entry.artifact)),
                    ("line", .int(entry.line)),
                    ("path", .string(entry.path)),
                    ("key", entry.key.map(JSONOutput.string) ?? .null),
                    ("fingerprint", .string(entry.fingerprint)),
                    ("valueDigest", entry.valueDigest.map(JSONOutput.string) ?? .null),
                ])
            })),
        ]).rendered()
    }

    /// Parses a baseline; malformed content is an error naming the file and what is wrong.
    public static func parse(_ text: [UInt8], file: String) throws(FileFormatError) -> Baseline {
        func fail(_ reason: String) -> FileFormatError { FileFormatError(file: file, reason: "not a habiter-audit baseline: \(reason)") }
        guard let root = try? JSONValue.parse(text).value else { throw fail("not valid JSON") }
        guard case .number(let version)? = root["baselineFormat"], Int(version) == Baseline.formatVersion else {
            throw fail("baselineFormat must be \(Baseline.formatVersion)")
        }
        guard let saltText = root["salt"]?.stringValue, let salt = Hex.decode(saltText), salt.count >= 16 else {
            throw fail("salt must be 32 or more hex digits")
        }
        guard let elements = root["findings"]?.arrayElements else { throw fail("findings must be an array") }
        var entries: [BaselineEntry] = []
        for (i, element) in elements.enumerated() {
            let e = element.value
            guard let ruleId = e["ruleId"]?.stringValue, let artifact = e["artifact"]?.stringValue,
                  let path = e["path"]?.stringValue, let fingerprint = e["fingerprint"]?.stringValue else {
                throw fail("finding \(i + 1) needs ruleId, artifact, path and fingerprint")
            }
            let line = e["line"]?.doubleValue.map { Int($0) } ?? 0
            entries.append(BaselineEntry(ruleId: ruleId, artifact: artifact, path: path, key: e["key"]?.stringValue,
                                          fingerprint: fingerprint, valueDigest: e["valueDigest"]?.stringValue, line: line))
        }
        return Baseline(salt: salt, entries: entries)
    }
}
