import AuditDetection
import AuditRules

/// The outcome of testing one rule against its own examples.
public struct RuleTestOutcome: Sendable {
    public var ruleId: String
    public var source: String
    public var exampleCount: Int
    public var counterExampleCount: Int
    /// What failed; empty when the rule passed.
    public var problems: [String]

    public var passed: Bool { problems.isEmpty }
}

/// Runs every rule's examples (must match) and counter-examples (must not), plus the hygiene
/// checks that are not load errors. Pattern examples go through the same gates as a scan
/// (prefilter, length, entropy, placeholder, validator); name examples through the name matcher;
/// contract and inventory examples, which are whole inputs, through a scan.
public enum RuleTester {
    public static func run(_ pack: RulePack) -> [RuleTestOutcome] {
        let matcher = RegexMatcher()
        var scratch = PatternScratch()
        var outcomes: [RuleTestOutcome] = []
        var nameOwners: [String: String] = [:]
        for rule in pack.rules {
            var problems: [String]
            switch rule.kind {
            case .pattern: problems = patternProblems(rule, pack: pack, matcher: matcher, scratch: &scratch)
            case .contract, .inventory: problems = inputProblems(rule, pack: pack, matcher: matcher)
            case .name: problems = nameProblems(rule, pack: pack, owners: &nameOwners)
            }
            // A value rule shows both sides of its boundary: two cases it must find, two near
            // misses it must not (a contract rule's cases are whole inputs: one of each).
            let least = rule.kind == .pattern || rule.kind == .name ? 2 : 1
            if rule.examples.count < least { problems.append("fewer than \(least) examples") }
            if rule.counterExamples.count < least {
                problems.append(rule.counterExamples.isEmpty ? "no counter-examples" : "fewer than \(least) counter-examples")
            }
            outcomes.append(RuleTestOutcome(ruleId: rule.id, source: rule.source, exampleCount: rule.examples.count,
                                            counterExampleCount: rule.counterExamples.count, problems: problems))
        }
        return outcomes
    }

    /// A pattern rule's examples through the gates of a scan; a pattern without keywords.
    private static func patternProblems(_ rule: Rule, pack: RulePack, matcher: RegexMatcher, scratch: inout PatternScratch) -> [String] {
        var problems: [String] = []
        let index = pack.patterns.rules.firstIndex { $0.id == rule.id }!
        func matches(_ text: String) -> Bool? {
            var bytes = Array(text.utf8)
            var hit = false
            do {
                try bytes.withUnsafeMutableBytes { raw in
                    try pack.patterns.scan(UnsafeRawBufferPointer(raw), matcher: matcher, scratch: &scratch) { h in
                        if h.ruleIndex == index { hit = true }
                    }
                }
            } catch {
                return nil
            }
            return hit
        }
        for (i, example) in rule.examples.enumerated() {
            switch matches(example) {
            case false?: problems.append("example \(i + 1) does not match")
            case nil: problems.append("example \(i + 1) hits the match limit")
            default: break
            }
        }
        for (i, counter) in rule.counterExamples.enumerated() {
            switch matches(counter) {
            case true?: problems.append("counter-example \(i + 1) matches")
            case nil: problems.append("counter-example \(i + 1) hits the match limit")
            default: break
            }
        }
        if rule.keywords.isEmpty {
            problems.append("no keywords: the pattern would run on every value; add the literals it needs")
        }
        return problems
    }

    /// A contract or inventory rule's examples: whole inputs, scanned as files are.
    private static func inputProblems(_ rule: Rule, pack: RulePack, matcher: RegexMatcher) -> [String] {
        var problems: [String] = []
        let scanner = Scanner(rules: pack)
        func raises(_ text: String) -> Bool {
            var bytes = Array(text.utf8)
            return bytes.withUnsafeMutableBytes { raw in
                scanner.scan(bytes: UnsafeRawBufferPointer(raw), name: "example", matcher: matcher).findings.contains { $0.ruleId == rule.id }
            }
        }
        for (i, example) in rule.examples.enumerated() where !raises(example) {
            problems.append("example \(i + 1) does not raise the rule")
        }
        for (i, counter) in rule.counterExamples.enumerated() where raises(counter) {
            problems.append("counter-example \(i + 1) raises the rule")
        }
        return problems
    }

    /// A name rule's examples through the name matcher; a name another rule has already.
    private static func nameProblems(_ rule: Rule, pack: RulePack, owners: inout [String: String]) -> [String] {
        var problems: [String] = []
        let index = pack.nameRules.firstIndex { $0.id == rule.id }!
        for (i, example) in rule.examples.enumerated() {
            let match = pack.names.match(example)
            if match?.ruleIndex != index || match?.describesMetadata == true {
                problems.append("example \(i + 1) ('\(example)') does not match" + (match.map { " (matched \(pack.nameRules[$0.ruleIndex].id))" } ?? ""))
            }
        }
        for (i, counter) in rule.counterExamples.enumerated() {
            guard let match = pack.names.match(counter), match.ruleIndex == index, !match.describesMetadata else { continue }
            problems.append("counter-example \(i + 1) ('\(counter)') matches")
        }
        for name in rule.names {
            let joined = KeyWords.split(name).joined()
            if let owner = owners[joined], owner != rule.id {
                problems.append("name '\(name)' is also a name of \(owner); the earlier rule wins")
            }
            owners[joined] = owners[joined] ?? rule.id
        }
        return problems
    }
}
