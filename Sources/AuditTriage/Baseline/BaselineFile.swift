import AuditBytes
import AuditCore
import AuditInputs
import AuditReport

/// Reads and writes baseline files (`docs/baseline.md`): JSON with the format version, the salt
/// of the value digests, and one entry per accepted finding, in report order.
public enum BaselineFile {
    public static func render(_ baseline: Baseline) -> String {
        // Room for all of it at once: about 300 bytes an entry.
        JSONStreamWriter.rendered(reserving: 256 + baseline.entries.count * 300) { writer, flush in write(baseline, into: &writer, flush: flush) }
    }

    /// Writes the file to `sink` as it is made, about a MiB at a time, entry by entry: built as a
    /// tree and then a string, it took some 13,800 instructions an entry (the 4 MB bench HAR's
    /// 721) and held both copies at once. False when the sink fails.
    public static func write(_ baseline: Baseline, to sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        JSONStreamWriter.stream(chunk: 1 << 20, to: sink) { writer, flush in write(baseline, into: &writer, flush: flush) }
    }

    /// The file's members, as `JSONOutput.rendered()` lays them out; false when `flush` fails.
    private static func write(_ baseline: Baseline, into writer: inout JSONStreamWriter, flush: JSONStreamWriter.Flush) -> Bool {
        writer.open("{")
        writer.key("baselineFormat")
        writer.int(Baseline.formatVersion)
        writer.key("tool")
        writer.value(.object([("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))]))
        writer.key("salt")
        writer.string(Hex.encode(baseline.salt))
        writer.key("findings")
        writer.open("[")
        for entry in baseline.entries {
            writer.element()
            writer.open("{")
            writer.key("ruleId"); writer.string(entry.ruleId)
            writer.key("artifact"); writer.string(entry.artifact)
            writer.key("line"); writer.int(entry.line)
            writer.key("path"); writer.string(entry.path)
            writer.key("key"); writer.string(entry.key)
            writer.key("fingerprint"); writer.string(entry.fingerprint)
            writer.key("valueDigest"); writer.string(entry.valueDigest)
            writer.close("}")
            guard flush(&writer) else { return false }
        }
        writer.close("]")
        writer.close("}")
        return true
    }

    /// Parses a baseline; malformed content is an error naming the file and what is wrong.
    public static func parse(_ text: [UInt8], file: String) throws(FileFormatError) -> Baseline {
        func fail(_ reason: String) -> FileFormatError { FileFormatError(file: file, reason: "not a habiter-audit baseline: \(reason)") }
        var members = BaselineFileReader()
        do {
            try text.withUnsafeBytes { bytes in
                var reader = JSONReader(bytes)
                try reader.readText(&members)
            }
        } catch {
            throw fail("not valid JSON")
        }
        guard members.baselineFormat?.integerValue == Baseline.formatVersion else {
            throw fail("baselineFormat must be \(Baseline.formatVersion)")
        }
        guard let saltText = members.salt?.stringValue, let salt = Hex.decode(saltText), salt.count >= 16 else {
            throw fail("salt must be 32 or more hex digits")
        }
        guard let elements = members.findings else { throw fail("findings must be an array") }
        var entries: [BaselineEntry] = []
        entries.reserveCapacity(elements.count)
        for i in elements.indices {
            guard let ruleId = elements[i].ruleId?.stringValue, let artifact = elements[i].artifact?.stringValue,
                  let path = elements[i].path?.stringValue, let fingerprint = elements[i].fingerprint?.stringValue else {
                throw fail("finding \(i + 1) needs ruleId, artifact, path and fingerprint")
            }
            // For readers only: a line that is no number, or none an `Int` holds, reads as 0.
            let line = elements[i].line?.integerValue ?? 0
            entries.append(BaselineEntry(ruleId: ruleId, artifact: artifact, path: path, key: elements[i].key?.stringValue,
                                          fingerprint: fingerprint, valueDigest: elements[i].valueDigest?.stringValue, line: line))
        }
        return Baseline(salt: salt, entries: entries)
    }
}
