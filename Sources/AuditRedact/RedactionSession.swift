import AuditCore
import AuditDetection
import AuditInputs
import AuditRules

/// Redacts the values of one input by a plan: each string value at a planned path is replaced
/// (whole, or the secret spans the pattern rules find in it), and embedded layers on the way to
/// a planned path are opened, redacted inside and encoded again the way they were written
/// (base64 with its alphabet, padding and line length; gzip with its header; a query with its
/// percent-encoding). The format redactors (JSON, prefs XML, raw HTTP) call it for each value.
final class RedactionSession {
    let rules: RulePack
    var plan: RedactionPlan
    /// Maximum nesting of one JSON text, as the scan read it.
    let maxDepth: Int
    private let matcher = RegexMatcher()
    private var scratch = PatternScratch()
    /// How many values were replaced, by rule.
    private(set) var replacements: [String: Int] = [:]
    /// Layers a path names that could not be opened again: the verification scan decides
    /// whether that left a secret behind.
    private(set) var problems: [String] = []

    init(rules: RulePack, plan: RedactionPlan, maxDepth: Int = JSONReader.defaultMaxDepth) {
        self.rules = rules
        self.plan = plan
        self.maxDepth = maxDepth
    }

    /// The placeholder for a whole value at a node: a pattern rule's first, then a name rule's,
    /// then the inventory's.
    func wholeValueRule(_ node: RedactionPlan.Node) -> String {
        func rank(_ id: String) -> Int {
            switch rules.rule(id: id)?.kind {
            case .pattern?: return 0
            case .name?: return 1
            default: return 2
            }
        }
        let candidates = Array((node.spanRules + node.wholeRules).enumerated())
        return candidates.min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element ?? "secret.value"
    }

    /// Records a whole-value replacement (or that the value is no string and stays).
    func noteWhole(_ path: LayeredPath, ruleId: String?) {
        if let ruleId { replacements[ruleId, default: 0] += 1 }
    }

    func noteProblem(_ text: String) {
        problems.append(text)
    }

    /// The placeholder that replaces a whole value at `path`, counted.
    func wholeReplacement(at path: LayeredPath, node: RedactionPlan.Node) -> [UInt8] {
        let rule = wholeValueRule(node)
        noteWhole(path, ruleId: rule)
        return RedactionPlaceholder.bytes(forRule: rule)
    }

    /// The value at `path` redacted, or nil when nothing in it changes.
    func redactValue(_ value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        guard let node = plan.node(at: path) else { return nil }
        if !node.wholeRules.isEmpty {
            if RedactionPlaceholder.isPlaceholder(value) { return nil }
            return wholeReplacement(at: path, node: node)
        }
        // A JSON Web Token is replaced whole, whatever was found in it.
        if node.decoders.contains("jwt"), let replaced = replaceJWT(value, at: path) { return replaced }
        var current = value
        var changed = false
        for decoder in RedactionSession.decoderOrder where node.decoders.contains(decoder) {
            if let redacted = redactLayer(decoder, in: current, at: path.entering(decoder)) {
                current = redacted
                changed = true
            }
        }
        for decoder in node.decoders.sorted() where !RedactionSession.decoderOrder.contains(decoder) && decoder != "jwt" {
            noteProblem("cannot open a '\(decoder)' layer again at \(path)")
        }
        if !node.spanRules.isEmpty {
            let spans = secretSpans(in: current, at: path)
            if spans.isEmpty {
                // The value held the secret only through a layer just redacted; or the finding
                // was moved here from an outer layer that held the same secret (one secret, one
                // finding) and the whole value is that secret.
                if !changed && !RedactionPlaceholder.isPlaceholder(current) {
                    return wholeReplacement(at: path, node: node)
                }
            } else {
                var edits = ByteEdits()
                for span in spans {
                    edits.replace(span.range, with: RedactionPlaceholder.bytes(forRule: span.ruleId))
                    replacements[span.ruleId, default: 0] += 1
                }
                current = edits.applied(to: current)
                changed = true
            }
        }
        return changed && current != value ? current : nil
    }

    /// The order in which layers of one value are redacted: those that replace the value first,
    /// then those that edit a part of it (each re-reads the value the previous one left).
    static let decoderOrder = ["json", "ndjson", "xml", "http", "gzip", "deflate", "brotli", "zstd", "base64", "data", "percent", "list", "legacy-list", "query", "fragment", "userinfo", "form", "multipart", "basic", "cookie"]

    private func redactLayer(_ decoder: String, in value: [UInt8], at path: LayeredPath) -> [UInt8]? {
        switch decoder {
        case "json": return redactJSONLayer(value, at: path)
        case "ndjson": return redactNDJSONLayer(value, at: path)
        case "xml": return redactXMLLayer(value, at: path)
        case "http": return redactHTTPLayer(value, at: path)
        case "gzip": return redactCompressedLayer(value, .gzip, at: path)
        case "deflate": return redactCompressedLayer(value, .deflate, at: path)
        case "brotli": return redactCompressedLayer(value, .brotli, at: path)
        case "zstd": return redactCompressedLayer(value, .zstd, at: path)
        case "base64": return redactBase64Layer(value, at: path)
        case "data": return redactDataURLLayer(value, at: path)
        case "percent": return redactPercentLayer(value, at: path)
        case "list": return redactFlutterJSONList(value, at: path)
        case "legacy-list": return redactFlutterLegacyList(value, at: path)
        case "query": return redactQueryLayer(value, at: path)
        case "fragment": return redactFragmentLayer(value, at: path)
        case "form": return redactFormLayer(value, at: path)
        case "multipart": return redactMultipartLayer(value, at: path)
        case "userinfo": return redactUserinfoLayer(value, at: path)
        case "basic": return redactBasicLayer(value, at: path)
        case "cookie": return redactCookieLayer(value, at: path)
        default: return nil
        }
    }

    /// A secret span in a value and the rule whose placeholder replaces it.
    struct Span {
        var range: Range<Int>
        var ruleId: String
    }

    /// The secret spans the pattern rules find in `value`, overlapping ones merged (a vendor
    /// rule names the merged span before a generic one). A regex that hits its limits makes the
    /// whole value the span: redacting too much is safe, too little is not.
    func secretSpans(in value: [UInt8], at path: LayeredPath) -> [Span] {
        var hits: [PatternHit] = []
        let failed = value.withUnsafeBytes { bytes -> Bool in
            do {
                try rules.patterns.scan(bytes, matcher: matcher, scratch: &scratch) { hits.append($0) }
                return false
            } catch {
                return true
            }
        }
        let patternRules = rules.patterns.rules
        if failed {
            noteProblem("a pattern rule hit its match limit at \(path); the whole value was replaced")
            return value.isEmpty ? [] : [Span(range: 0..<value.count, ruleId: plan.node(at: path).map(wholeValueRule) ?? "secret.value")]
        }
        let sorted = hits.sorted {
            $0.secret.lowerBound != $1.secret.lowerBound ? $0.secret.lowerBound < $1.secret.lowerBound : $0.secret.count > $1.secret.count
        }
        var spans: [(range: Range<Int>, rules: [Int])] = []
        for hit in sorted {
            if let last = spans.last, hit.secret.lowerBound < last.range.upperBound {
                spans[spans.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, hit.secret.upperBound)
                spans[spans.count - 1].rules.append(hit.ruleIndex)
            } else {
                spans.append((hit.secret, [hit.ruleIndex]))
            }
        }
        return spans.compactMap { span in
            if RedactionPlaceholder.isPlaceholder(value[span.range]) { return nil }
            let rule = span.rules.first { !patternRules[$0].isGeneric } ?? span.rules[0]
            return Span(range: span.range, ruleId: patternRules[rule].id)
        }
    }
}
