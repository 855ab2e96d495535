import AuditCore
import AuditInputs

/// Scans XML that is not a SharedPreferences export (Android manifests, layouts, `res/values`,
/// plists): every attribute value and text node goes through the per-value scan (layers, pattern
/// rules, name rules), located by an XPath-like path such as
/// `/manifest/application/meta-data[2]/@android:value` (a position among same-named siblings from
/// the second on), `…/string[3]/text()` or `…/comment()`. The whole document is one document.
///
/// A value is judged by the name the file gives it: an element's `name` attribute
/// (`<meta-data android:name="api_key" android:value="…"/>`, `<string name="api_key">…</string>`)
/// for its `value` attribute and its text, a plist's `<key>` for the element after it, else the
/// attribute's or the element's own name.
enum XMLInputScanner {
    static func scan(_ scan: ArtifactScan, start: Int) {
        var reader = XMLReader(window: scan.window)
        var visitor = XMLScanVisitor(scan: scan)
        do {
            try reader.read(&visitor)
        } catch let error as PrefsXMLError {
            if scan.window.failure == nil {
                let kind: InputError.Kind = if case .nestingTooDeep = error.reason { .limit } else { .parse }
                scan.fail(kind, at: error.offset, error.reason.message)
            }
        } catch let limit as DocumentLimit {
            scan.fail(.limit, at: limit.offset, limit.message)
        } catch {
            scan.fail(.parse, at: nil, "cannot read the XML input: \(error)")
        }
        scan.finishDocument(defaultContext: .payload)
    }
}

/// Turns an `XMLReader`'s events into hits, keeping the path of the open elements.
struct XMLScanVisitor: XMLVisitor {
    let scan: ArtifactScan

    /// An open element.
    private struct Level {
        var path: LayeredPath
        var name: String
        /// The value of its `name` attribute (any prefix), which names its `value` and its text.
        var nameAttribute: String?
        /// The plist `<key>` just before it, which names it.
        var key: String?
        /// How many children of each name it has had so far.
        var children: [[UInt8]: Int] = [:]
        /// The text of its last child when that was a plist `<key>`, for the next child.
        var pendingKey: String?
    }

    private var open: [Level] = []

    init(scan: ArtifactScan) {
        self.scan = scan
    }

    mutating func startElement(_ tag: XMLStartTag) throws {
        try scan.checkDocumentHits(at: tag.offset)
        let name = String(decoding: tag.name, as: UTF8.self)
        var token = name
        var parentPath = scan.rootPath
        var key: String?
        if !open.isEmpty {
            let count = open[open.count - 1].children[tag.name, default: 0] + 1
            open[open.count - 1].children[tag.name] = count
            if count > 1 { token += "[\(count)]" }
            parentPath = open[open.count - 1].path
            key = open[open.count - 1].pendingKey
            open[open.count - 1].pendingKey = nil
        }
        let nameAttribute = tag.attributes.first { Self.localName($0.name) == "name" }.map { String(decoding: $0.value.bytes, as: UTF8.self) }
        let level = Level(path: parentPath.appending(.key(token)), name: name, nameAttribute: nameAttribute, key: key)
        for attribute in tag.attributes {
            let attributeName = String(decoding: attribute.name, as: UTF8.self)
            let judgedBy = Self.localName(attribute.name) == "value" ? nameAttribute ?? attributeName : attributeName
            let path = level.path.appending(.key("@" + attributeName))
            scanValue(attribute.value, name: judgedBy, path: path)
        }
        open.append(level)
    }

    mutating func endElement() throws {
        open.removeLast()
    }

    mutating func text(_ text: PrefsText) throws {
        guard let level = open.last else { return }
        let path = level.path.appending(.key("text()"))
        if level.name == "key" && open.count >= 2 {
            // A plist key names the next element; its own text is only scanned.
            open[open.count - 2].pendingKey = String(decoding: text.bytes, as: UTF8.self)
            scanValue(text, name: nil, path: path)
        } else {
            scanValue(text, name: level.nameAttribute ?? level.key ?? level.name, path: path)
        }
    }

    mutating func comment(_ text: PrefsText) throws {
        let path = (open.last?.path ?? scan.rootPath).appending(.key("comment()"))
        _ = text.bytes.withUnsafeBytes { bytes in
            scan.scanPatterns(bytes, offset: text.offset) { HitLocation(key: nil, path: path, ancestry: []) }
        }
    }

    private func scanValue(_ value: PrefsText, name: String?, path: LayeredPath) {
        _ = value.bytes.withUnsafeBytes { bytes in
            scan.scanNamedString(bytes, name: name.flatMap(scan.nameMatch), at: value.offset, depth: 0) {
                HitLocation(key: name, path: path, ancestry: [])
            }
        }
    }

    /// `value` for `android:value`: the name without its namespace prefix.
    private static func localName(_ name: [UInt8]) -> Substring {
        let text = String(decoding: name, as: UTF8.self)
        return text.split(separator: ":", omittingEmptySubsequences: false).last ?? Substring(text)
    }
}
