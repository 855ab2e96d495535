import AuditBytes

/// How far before one of its keywords a pattern's match can start. A rule whose every match
/// contains a keyword need not run over a long value from end to end: only the stretches within
/// that reach before a keyword the prefilter found can start a match
/// (`RegexMatcher.allMatches(_:in:near:reach:)`), and a value of a million cookies with one
/// keyword somewhere costs a few short searches instead of a full one per rule.
public enum KeywordReach {
    /// The most bytes between the start of a match of `pattern` and the start of a keyword (one
    /// of `keywords`, ASCII letters in any case, other characters as written) inside that match, over every match; nil when
    /// some match may hold none of them, or the pattern uses syntax `PatternSyntax` does not read.
    ///
    /// It holds for subjects without U+017F and U+212A: under `(?i)` those are the only
    /// characters besides ASCII letters that match an ASCII letter (a test asks PCRE2), and the
    /// prefilter, which folds ASCII case only, would not see them as a keyword's letters.
    public static func of(pattern: String, keywords: [String]) -> Int? {
        guard !keywords.isEmpty, let tree = try? PatternSyntax.parse(pattern) else { return nil }
        let analysis = Analysis(keywords: keywords.map { Array($0.utf8).map(ASCIICase.lower) })
        return analysis.facts(tree).reach
    }

    /// What a part of a pattern promises.
    struct Facts {
        /// The most bytes it matches; nil when unbounded.
        var maxBytes: Int?
        /// Every string it matches (ASCII letters lowercased), when they are few.
        var language: [[UInt8]]?
        /// The most bytes between its start and a keyword it always holds; nil when none is sure.
        var reach: Int?
    }

    struct Analysis {
        let keywords: [[UInt8]]
        /// Languages of more strings than this are not spelled out.
        static let languageLimit = 256

        func facts(_ node: PatternNode) -> Facts {
            switch node {
            case .character(let bytes, let caseless):
                // A caseless character beyond ASCII may match a case partner of another length.
                if caseless && bytes.count > 1 { return Facts(maxBytes: 4, language: nil, reach: nil) }
                return Facts(maxBytes: bytes.count, language: [bytes.map(ASCIICase.lower)], reach: nil)
            case .characterSet(let maxBytes, let members):
                return Facts(maxBytes: maxBytes, language: members.map { $0.map { [$0] } }, reach: nil)
            case .assertion:
                return Facts(maxBytes: 0, language: [[]], reach: nil)
            case .reference:
                return Facts(maxBytes: nil, language: nil, reach: nil)
            case .alternatives(let branches):
                let each = branches.map(sequence)
                var language: [[UInt8]]? = []
                for branch in each {
                    guard let strings = branch.language, let union = language, union.count + strings.count <= Self.languageLimit else {
                        language = nil
                        break
                    }
                    language = union + strings
                }
                return Facts(maxBytes: largest(each.map(\.maxBytes)), language: language, reach: largest(each.map(\.reach)))
            case .repeated(let inner, let min, let max):
                let part = facts(inner)
                var maxBytes: Int?
                if part.maxBytes == 0 {
                    maxBytes = 0
                } else if let max, let bytes = part.maxBytes {
                    let (total, overflow) = max.multipliedReportingOverflow(by: bytes)
                    maxBytes = overflow ? nil : total
                }
                var language: [[UInt8]]?
                if let strings = part.language, let max, max <= 16 {
                    var union: [[UInt8]]? = min == 0 ? [[]] : []
                    var power: [[UInt8]]? = [[]]
                    for count in stride(from: 1, through: max, by: 1) {
                        power = power.flatMap { product($0, strings) }
                        guard count >= min else { continue }
                        union = union.flatMap { u in power.flatMap { p in u.count + p.count <= Self.languageLimit ? u + p : nil } }
                    }
                    language = union
                }
                return Facts(maxBytes: maxBytes, language: language, reach: min >= 1 ? part.reach : nil)
            }
        }

        /// A sequence: a keyword is sure when one of its parts is sure to hold one after a
        /// bounded prefix, or when every string of a run of spelled-out parts holds one.
        func sequence(_ items: [PatternNode]) -> Facts {
            var prefix: Int? = 0
            var reach: Int?
            var run: [[UInt8]]?
            var runStart: Int?
            var whole: [[UInt8]]? = [[]]
            func closeRun() {
                if let strings = run, let start = runStart, let inside = reachInside(strings) {
                    reach = Swift.min(reach ?? Int.max, start + inside)
                }
                run = nil
            }
            for item in items {
                let part = facts(item)
                if let strings = part.language {
                    if let current = run, let longer = product(current, strings) {
                        run = longer
                    } else {
                        closeRun()
                        run = strings
                        runStart = prefix
                    }
                } else {
                    closeRun()
                }
                if let inside = part.reach, let prefix { reach = Swift.min(reach ?? Int.max, prefix + inside) }
                whole = whole.flatMap { current in part.language.flatMap { product(current, $0) } }
                prefix = prefix.flatMap { p in part.maxBytes.flatMap { p.addingReportingOverflow($0).overflow ? nil : p + $0 } }
            }
            closeRun()
            return Facts(maxBytes: prefix, language: whole, reach: reach)
        }

        /// Every concatenation of a string of `left` and one of `right`; nil when too many.
        func product(_ left: [[UInt8]], _ right: [[UInt8]]) -> [[UInt8]]? {
            guard left.count * right.count <= Self.languageLimit else { return nil }
            return left.flatMap { l in right.map { l + $0 } }
        }

        /// The most bytes before the first keyword of a string, over `strings`; nil when one of
        /// them holds no keyword.
        func reachInside(_ strings: [[UInt8]]) -> Int? {
            var reach = 0
            for string in strings {
                guard let first = keywords.compactMap({ firstOffset(of: $0, in: string) }).min() else { return nil }
                reach = Swift.max(reach, first)
            }
            return reach
        }

        func firstOffset(of keyword: [UInt8], in string: [UInt8]) -> Int? {
            guard keyword.count <= string.count else { return nil }
            return (0...(string.count - keyword.count)).first { string[$0..<($0 + keyword.count)].elementsEqual(keyword) }
        }

        /// The largest of `values`, nil when one is nil (unbounded, or not sure).
        func largest(_ values: [Int?]) -> Int? {
            var result = 0
            for value in values {
                guard let value else { return nil }
                result = Swift.max(result, value)
            }
            return result
        }
    }
}
