/// Runs a rule's pattern at load over inputs that make a backtracking regex explode (long runs
/// of one character class, its own examples repeated, its keywords followed by a long run),
/// with the scan's match limits. A pattern that reaches a limit on one of them would stall or
/// leave checks incomplete on real values, so it is refused before any scan starts.
public enum BacktrackingProbe {
    static let runLength = 1024

    /// The probe inputs for a rule with this pattern, examples and keywords.
    static func inputs(pattern: String, examples: [String], keywords: [String]) -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        // Letters and digits written in the pattern, as runs of their own: `(x+x+)+y` explodes on x.
        var literals: [String] = []
        for scalar in pattern.unicodeScalars where scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
            let unit = String(scalar)
            if !literals.contains(unit) && literals.count < 16 { literals.append(unit) }
        }
        for unit in ["a", "A", "0", " ", "a ", "-", "=", "\\", "/", "aA0", "_."] + literals {
            let run = Array(String(repeating: unit, count: runLength / unit.utf8.count).utf8)
            inputs.append(run)
            inputs.append(run + Array("!\n".utf8))
            // The literals again after the run: a required last character is then present, so
            // the matcher cannot rule the input out before it backtracks.
            inputs.append(run + Array(("!" + literals.joined()).utf8))
        }
        for example in examples.prefix(4) {
            let repeated = Array(String(repeating: example, count: max(1, runLength / max(1, example.utf8.count))).utf8)
            inputs.append(repeated + Array("!".utf8))
        }
        for keyword in keywords.prefix(4) {
            inputs.append(Array((keyword + String(repeating: "a", count: runLength) + "!").utf8))
            inputs.append(Array((keyword + String(repeating: " ", count: runLength) + "!").utf8))
        }
        return inputs
    }

    /// A short description of the first probe input on which `regex` reaches a match limit, if any.
    public static func firstLimit(_ regex: Regex, pattern: String, examples: [String], keywords: [String], matcher: RegexMatcher) -> String? {
        for input in inputs(pattern: pattern, examples: examples, keywords: keywords) {
            let reached = input.withUnsafeBytes { bytes in
                do {
                    _ = try matcher.allMatches(regex, in: bytes)
                    return false
                } catch {
                    return true
                }
            }
            if reached { return describe(input) }
        }
        return nil
    }

    private static func describe(_ input: [UInt8]) -> String {
        let head = String(decoding: input.prefix(12), as: UTF8.self).unicodeScalars
            .map { $0.value < 0x20 || $0 == "\"" ? "?" : String($0) }.joined()
        return "\"\(head)…\" (\(input.count) bytes)"
    }
}
