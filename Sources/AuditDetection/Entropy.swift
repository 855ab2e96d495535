/// Shannon entropy in bits per byte. Random base64 scores near 6, hex near 4, English near 4,
/// repeated characters near 0.
public func shannonEntropy(_ bytes: UnsafeRawBufferPointer) -> Double {
    guard bytes.count > 0 else { return 0 }
    // Counted on the stack: this runs for every candidate match of a rule with an entropy gate.
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
        counts.initialize(repeating: 0)
        for b in bytes { counts[Int(b)] += 1 }
        let n = Double(bytes.count)
        // A symbol's term depends on its count alone, and a token's symbols share a few counts
        // (most occur once or twice): each count's term is computed once, then summed in the same
        // order as ever, so the sum is the same to the bit (`log2` was 30 calls a bearer token).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: EntropyTerms.remembered) { terms in
            terms.initialize(repeating: .nan)
            var entropy = 0.0
            for c in counts where c > 0 {
                if c < EntropyTerms.remembered {
                    if terms[c].isNaN { terms[c] = EntropyTerms.term(count: c, of: n) }
                    entropy -= terms[c]
                } else {
                    entropy -= EntropyTerms.term(count: c, of: n)
                }
            }
            return entropy
        }
    }
}

/// One symbol's share of `shannonEntropy`: p log2 p for a symbol met `count` times in `n`.
enum EntropyTerms {
    /// Counts below this keep their term for the rest of the call.
    static let remembered = 16

    @inline(__always)
    static func term(count: Int, of n: Double) -> Double {
        let p = Double(count) / n
        return p * log2(p)
    }
}

public func shannonEntropy(_ text: String) -> Double {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { shannonEntropy(UnsafeRawBufferPointer($0)) }
}

/// Entropy thresholds calibrated to the character set a value draws from: a fixed threshold
/// treats a random hex string (at most 4 bits a character) like English, and a short random
/// base62 string (whose measured entropy is held down by its length) like a word.
public enum EntropyCalibration {
    /// The smallest alphabet a generator would have used for `text`: digits (10), hex (16),
    /// one letter case (26), letters and digits (62), base64 (64), else printable ASCII (95).
    public static func alphabetSize(_ text: UnsafeRawBufferPointer) -> Int {
        var digits = true, hex = true, oneCase = true, alphanumeric = true, base64 = true
        var lower = false, upper = false
        for b in text {
            let isDigit = b &- 0x30 < 10
            let isLower = b &- 0x61 < 26
            let isUpper = b &- 0x41 < 26
            lower = lower || isLower
            upper = upper || isUpper
            if !isDigit { digits = false }
            if !(isDigit || (b | 0x20) &- 0x61 < 6) { hex = false }
            if !(isLower || isUpper) { oneCase = false }
            if !(isDigit || isLower || isUpper) {
                alphanumeric = false
                if !"+/=-_".utf8.contains(b) { base64 = false }
            }
        }
        if digits { return 10 }
        if hex && !(lower && upper) { return 16 }
        if oneCase && !(lower && upper) { return 26 }
        if alphanumeric { return 62 }
        return base64 ? 64 : 95
    }

    /// The Shannon entropy that `length` characters drawn uniformly from `alphabet` measure, on
    /// average: log2 of the alphabet less the small-sample bias (k − 1) / (2n ln 2), and never
    /// more than log2 n (n characters cannot show more than n distinct symbols).
    public static func expectedEntropy(length: Int, alphabet: Int) -> Double {
        guard length > 1 else { return 0 }
        let n = Double(length), k = Double(alphabet)
        return min(log2(k) - (k - 1) / (2 * n * log(2)), log2(n))
    }

    /// Whether `text` measures at least `fraction` of the entropy a random string of its length
    /// and character set would.
    public static func looksRandom(_ text: UnsafeRawBufferPointer, fraction: Double = 0.85) -> Bool {
        let expected = expectedEntropy(length: text.count, alphabet: alphabetSize(text))
        return expected > 0 && shannonEntropy(text) >= fraction * expected
    }

    public static func looksRandom(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { looksRandom(UnsafeRawBufferPointer($0)) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
