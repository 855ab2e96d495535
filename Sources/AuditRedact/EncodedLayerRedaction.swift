import AuditCore
import AuditInputs

/// Layers that replace a whole value: JSON and NDJSON held in a string, base64, gzip, the
/// payload of a `data:` URL, and the two Flutter list encodings. Each is decoded, redacted inside
/// (its own paths continue behind `!json`, `!base64`, …), and encoded again as it was written;
/// nil when nothing inside changed, so that an untouched value stays byte-identical.
extension RedactionSession {
    func redactJSONLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        do {
            return try JSONTextRedactor.redact(value, root: path, session: self, maxDepth: maxDepth)
        } catch {
            noteProblem("the JSON text at \(path) could not be read again")
            return nil
        }
    }

    /// XML held in a string or carried as a body (`!xml`), a SharedPreferences export as one.
    func redactXMLLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        do {
            if value.withUnsafeBytes(XMLLayerDecoder.isSharedPreferencesExport) {
                return try PrefsXMLRedactor.redact(value, root: path, session: self)
            }
            return try XMLDocumentRedactor.redact(value, root: path, session: self)
        } catch {
            noteProblem("the XML text at \(path) could not be read again")
            return nil
        }
    }

    /// An HTTP message held in a string: rewritten as a raw HTTP input is (a changed body gets
    /// its `Content-Length` corrected).
    func redactHTTPLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        do {
            return try HTTPMessageRedactor.redact(value, root: path, session: self)
        } catch {
            noteProblem("the HTTP message at \(path) could not be read again")
            return nil
        }
    }

    /// NDJSON held in a string: each non-blank line is a document, `!ndjson/<index>`.
    func redactNDJSONLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        var edits = ByteEdits()
        var document = 0
        var lineStart = 0
        while lineStart < value.count {
            let lineEnd = value[lineStart...].firstIndex(of: 0x0A) ?? value.count
            defer { lineStart = lineEnd + 1 }
            let line = Array(value[lineStart..<lineEnd])
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            if let redacted = redactJSONLayer(line, at: path.appending(.index(document))) {
                edits.replace(lineStart..<lineEnd, with: redacted)
            }
            document += 1
        }
        return edits.isEmpty ? nil : edits.applied(to: value)
    }

    /// Base64 (`!base64`): decoded in its own alphabet, redacted as the text or bytes it holds,
    /// encoded again with the same alphabet, padding and line wrapping.
    func redactBase64Layer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let style = Base64Style(of: value)
        guard let decoded = style.decode(value) else {
            noteProblem("the base64 text at \(path) could not be decoded again")
            return nil
        }
        guard let redacted = redactValue(decoded, at: path) else { return nil }
        return style.encode(redacted)
    }

    /// A `data:` URL (`!data`): its payload redacted as what it holds, written back behind the
    /// URL's header as it was, base64 in its style or percent-encoded text (a placeholder wholly,
    /// a payload changed inside keeping the delimiters it wrote unencoded).
    func redactDataURLLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard let (payload, isBase64) = value.withUnsafeBytes({ DataURLLayerDecoder.payload(of: $0) }) else {
            noteProblem("the value at \(path) is no longer a data URL")
            return nil
        }
        let raw = Array(value[payload])
        let redacted: [UInt8]
        if isBase64 {
            guard let encoded = redactBase64Layer(raw, at: path) else { return nil }
            redacted = encoded
        } else {
            guard let encoded = redactPercentEncoded(raw, at: path) else { return nil }
            redacted = encoded
        }
        return Array(value[..<payload.lowerBound]) + redacted
    }

    /// A value percent-encoded whole (`!percent`): decoded, redacted, escaped again, the
    /// characters it wrote as they are kept so (`PercentCoding.literalBytes`).
    func redactPercentLayer(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard value.withUnsafeBytes(PercentLayerDecoder.isPercentEncoded) else {
            noteProblem("the value at \(path) is no longer percent-encoded")
            return nil
        }
        return redactPercentEncoded(value, at: path)
    }

    /// Percent-encoded text decoded, redacted and escaped again: a `%`-free placeholder whole,
    /// else with the characters the text wrote as they are kept so.
    private func redactPercentEncoded(_ raw: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard let inner = redactValue(LayerBytes.percentDecode(raw, plusAsSpace: false), at: path) else { return nil }
        let literal = RedactionPlaceholder.isPlaceholder(inner)
            ? [] : PercentCoding.literalBytes(in: raw, allowed: PercentCoding.formValueDelimiters, plusAsSpace: false)
        return PercentCoding.encode(inner, literal: literal, spaceAsPlus: false)
    }

    /// Compressed data (`!gzip`, `!deflate`, `!brotli`, `!zstd`): decompressed, redacted and
    /// compressed again as it was (`Recompression`).
    func redactCompressedLayer(_ value: [UInt8], _ coding: ContentCoding, at path: LayeredPath) -> [UInt8]? {
        guard case .success(let decompressed) = value.withUnsafeBytes(coding.decode) else {
            noteProblem("the \(coding.layerName) data at \(path) could not be decompressed again")
            return nil
        }
        guard let redacted = redactValue(decompressed, at: path) else { return nil }
        guard let compressed = Recompression.compress(redacted, as: coding, like: value) else {
            noteProblem("the redacted \(coding.layerName) data at \(path) could not be compressed")
            return nil
        }
        return compressed
    }

    /// A Flutter `List<String>` as JSON behind its prefix (`!list/<index>`).
    func redactFlutterJSONList(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let prefix = Array(FlutterPrefsEncoding.jsonListPrefix.utf8)
        guard value.starts(with: prefix) else {
            noteProblem("the value at \(path) is no longer a Flutter list")
            return nil
        }
        guard let redacted = redactJSONLayer(Array(value[prefix.count...]), at: path) else { return nil }
        return prefix + redacted
    }

    /// A Flutter `List<String>` as a base64 Java-serialized ArrayList behind its prefix
    /// (`!legacy-list/<index>`): the strings redacted, the list serialized again.
    func redactFlutterLegacyList(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        let prefix = Array(FlutterPrefsEncoding.listPrefix.utf8)
        guard value.starts(with: prefix), case .legacyStringList(var strings) = FlutterPrefsEncoding.decode(value) else {
            noteProblem("the value at \(path) is no longer a legacy Flutter list")
            return nil
        }
        var changed = false
        for index in strings.indices {
            if let redacted = redactValue(strings[index], at: path.appending(.index(index))) {
                strings[index] = redacted
                changed = true
            }
        }
        guard changed else { return nil }
        let payload = value[prefix.count...]
        return prefix + Base64Style(of: payload).encode(JavaStringListWriter.serialize(strings))
    }
}
