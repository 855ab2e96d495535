import AuditCore
import AuditRules
import Foundation

/// The rules in force for a scan: the built-in pack, then each `--rules` directory in order.
/// A rule whose id is already loaded replaces it in place; new ids are appended.
public final class RulePack: @unchecked Sendable {
    /// Every rule, in load order (name rules earlier in the list win ties).
    public let rules: [Rule]
    /// Name rules, in priority order.
    public let nameRules: [Rule]
    public let names: NameMatcher
    /// Pattern rules and their compiled matcher.
    public let patterns: PatternEngine
    /// The data contract's classification inventory and setting registry.
    public let inventory: Inventory

    /// Loads the built-in pack (unless `builtin` is false) and the rule files in `directories`.
    /// Rules whose ids are in `disabled` are dropped (an id no file defines is an error).
    public static func load(builtin: Bool = true, directories: [String] = [], disabled: Set<String> = []) throws(FileFormatError) -> RulePack {
        var files: [(name: String, text: [UInt8])] = []
        if builtin {
            files += BuiltinRuleFiles.files.filter { $0.name != InventoryLoader.fileName }
                .map { ("builtin:\($0.name)", Array($0.text.utf8)) }
        }
        for directory in directories {
            files += try readRuleDirectory(directory)
        }
        return try RulePack(files: files, disabled: disabled)
    }

    /// Builds a pack from rule-file texts, in order, without the rules in `disabled`.
    public init(files: [(name: String, text: [UInt8])], disabled: Set<String> = []) throws(FileFormatError) {
        var rules: [Rule] = []
        var indexById: [String: Int] = [:]
        var fileById: [String: String] = [:]
        // The patterns as validated, compiled once: the pattern engine takes them as they are.
        var regexById: [String: Regex] = [:]
        let matcher = RegexMatcher()
        for file in files {
            for rule in try RuleFileParser.parse(file.text, file: file.name) {
                regexById[rule.id] = try RulePack.validateAtLoad(rule, matcher: matcher)
                if let index = indexById[rule.id] {
                    // Overriding a rule from an earlier source is allowed; twice from one source is not.
                    if fileById[rule.id] == file.name || (!file.name.hasPrefix("builtin:") && !fileById[rule.id]!.hasPrefix("builtin:")) {
                        throw FileFormatError(file: file.name, line: rule.sourceLine, column: rule.sourceColumn, ruleId: rule.id,
                                            reason: "duplicate rule id (also defined in \(fileById[rule.id]!))")
                    }
                    rules[index] = rule
                } else {
                    indexById[rule.id] = rules.count
                    rules.append(rule)
                }
                fileById[rule.id] = file.name
            }
        }
        for id in disabled.sorted() where indexById[id] == nil {
            throw FileFormatError(file: "configuration", reason: "disabledRules names '\(id)', which no rule file defines")
        }
        if !disabled.isEmpty {
            rules.removeAll { disabled.contains($0.id) }
            indexById = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        }
        self.rules = rules
        self.indexById = indexById
        for rule in rules where rule.kind.examplesAreInputs && !RulePack.builtinCheckIds.contains(rule.id) {
            throw FileFormatError(file: rule.source, line: rule.sourceLine, column: rule.sourceColumn, ruleId: rule.id,
                                reason: "there is no built-in \(rule.kind.rawValue) check with this id")
        }
        nameRules = rules.filter { $0.kind == .name }
        names = NameMatcher(rules: nameRules)
        let patternRules = rules.filter { $0.kind == .pattern }
        patterns = PatternEngine(rules: patternRules, regexes: patternRules.map { regexById[$0.id]! })
        inventory = try InventoryLoader.builtin()
    }

    private let indexById: [String: Int]

    /// The same rules, made again: no object, array or string shared with this pack. Each scan
    /// thread works on its own copy, because threads that retain and release the same objects
    /// (every value touches the pattern engine and its rules) contend for their reference counts
    /// (with two threads on one pack, retain and release took 9 % of the samples instead of 4 %).
    public func independentCopy() -> RulePack {
        (try? RulePack(copying: self)) ?? self
    }

    /// A copy of `other` made from its rules, checked already, rather than from their files:
    /// each rule's strings, arrays and sets copied (`Rule.independentCopy`), the name matcher and
    /// the pattern engine built again (the patterns compiled when first matched, as the built-in
    /// ones always are), the inventory read again. Parsing the files again was 59 M
    /// instructions, which the second worker of a shared input spent before it could scan.
    private init(copying other: RulePack) throws(FileFormatError) {
        rules = other.rules.map { $0.independentCopy() }
        indexById = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        nameRules = rules.filter { $0.kind == .name }
        names = NameMatcher(rules: nameRules)
        let patternRules = rules.filter { $0.kind == .pattern }
        // A pattern rule has a pattern (`RuleFileParser`).
        patterns = PatternEngine(rules: patternRules, regexes: patternRules.map { Regex(deferring: $0.pattern!) })
        inventory = try InventoryLoader.builtin()
    }

    /// The rule with `id`, if loaded.
    public func rule(id: String) -> Rule? { indexById[id].map { rules[$0] } }

    /// Rule ids of the built-in checks: a pack may describe no other contract or inventory rule
    /// (a pack without one of them does not report that check).
    static let builtinCheckIds = Set(BuiltinCheck.allCases.map(\.rawValue))

    static let idGrammar = try! Regex("^[a-z0-9]+(?:[.-][a-z0-9]+)*$")

    /// Checks that make a rule unusable: refused at load with the file and rule id. Returns a
    /// pattern rule's compiled pattern.
    static func validateAtLoad(_ rule: Rule, matcher: RegexMatcher) throws(FileFormatError) -> Regex? {
        func fail(_ reason: String) -> FileFormatError {
            FileFormatError(file: rule.source, line: rule.sourceLine, column: rule.sourceColumn, ruleId: rule.id, reason: reason)
        }
        let idMatches = rule.id.utf8CString.withUnsafeBytes { bytes in
            (try? matcher.firstMatch(idGrammar, in: UnsafeRawBufferPointer(rebasing: bytes.dropLast()))) ?? nil
        }
        if idMatches == nil { throw fail("id must be lowercase dotted words, e.g. secret.github-token") }
        if rule.examples.isEmpty { throw fail("a rule needs at least one example") }
        if rule.previewPrefixLength < 0 || rule.previewPrefixLength > 4 {
            throw fail("previewPrefixLength must be between 0 and 4")
        }
        if let validator = rule.validator, !Validators.names.contains(validator) {
            throw fail("unknown validator '\(validator)' (known: \(Validators.names.sorted().joined(separator: ", ")))")
        }
        if let keyword = rule.keywords.first(where: { $0.utf8.count < 2 }) {
            throw fail("keyword '\(keyword)' is shorter than two bytes")
        }
        if rule.kind == .pattern, let pattern = rule.pattern {
            // The built-in patterns compile, have a capture group (`BuiltinPatternTests`) and
            // pass the probe (`InvalidRuleFileTests`) in tests, so they are compiled when first
            // matched; user patterns are checked here.
            if rule.source.hasPrefix("builtin:") {
                return Regex(deferring: pattern)
            }
            let regex: Regex
            do {
                regex = try Regex(pattern)
            } catch {
                throw fail(error.message)
            }
            if regex.captureCount == 0 { throw fail("the pattern needs a capture group (named 'secret', or group 1) for the secret") }
            if let input = BacktrackingProbe.firstLimit(regex, pattern: pattern, examples: rule.examples, keywords: rule.keywords, matcher: matcher) {
                throw fail("the pattern backtracks catastrophically: on \(input) it reached the match limit")
            }
            return regex
        }
        return nil
    }

    /// Reads every `*.json` file of a rules directory, sorted by name.
    static func readRuleDirectory(_ directory: String) throws(FileFormatError) -> [(name: String, text: [UInt8])] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw FileFormatError(file: directory, reason: "cannot read the rules directory: \(SystemFile.reason(error))")
        }
        var files: [(name: String, text: [UInt8])] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (directory as NSString).appendingPathComponent(name)
            switch SystemFile.read(path) {
            case .success(let bytes): files.append((path, bytes))
            case .failure(let failure): throw FileFormatError(file: path, reason: "cannot read the rule file: \(failure)")
            }
        }
        if files.isEmpty { throw FileFormatError(file: directory, reason: "no *.json rule files in the directory") }
        return files
    }
}
