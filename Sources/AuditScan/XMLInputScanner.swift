import AuditCore
import AuditInputs

/// Scans XML that is not a SharedPreferences export (Android manifests, layouts, `res/values`,
/// plists): every attribute value and text node goes through the per-value scan (layers, pattern
/// rules, name rules), located by an XPath-like path such as
/// `/manifest/application/meta-data[2]/@android:value` (a position among same-named siblings from
/// the second on), `…/string[3]/text()` or `…/comment()`. The whole document is one document.
///
/// A value is judged by the name the file gives it: an element's `name` or `key` attribute
/// (`<meta-data android:name="api_key" android:value="…"/>`, `<string name="api_key">…</string>`,
/// .NET's and NuGet's `<add key="ClearTextPassword" value="…"/>`, Java's XML properties'
/// `<entry key="db.password">…</entry>`) for its `value` attribute and its text, a plist's `<key>`
/// for the element after it, else the attribute's or the element's own name; a child's text
/// with no sensitive name of its own by its parent's `name` or `key` attribute
/// (`<string-array name="api_keys"><item>…`).
enum XMLInputScanner {
    static func scan(_ scan: ArtifactScan, start: Int) {
        var reader = XMLReader(window: scan.window)
        var visitor = XMLScanVisitor(scan: scan, frame: .input(path: scan.rootPath))
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

extension ArtifactScan {
    /// Reads an XML document held in a string or carried as a body (`XMLLayerDecoder`) as a
    /// layer in `frame` (a SharedPreferences export as one, `scanPrefsLayer`); when it is not
    /// well-formed XML after all (HTML, a template), forgets what it recorded and returns false
    /// (the value is scanned as text in any case). XML too deep to read or with a DTD is XML all
    /// the same: an input error (`xmlLayerRefusal`).
    func scanXMLLayer(_ text: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        if XMLLayerDecoder.isSharedPreferencesExport(text) { return scanPrefsLayer(text, frame: frame) }
        let mark = (hits: hitMark, errors: errorCount)
        var reader = XMLReader(window: ByteWindow(whole: text))
        var visitor = XMLScanVisitor(scan: self, frame: frame)
        do {
            try reader.read(&visitor)
            return true
        } catch {
            return layerReadFailed(error, frame: frame, since: mark, refusal: ArtifactScan.xmlLayerRefusal)
        }
    }

    /// The input error an XML layer's reader error makes (`layerReadFailed`): nesting beyond the
    /// limit, a DTD or an entity declaration (as an XML input refuses them) say that the value is
    /// XML all the same, not read in full. Nil for any other error: not XML after all.
    static func xmlLayerRefusal(_ error: any Error) -> (kind: InputError.Kind, reason: String)? {
        switch (error as? PrefsXMLError)?.reason {
        case .nestingTooDeep?:
            return (.limit, "XML in a string nested deeper than the limit of \(XMLReader.defaultMaxDepth): its content is not checked")
        case .doctype?, .doctypeInternalSubset?, .entityDeclaration?:
            return (.parse, "XML in a string declares a DTD or an entity, which is never read (no DTDs, entity definitions or external entities): its content is only scanned as text, not judged by name")
        default:
            return nil
        }
    }
}

/// Turns an `XMLReader`'s events into hits, keeping the path of the open elements. In an XML
/// input (`frame` is the input's) a hit stands where its value does; in a layer, at the string
/// or body that carries the layer, as a JSON layer's hits do, with the layer's place and facts.
struct XMLScanVisitor: XMLVisitor {
    let scan: ArtifactScan
    let frame: LayerFrame

    /// An open element: what names its text and its children.
    private struct Level {
        var name: String
        /// The value of its `name` or `key` attribute (any prefix), which names its `value` and
        /// its text.
        var nameAttribute: String?
        /// The plist `<key>` just before it, which names it.
        var key: String?
        /// Its parent's `name` or `key` attribute, which names its text when its own name is
        /// no sensitive one (`<string-array name="api_keys"><item>…`, SAML's `<Attribute
        /// Name="password"><AttributeValue>…`), as an array's name names its elements.
        var parentName: String?
        /// The text of its last child when that was a plist `<key>`, for the next child.
        var pendingKey: String?
    }

    private var open: [Level] = []
    private var paths: XMLPaths
    /// A Burp Suite export's items, whose messages are read as HTTP exchanges.
    private var burpItems = BurpExportItems()

    init(scan: ArtifactScan, frame: LayerFrame) {
        self.scan = scan
        self.frame = frame
        paths = XMLPaths(root: frame.path)
    }

    mutating func startElement(_ tag: XMLStartTag) throws {
        try scan.checkDocumentHits(at: tag.offset)
        var key: String?
        if !open.isEmpty {
            key = open[open.count - 1].pendingKey
            open[open.count - 1].pendingKey = nil
        }
        let path = paths.enter(tag.name)
        burpItems.startElement(tag, path: path)
        let nameAttribute = tag.attributes.first { Self.namesValue(Self.localName($0.name)) }.map { String(decoding: $0.value.bytes, as: UTF8.self) }
        for attribute in tag.attributes {
            let attributeName = String(decoding: attribute.name, as: UTF8.self)
            let judgedBy = Self.localName(attribute.name).lowercased() == "value" ? nameAttribute ?? attributeName : attributeName
            scanValue(attribute.value, name: judgedBy, path: XMLPaths.attribute(attribute.name, of: path))
        }
        open.append(Level(name: String(decoding: tag.name, as: UTF8.self), nameAttribute: nameAttribute, key: key,
                          parentName: open.last?.nameAttribute))
    }

    mutating func endElement() throws {
        burpItems.endElement(scan: scan, frame: frame)
        open.removeLast()
        paths.leave()
    }

    mutating func text(_ text: PrefsText) throws {
        guard let level = open.last, let path = paths.text else { return }
        if burpItems.keep(text) { return }
        if level.name == "key" && open.count >= 2 {
            // A plist key names the next element; its own text is only scanned.
            open[open.count - 2].pendingKey = String(decoding: text.bytes, as: UTF8.self)
            scanValue(text, name: nil, path: path)
        } else {
            scanValue(text, name: level.nameAttribute ?? level.key ?? Self.textName(of: level, scan: scan), path: path)
        }
    }

    mutating func comment(_ text: PrefsText) throws {
        let path = paths.comment
        _ = text.bytes.withUnsafeBytes { bytes in
            scan.scanPatterns(bytes, offset: frame.outerOffset ?? text.offset) { frame.location(key: frame.outerKey, at: path) }
        }
    }

    private func scanValue(_ value: PrefsText, name: String?, path: LayeredPath) {
        _ = value.bytes.withUnsafeBytes { bytes in
            scan.scanNamedString(bytes, name: name.flatMap(scan.nameMatch), at: frame.outerOffset ?? value.offset, depth: frame.depth) {
                frame.location(key: name, at: path)
            }
        }
    }

    /// Whether an attribute of this local name names its element's `value` attribute and text:
    /// `name` (Android's `meta-data`, `res/values`, SAML's `Name`) and `key` (.NET's and NuGet's
    /// `<add key="…" value="…"/>`), in any ASCII case, as a name/value object's `name` or `key`
    /// does in JSON.
    private static func namesValue(_ localName: Substring) -> Bool {
        let name = localName.lowercased()
        return name == "name" || name == "key"
    }

    /// The name that judges the text of an element that no attribute or plist key names: its
    /// own, unless that is no sensitive name and its parent's name attribute gives one.
    private static func textName(of level: Level, scan: ArtifactScan) -> String {
        guard let parentName = level.parentName, scan.nameMatch(level.name) == nil else { return level.name }
        return parentName
    }

    /// `value` for `android:value`: the name without its namespace prefix.
    private static func localName(_ name: [UInt8]) -> Substring {
        let text = String(decoding: name, as: UTF8.self)
        return text.split(separator: ":", omittingEmptySubsequences: false).last ?? Substring(text)
    }
}
