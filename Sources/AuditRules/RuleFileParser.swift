import AuditCore
import AuditInputs

/// Reads rule files: `{"rules": [ {…}, … ]}` with the fields documented in `docs/rules.md`.
/// Unknown fields, wrong types and missing required fields are errors naming file, line and rule.
public enum RuleFileParser {
    static let fileFields: Set<String> = ["$comment", "rules"]

    /// The fields of a rule. A rule's members are looked up by name once, into a table by field
    /// (`RuleFields`), and read from it by case: a set of the rule's names, made for every rule
    /// to find the fields given twice, was 9 % of a scan's start-up (6 of 65 M instructions for
    /// the built-in pack), a search of the members for every field read 6 % more, and a lookup
    /// by name for every field read 7 % of the 54 M that were left.
    enum Field: Int, CaseIterable {
        case id, kind, title, description, help, level, family, securitySeverity, tags
        case names, valueShape, pattern, keywords, minLength, minEntropy, validator, previewPrefixLength, generic
        case codeAndMarkup, keywordWindow, confidence, publishedExamples, examples, counterExamples

        /// Each field's name in a rule file, by `rawValue`: the case's own name, written out
        /// (`String(describing:)` took 3 M instructions at start-up; `InvalidRuleFileTests` holds
        /// the two lists together).
        static let allNames = [
            "id", "kind", "title", "description", "help", "level", "family", "securitySeverity", "tags",
            "names", "valueShape", "pattern", "keywords", "minLength", "minEntropy", "validator", "previewPrefixLength", "generic",
            "codeAndMarkup", "keywordWindow", "confidence", "publishedExamples", "examples", "counterExamples",
        ]

        var name: String { Field.allNames[rawValue] }
    }

    /// Parses the rule file `text`, naming it `file` in errors.
    public static func parse(_ text: [UInt8], file: String) throws(FileFormatError) -> [Rule] {
        // The rules' positions are counted in the text where it lies: a copy for the locator took
        // 0.7 M instructions and some 170 page faults of the built-in pack's load.
        try text.withUnsafeBytes { bytes in Result { () throws(FileFormatError) in try parse(bytes, file: file) } }.get()
    }

    /// `parse`, on the text's bytes.
    private static func parse(_ bytes: UnsafeRawBufferPointer, file: String) throws(FileFormatError) -> [Rule] {
        let root: JSONValue.Node
        do {
            root = try JSONValue.parse(bytes)
        } catch let error as JSONSyntaxError {
            let position = ByteWindow.position(of: error.offset, in: bytes)
            throw FileFormatError(file: file, line: position.line, column: position.column, reason: "not valid JSON: \(error.reason.message)")
        } catch {
            throw FileFormatError(file: file, reason: "not valid JSON")
        }
        let locate = Locator(text: bytes, file: file)
        guard let members = root.value.objectMembers else {
            throw locate.error(at: root.offset, rule: nil, "a rule file is a JSON object with a \"rules\" array")
        }
        for member in members where !fileFields.contains(member.key) {
            throw locate.error(at: member.keyOffset, rule: nil, "unknown field '\(member.key)' (allowed: rules, $comment)")
        }
        guard let rulesNode = members.last(where: { $0.key == "rules" })?.value else {
            throw locate.error(at: root.offset, rule: nil, "missing the \"rules\" array")
        }
        guard let elements = rulesNode.value.arrayElements else {
            throw locate.error(at: rulesNode.offset, rule: nil, "\"rules\" must be an array")
        }
        var rules: [Rule] = []
        for element in elements {
            rules.append(try parseRule(element, locate: locate))
        }
        return rules
    }

    private static func parseRule(_ node: JSONValue.Node, locate: Locator) throws(FileFormatError) -> Rule {
        guard let members = node.value.objectMembers else {
            throw locate.error(at: node.offset, rule: nil, "each rule is a JSON object")
        }
        var fields = RuleFields(members: members, node: node, locate: locate)
        let id = try fields.string(.id, required: true)!
        fields.ruleId = id
        if let member = fields.firstUnknown {
            throw locate.error(at: member.keyOffset, rule: id, "unknown field '\(member.key)'")
        }
        if let member = fields.firstRepeated {
            throw locate.error(at: member.keyOffset, rule: id, "duplicate field '\(member.key)'")
        }
        let kindText = try fields.string(.kind, required: true)!
        guard let kind = RuleKind(rawValue: kindText) else {
            throw fields.error(.kind, "kind must be \"name\", \"pattern\", \"contract\" or \"inventory\"")
        }
        let levelText = try fields.string(.level, required: true)!
        guard let level = Level(rawValue: levelText) else {
            throw fields.error(.level, "level must be note, warning or error")
        }
        let familyText = try fields.string(.family, required: true)!
        guard let family = Family(rawValue: familyText) else {
            throw fields.error(.family, "family must be secret, policy or transport")
        }
        let shapeText = try fields.string(.valueShape, required: false) ?? ValueShape.human.rawValue
        guard let valueShape = ValueShape(rawValue: shapeText) else {
            throw fields.error(.valueShape, "valueShape must be \"human\", \"generated\" or \"session\"")
        }
        let policyText = try fields.string(.codeAndMarkup, required: false) ?? CodePolicy.scan.rawValue
        guard let codePolicy = CodePolicy(rawValue: policyText) else {
            throw fields.error(.codeAndMarkup, "codeAndMarkup must be \"scan\", \"prose\" or \"assignment\"")
        }
        let window = try fields.integer(.keywordWindow)
        if let window, !(1...4096).contains(window) {
            throw fields.error(.keywordWindow, "keywordWindow must be between 1 and 4096 bytes")
        }
        let confidenceText = try fields.string(.confidence, required: false)
        let confidence = try confidenceText.map { text throws(FileFormatError) -> Confidence in
            guard let confidence = Confidence(rawValue: text) else { throw fields.error(.confidence, "confidence must be low, medium or high") }
            return confidence
        }
        let published = try fields.strings(.publishedExamples) ?? []
        // The item itself is never quoted: someone may have put the key there, not its digest.
        if let bad = published.firstIndex(where: { $0.utf8.count != 64 || !$0.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) }) {
            throw fields.error(.publishedExamples, "publishedExamples holds SHA-256 digests in lowercase hex (64 characters); item \(bad + 1) is not one")
        }
        let severity = try fields.number(.securitySeverity, required: true)!
        guard severity >= 0 && severity <= 10 else {
            throw fields.error(.securitySeverity, "securitySeverity must be between 0.0 and 10.0")
        }
        var rule = Rule(
            id: id, kind: kind,
            title: try fields.string(.title, required: true)!,
            description: try fields.string(.description, required: true)!,
            help: try fields.string(.help, required: true)!,
            level: level, family: family, securitySeverity: severity,
            tags: try fields.strings(.tags) ?? [],
            names: try fields.strings(.names) ?? [],
            valueShape: valueShape,
            pattern: try fields.string(.pattern, required: false),
            keywords: try fields.strings(.keywords) ?? [],
            minLength: try fields.integer(.minLength) ?? 0,
            minEntropy: try fields.number(.minEntropy, required: false),
            validator: try fields.string(.validator, required: false),
            previewPrefixLength: try fields.integer(.previewPrefixLength) ?? 0,
            isGeneric: try fields.bool(.generic) ?? false,
            codePolicy: codePolicy,
            keywordWindow: window,
            confidence: confidence,
            publishedExamples: Set(published),
            examples: try fields.strings(.examples) ?? [],
            counterExamples: try fields.strings(.counterExamples) ?? [],
            source: locate.file)
        let start = locate.position(of: node.offset)
        rule.sourceLine = start.line
        rule.sourceColumn = start.column
        switch kind {
        case .name:
            if rule.names.isEmpty { throw fields.error(nil, "a name rule needs a non-empty \"names\" array") }
            if rule.pattern != nil { throw fields.error(.pattern, "a name rule has no pattern") }
            if fields.member(.generic) != nil { throw fields.error(.generic, "a name rule has no generic flag") }
            for field: Field in [.codeAndMarkup, .keywordWindow, .confidence, .publishedExamples] where fields.member(field) != nil {
                throw fields.error(field, "a name rule has no \(field.name)")
            }
        case .pattern:
            if rule.pattern == nil { throw fields.error(nil, "a pattern rule needs a \"pattern\"") }
            if !rule.names.isEmpty { throw fields.error(.names, "a pattern rule has no names") }
            if fields.member(.valueShape) != nil { throw fields.error(.valueShape, "a pattern rule has no valueShape") }
            if rule.keywordWindow != nil && rule.keywords.isEmpty {
                throw fields.error(.keywordWindow, "a keywordWindow needs the keywords that must stand in it")
            }
        case .contract, .inventory:
            for field: Field in [.pattern, .names, .keywords, .valueShape, .validator, .generic, .codeAndMarkup, .keywordWindow, .confidence, .publishedExamples]
            where fields.member(field) != nil {
                throw fields.error(field, "a \(kind.rawValue) rule's check is built in; it has no \(field.name)")
            }
        }
        return rule
    }

    /// Turns byte offsets of the rule file into line and column for messages. One window for the
    /// file: the rules' start positions, asked in order, cost one pass over it rather than one
    /// from its start each (that was 12 % of loading the pack). The window shows `text` where it
    /// lies, so the locator lives no longer than the text's bytes are lent.
    private struct Locator {
        let window: ByteWindow
        let file: String

        init(text: UnsafeRawBufferPointer, file: String) {
            window = ByteWindow(whole: text)
            self.file = file
        }

        func position(of offset: Int) -> SourcePosition { window.position(of: offset) }

        func error(at offset: Int, rule: String?, _ reason: String) -> FileFormatError {
            let position = position(of: offset)
            return FileFormatError(file: file, line: position.line, column: position.column, ruleId: rule, reason: reason)
        }
    }

    /// Typed access to the fields of one rule object.
    private struct RuleFields {
        let members: [JSONValue.Member]
        let node: JSONValue.Node
        let locate: Locator
        var ruleId: String?
        /// The index in `members` of each field's last member (by `Field.rawValue`), -1 where
        /// the field is absent.
        private var lastMember: [Int]
        /// The first member that is no rule field, and the first that repeats one.
        private(set) var firstUnknown: JSONValue.Member?
        private(set) var firstRepeated: JSONValue.Member?

        init(members: [JSONValue.Member], node: JSONValue.Node, locate: Locator) {
            (self.members, self.node, self.locate) = (members, node, locate)
            lastMember = Array(repeating: -1, count: Field.allCases.count)
            for (index, member) in members.enumerated() {
                // A search of the 24 names: their comparisons took less than hashing the key.
                guard let field = Field.allNames.firstIndex(of: member.key) else {
                    if firstUnknown == nil { firstUnknown = member }
                    continue
                }
                if lastMember[field] >= 0 && firstRepeated == nil { firstRepeated = member }
                lastMember[field] = index
            }
        }

        /// The last member of `field`.
        func member(_ field: Field) -> JSONValue.Member? {
            lastMember[field.rawValue] >= 0 ? members[lastMember[field.rawValue]] : nil
        }

        func error(_ field: Field?, _ reason: String) -> FileFormatError {
            let offset = field.flatMap { member($0)?.value.offset } ?? node.offset
            return locate.error(at: offset, rule: ruleId, reason)
        }

        func string(_ field: Field, required: Bool) throws(FileFormatError) -> String? {
            guard let m = member(field) else {
                if required { throw error(nil, "missing required field '\(field.name)'") }
                return nil
            }
            guard let s = m.value.value.stringValue, !s.isEmpty else {
                throw error(field, "'\(field.name)' must be a non-empty string")
            }
            return s
        }

        func number(_ field: Field, required: Bool) throws(FileFormatError) -> Double? {
            guard let m = member(field) else {
                if required { throw error(nil, "missing required field '\(field.name)'") }
                return nil
            }
            guard let d = m.value.value.doubleValue else { throw error(field, "'\(field.name)' must be a number") }
            return d
        }

        /// A number an `Int` holds, truncated toward zero (`JSONValue.integerValue`).
        func integer(_ field: Field) throws(FileFormatError) -> Int? {
            guard try number(field, required: false) != nil else { return nil }
            guard let n = member(field)?.value.value.integerValue else { throw error(field, "'\(field.name)' is out of range") }
            return n
        }

        func bool(_ field: Field) throws(FileFormatError) -> Bool? {
            guard let m = member(field) else { return nil }
            guard let b = m.value.value.boolValue else { throw error(field, "'\(field.name)' must be true or false") }
            return b
        }

        func strings(_ field: Field) throws(FileFormatError) -> [String]? {
            guard let m = member(field) else { return nil }
            guard let elements = m.value.value.arrayElements else {
                throw error(field, "'\(field.name)' must be an array of strings")
            }
            var result: [String] = []
            for e in elements {
                guard let s = e.value.stringValue else { throw error(field, "'\(field.name)' must be an array of strings") }
                result.append(s)
            }
            return result
        }
    }
}
