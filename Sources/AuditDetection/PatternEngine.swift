import AuditBytes
import AuditCore
import AuditRules
import Synchronization

/// One pattern-rule match in a value, after the rule's gates.
public struct PatternHit: Sendable, Equatable {
    /// Index into `PatternEngine.rules`.
    public var ruleIndex: Int
    /// The secret's byte range within the scanned value.
    public var secret: Range<Int>
    public var confidence: Confidence
}

/// Runs the pattern rules over values: keyword prefilter, length gate, PCRE2 (JIT), then the
/// rule's entropy, placeholder and validator gates. Immutable; share it across threads and give
/// each thread its own `RegexMatcher`.
public final class PatternEngine: @unchecked Sendable {
    public let rules: [Rule]
    let regexes: [Regex]
    private let prefilter: LiteralPrefilter?
    /// `prefilter`, for the search of every value and name: not retained for each (`prefilter`
    /// holds it).
    private let unretainedPrefilter: Unretained<LiteralPrefilter>?
    /// Rule indices per prefilter literal, and the context rules among them; freed by `deinit`.
    private let literalRules: RuleLists
    /// Rules without keywords: they run on every value long enough.
    private let unfilteredRules: [Int]
    /// Values shorter than this cannot match any rule.
    public let minimumValueLength: Int
    /// The context rules (with a `keywordWindow`), at most 64: bit i of a `ContextMask` stands
    /// for `contextRules[i]`.
    let contextRules: [Int]
    /// Per rule index, its bit in a `ContextMask` (0 for a rule that is not a context rule).
    private let contextBits: [ContextMask]
    /// Per rule index, its windowed search, or nil for a rule that may match without a keyword:
    /// worked out when a long value first needs it, since for the whole pack the analysis and a
    /// second JIT compilation cost a pack load as much again, and most scans hold no long value.
    private let keywordSearches = Mutex<[Int: KeywordSearch?]>([:])
    /// Values this long or longer are searched only near the keywords of a rule with a reach.
    /// Shorter ones are searched whole: there the windows would save little.
    public let windowedSearchLength: Int
    /// The default `windowedSearchLength`.
    public static let defaultWindowedSearchLength = 4096

    /// The engine of `rules` (pattern rules only) with their patterns compiled: `regexes[i]` is
    /// the pattern of `rules[i]`.
    init(rules: [Rule], regexes: [Regex], windowedSearchLength: Int = PatternEngine.defaultWindowedSearchLength) {
        precondition(rules.count == regexes.count)
        self.rules = rules
        self.regexes = regexes
        self.windowedSearchLength = windowedSearchLength
        var literals: [String] = []
        var owners: [String: [Int]] = [:]
        var unfiltered: [Int] = []
        for (index, rule) in rules.enumerated() {
            if rule.keywords.isEmpty { unfiltered.append(index) }
            for keyword in rule.keywords {
                // Folded as the prefilter folds text, ASCII letters only: `É` stays `É`.
                let lowered = String(decoding: keyword.utf8.map(ASCIICase.lower), as: UTF8.self)
                if owners[lowered] == nil { literals.append(lowered) }
                owners[lowered, default: []].append(index)
            }
        }
        prefilter = literals.isEmpty ? nil : LiteralPrefilter(literals: literals)
        unretainedPrefilter = prefilter.map(Unretained.init)
        unfilteredRules = unfiltered
        contextRules = Array(rules.indices.filter { rules[$0].keywordWindow != nil }.prefix(ContextMask.bitWidth))
        var bits = [ContextMask](repeating: 0, count: rules.count)
        for (bit, rule) in contextRules.enumerated() { bits[rule] = 1 << bit }
        contextBits = bits
        // A name's context rules are found by the one pass of the prefilter over it.
        literalRules = RuleLists(literals.map { owners[$0]! }, ruleContextBits: bits)
        minimumValueLength = rules.map { rule in
            max(rule.minLength, rule.keywords.map { $0.utf8.count }.min() ?? 0)
        }.min() ?? Int.max
    }

    deinit {
        literalRules.deallocate()
    }

    /// Scans one value and calls `emit` for each hit, in rule order then position order. `kind`
    /// is what the value is declared to be (a body's media type); nil leaves it to `TextKind`'s
    /// sniffer, asked only when a rule for prose or assignments matched. `context`: the context
    /// rules whose keyword the value's name or carrier holds (`contextMask(of:)`); they run as if
    /// the keyword stood beside the value.
    /// Throws `RegexError.limitExceeded` (with the rule index) when a regex gives up.
    public func scan(_ value: UnsafeRawBufferPointer, kind declared: TextKind? = nil, context: ContextMask = 0, matcher: RegexMatcher,
                     scratch: inout PatternScratch, _ emit: (PatternHit) -> Void) throws(PatternLimitError) {
        let n = value.count
        if n < minimumValueLength { return }
        scratch.begin(ruleCount: rules.count)
        var windowed = n >= windowedSearchLength && Self.foldsLikeASCII(value)
        // Optional chaining and a guarded loop: a binding of the prefilter, or an iterator over an
        // empty array, retains and releases for every value.
        // Two closures rather than one asking `windowed` at every keyword: most values are short.
        // They capture the rule lists, not `self`, which they would retain and release.
        let literalRules = literalRules
        if windowed {
            // Keywords denser than this would leave little between the windows: the value is
            // then searched whole, and the list of keywords stays small beside the value.
            let keywordLimit = max(64, n / 128)
            unretainedPrefilter?.call { $0.scan(value) { literal, offset in
                if scratch.keywords.count < keywordLimit {
                    scratch.keywords.append((literal: Int32(literal), offset: offset))
                } else {
                    windowed = false
                }
                for rule in literalRules[literal] { scratch.mark(Int(rule)) }
                scratch.keywordContext |= literalRules.contextMask(ofList: literal)
            } }
        } else {
            unretainedPrefilter?.call { $0.scan(value) { literal, _ in
                for rule in literalRules[literal] { scratch.mark(Int(rule)) }
                scratch.keywordContext |= literalRules.contextMask(ofList: literal)
            } }
        }
        if !unfilteredRules.isEmpty {
            for rule in unfilteredRules { scratch.mark(rule) }
        }
        if context != 0 {
            for (bit, rule) in contextRules.enumerated() where context & (1 << bit) != 0 { scratch.mark(rule) }
        }
        if scratch.marked.isEmpty { return }
        scratch.marked.sort()
        var kind = declared
        for ruleIndex in scratch.marked {
            // Read in place until a match: a copy of the rule retains and releases its strings
            // and arrays, and most marked rules match nothing.
            if n < rules[ruleIndex].minLength { continue }
            let matches: [RegexMatch]
            do {
                if windowed, context & contextBits[ruleIndex] == 0, let search = keywordSearch(ruleIndex) {
                    scratch.anchors.removeAll(keepingCapacity: true)
                    for keyword in scratch.keywords where literalRules[Int(keyword.literal)].contains(Int32(ruleIndex)) {
                        scratch.anchors.append(keyword.offset)
                    }
                    matches = try matcher.allMatches(search.regex, in: value, near: scratch.anchors, reach: search.reach)
                } else {
                    matches = try matcher.allMatches(regexes[ruleIndex], in: value)
                }
            } catch {
                throw PatternLimitError(ruleIndex: ruleIndex, error: error)
            }
            if matches.isEmpty { continue }
            // The rule read in place: a copy retained and released its strings and arrays.
            for m in matches {
                guard var secret = m.secret, !secret.isEmpty else { continue }
                let bytes = UnsafeRawBufferPointer(rebasing: value[secret])
                if let minimum = rules[ruleIndex].minEntropy, shannonEntropy(bytes) < minimum { continue }
                if bytes.withMemoryRebound(to: UInt8.self, Placeholders.isPlaceholder) { continue }
                if rules[ruleIndex].codePolicy != .scan {
                    if kind == nil { kind = TextKind.sniff(value) }
                    if !Self.stands(rules[ruleIndex].codePolicy, secret: secret, in: value, kind: kind!) { continue }
                    // In markup a text node ends at the next tag: `PIN: 4821</p>` is `4821`.
                    if kind == .markup, let tag = value[secret].firstIndex(of: UInt8(ascii: "<")) {
                        secret = secret.lowerBound..<tag
                        let cut = UnsafeRawBufferPointer(rebasing: value[secret])
                        if cut.count < 4 || cut.withMemoryRebound(to: UInt8.self, Placeholders.isPlaceholder) { continue }
                    }
                }
                if let window = rules[ruleIndex].keywordWindow, context & contextBits[ruleIndex] == 0,
                   !Self.keywordNear(rules[ruleIndex].keywords, secret: secret, within: window, in: value) { continue }
                if !rules[ruleIndex].publishedExamples.isEmpty,
                   rules[ruleIndex].publishedExamples.contains(SHA256.hexDigest(bytes: Array(UnsafeRawBufferPointer(rebasing: value[secret])))) { continue }
                var confidence = rules[ruleIndex].confidence ?? Confidence.high
                if let validator = rules[ruleIndex].validator {
                    switch Validators.check(validator, bytes) {
                    case .valid: break
                    case .invalid: confidence = .low
                    case .notThisFormat: continue
                    }
                }
                emit(PatternHit(ruleIndex: ruleIndex, secret: secret, confidence: confidence))
            }
        }
    }
}

/// How a rule searches a long value near its keywords only.
struct KeywordSearch {
    /// How far before a keyword its matches start (`KeywordReach`).
    let reach: Int
    /// Its pattern, compiled to be told by where matches must start.
    let regex: Regex
}

extension PatternEngine {
    /// The windowed search of `rules[index]`, nil when it has none.
    func keywordSearch(_ index: Int) -> KeywordSearch? {
        keywordSearches.withLock { known in
            if let search = known[index] { return search }
            let rule = rules[index]
            var search: KeywordSearch?
            if let pattern = rule.pattern, let reach = KeywordReach.of(pattern: pattern, keywords: rule.keywords),
               let regex = try? Regex(pattern, startLimited: true) {
                search = KeywordSearch(reach: reach, regex: regex)
            }
            known[index] = search
            return search
        }
    }

    /// Whether `(?i)` lets no character of `value` other than an ASCII letter match an ASCII
    /// letter: it holds no KELVIN SIGN (U+212A, `k`) and no LATIN SMALL LETTER LONG S (U+017F,
    /// `s`). Keyword reaches hold only then (`KeywordReach`).
    static func foldsLikeASCII(_ value: UnsafeRawBufferPointer) -> Bool {
        !value.containsBytes("\u{212A}") && !value.containsBytes("\u{017F}")
    }
}

/// A set of context rules, one bit each (see `PatternEngine.contextRules`).
public typealias ContextMask = UInt64

extension PatternEngine {
    /// The context rules with a keyword in `text` (case-insensitive): a key, a header's name, a
    /// URL's host. Asked once per distinct name, not per value.
    public func contextMask(of text: UnsafeRawBufferPointer) -> ContextMask {
        guard !contextRules.isEmpty, !text.isEmpty, let unretainedPrefilter else { return 0 }
        var mask: ContextMask = 0
        let literalRules = literalRules
        unretainedPrefilter.call { $0.scan(text) { literal, _ in mask |= literalRules.contextMask(ofList: literal) } }
        return mask
    }

    /// `scan` of a key, returning the key's `contextMask(of:)`: a key is asked both when it is
    /// judged, and the scan's pass of the prefilter finds the keywords of both (a key too short
    /// for every rule is only searched for the context rules' keywords).
    public func scanKey(_ key: UnsafeRawBufferPointer, matcher: RegexMatcher, scratch: inout PatternScratch,
                        _ emit: (PatternHit) -> Void) throws(PatternLimitError) -> ContextMask {
        guard key.count >= minimumValueLength else { return contextMask(of: key) }
        try scan(key, matcher: matcher, scratch: &scratch, emit)
        return scratch.keywordContext
    }

    /// Whether one of `keywords` (case-insensitive) stands within `window` bytes before or after
    /// `secret` in `value`, outside it: a context rule's provider name beside its generic-shaped
    /// secret.
    static func keywordNear(_ keywords: [String], secret: Range<Int>, within window: Int, in value: UnsafeRawBufferPointer) -> Bool {
        let before = value[max(0, secret.lowerBound - window)..<secret.lowerBound]
        let after = value[secret.upperBound..<min(value.count, secret.upperBound + window)]
        return [before, after].contains { side in
            let lowered = side.map(ASCIICase.lower)
            return keywords.contains { keyword in
                let needle = Array(keyword.utf8).map(ASCIICase.lower)
                guard !needle.isEmpty, needle.count <= lowered.count else { return false }
                return (0...(lowered.count - needle.count)).contains { lowered[$0..<($0 + needle.count)].elementsEqual(needle) }
            }
        }
    }

    /// Whether a match of a rule with this code policy stands in a value of this kind: a prose
    /// rule's not in code or a stylesheet, nor in markup outside its text nodes; an assignment's
    /// in code only when its right side is a quoted literal.
    static func stands(_ policy: CodePolicy, secret: Range<Int>, in value: UnsafeRawBufferPointer, kind: TextKind) -> Bool {
        switch (policy, kind) {
        case (.scan, _), (_, .text):
            return true
        case (.prose, .code), (.prose, .stylesheet):
            return false
        case (.prose, .markup):
            return TextKind.isInTextNode(secret, of: value)
        case (.assignment, .markup) where TextKind.isInTextNode(secret, of: value):
            return true
        case (.assignment, _):
            guard secret.lowerBound > 0 else { return false }
            let before = value[secret.lowerBound - 1]
            return before == UInt8(ascii: "\"") || before == UInt8(ascii: "'") || before == UInt8(ascii: "`")
        }
    }
}

/// A regex that hit its match or depth limit: the check of that value is incomplete.
public struct PatternLimitError: Error, Sendable {
    public var ruleIndex: Int
    public var error: RegexError
}

/// Reusable per-thread state for `PatternEngine.scan`.
public struct PatternScratch {
    var marked: [Int] = []
    /// A long value's keywords, where they start: the anchors of windowed searches.
    var keywords: [(literal: Int32, offset: Int)] = []
    /// One rule's anchors.
    var anchors: [Int] = []
    /// The context rules whose keywords the value has (`PatternEngine.contextMask(of:)`).
    var keywordContext: ContextMask = 0
    private var stamps: [UInt32] = []
    private var generation: UInt32 = 0

    public init() {}

    @inline(__always)
    mutating func begin(ruleCount: Int) {
        if stamps.count != ruleCount { stamps = [UInt32](repeating: 0, count: ruleCount) }
        generation &+= 1
        if generation == 0 {
            for i in stamps.indices { stamps[i] = 0 }
            generation = 1
        }
        // Most values mark nothing: the array is left alone then (clearing it is not free).
        if !marked.isEmpty { marked.removeAll(keepingCapacity: true) }
        if !keywords.isEmpty { keywords.removeAll() }
        keywordContext = 0
    }

    @inline(__always)
    mutating func mark(_ rule: Int) {
        if stamps[rule] != generation {
            stamps[rule] = generation
            marked.append(rule)
        }
    }
}
