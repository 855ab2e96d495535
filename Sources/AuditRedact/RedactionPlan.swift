import AuditCore
import AuditDetection
import AuditInputs

/// Where a redaction must change something, taken from the findings of a scan: the layered path
/// of every `secret` and `transport` finding, what to replace there, and the embedded layers to
/// open on the way. The redactors walk the input as the scanner does, build the same layered
/// paths, and ask the plan at each value.
///
/// The scan decides what is a secret (its context logic, the one-secret-one-finding rules); the
/// plan only says where. A pattern finding names a span that the pattern rules find again in
/// the value (`Bearer <token>` keeps `Bearer `); a name or inventory finding, the whole value.
struct RedactionPlan {
    /// What to do with the value at one path.
    struct Node {
        /// Pattern rules reported here: replace what the pattern rules match in the value.
        var spanRules: [String] = []
        /// Name and inventory rules (and whole-value pattern rules) reported here: replace the
        /// whole value.
        var wholeRules: [String] = []
        /// Layers to open here, by decoder name (`json`, `base64`, `query`, …), because a
        /// finding lies inside them.
        var decoders: Set<String> = []

        var isTarget: Bool { !spanRules.isEmpty || !wholeRules.isEmpty }
    }

    /// Pattern rules whose match marks a whole value rather than being the secret: the matched
    /// key names of a secure-storage dump stand for the dump, whose ciphertext and Tink keysets
    /// travel with them.
    static let wholeValuePatternRules: Set<String> = [SpecialRule.secureStorageDump.rawValue]

    private(set) var nodes: [LayeredPath: Node] = [:]
    /// Every path on the way to a node, layer by layer and token by token: a container whose
    /// path is not here holds nothing to redact.
    private(set) var prefixes: Set<LayeredPath> = []

    var isEmpty: Bool { nodes.isEmpty }

    init() {}

    /// The plan for `findings` (policy findings are ignored: they carry no credential).
    init(findings: [Finding], rules: RulePack) {
        for finding in findings where finding.family != .policy {
            let kind = rules.rule(id: finding.ruleId)?.kind
            let whole = kind != .pattern || RedactionPlan.wholeValuePatternRules.contains(finding.ruleId)
            add(path: finding.path, ruleId: finding.ruleId, whole: whole)
        }
    }

    /// Adds a target: the value at `path` (and the layers leading to it).
    mutating func add(path: LayeredPath, ruleId: String, whole: Bool) {
        if whole {
            if !nodes[path, default: Node()].wholeRules.contains(ruleId) { nodes[path, default: Node()].wholeRules.append(ruleId) }
        } else if !nodes[path, default: Node()].spanRules.contains(ruleId) {
            nodes[path, default: Node()].spanRules.append(ruleId)
        }
        // Each layer boundary: the value that carries the layer opens it.
        for index in 1..<max(path.layers.count, 1) {
            let carrier = LayeredPath(layers: Array(path.layers[..<index]))
            if let decoder = path.layers[index].decoder { nodes[carrier, default: Node()].decoders.insert(decoder) }
        }
        // Prefixes, token by token, in every layer.
        for index in path.layers.indices {
            var layers = Array(path.layers[..<index])
            var layer = path.layers[index]
            let tokens = layer.tokens
            for count in 0...tokens.count {
                layer.tokens = Array(tokens[..<count])
                layers.append(layer)
                prefixes.insert(LayeredPath(layers: layers))
                layers.removeLast()
            }
        }
    }

    func node(at path: LayeredPath) -> Node? { nodes[path] }

    /// Whether something at or inside `path` is to be redacted.
    func leadsSomewhere(_ path: LayeredPath) -> Bool { prefixes.contains(path) }
}
