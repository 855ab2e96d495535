import AuditRules

/// Decides whether a value under a sensitive-looking name is credible secret material.
///
/// Not credible: placeholders and status words; labels and prompts (text that repeats a word of
/// its key, like `"confirmPassword": "Confirm"`, or prose of five words or more, or a sentence);
/// bare URLs without credentials; references (`arn:…`); dates, times and file paths; tokens that
/// their vendors publish (Mapbox `pk.…`, Stripe `pk_live_…`); and, for generated
/// secrets, anything shorter than eight characters or made of one character class. Empty,
/// boolean, numeric and null values are never credible; in `sync` context they are still policy
/// findings, because the contract fails closed on the name alone.
public enum ValueCredibility {
    public static let minimumLength = 4
    public static let minimumGeneratedLength = 8
    /// `Authorization` schemes, lowercase: a generated secret is judged without one in front.
    private static let authorizationSchemes: [StaticString] = ["bearer ", "basic ", "token ", "digest "]

    /// `keyWords` are the words of the key (and the matched name), lowercased.
    public static func isCredible(_ value: String, keyWords: [String], shape: ValueShape) -> Bool {
        var value = value
        return value.withUTF8 { isCredible($0, keyWords: keyWords, shape: shape) }
    }

    /// The same, on UTF-8 bytes: a placeholder is ruled out before any `String` is made, and
    /// ASCII (where lowercasing and counting are bytewise) is judged on its bytes.
    public static func isCredible(_ value: UnsafeBufferPointer<UInt8>, keyWords: [String], shape: ValueShape) -> Bool {
        if Placeholders.isPlaceholder(value) { return false }
        var start = 0, end = value.count
        while start < end && isASCIIWhitespace(value[start]) { start += 1 }
        while end > start && isASCIIWhitespace(value[end - 1]) { end -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: value[start..<end])
        guard trimmed.allSatisfy({ $0 < 0x80 }) else { return isCredible(text: String(decoding: trimmed, as: UTF8.self), keyWords: keyWords, shape: shape) }
        if trimmed.count < minimumLength { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { buffer in
            for (i, b) in trimmed.enumerated() { buffer[i] = b &- 0x41 < 26 ? b | 0x20 : b }
            let lower = UnsafeBufferPointer(buffer)
            // A word that is not ASCII can still equal ASCII text (canonical equivalence).
            if keyWords.contains(where: { $0.utf8.allSatisfy { $0 < 0x80 } ? $0.utf8.elementsEqual(lower) : $0 == String(decoding: lower, as: UTF8.self) }) {
                return false
            }
            let words = wordCount(lower)
            if words > 1 {
                // A word that is not ASCII is not in ASCII text: its bytes stand for its length.
                if keyWords.contains(where: { $0.utf8.count >= 3 && lower.containsBytes($0) }) { return false }
                if words >= 5 { return false }
                if let last = lower.last, ".?!:".utf8.contains(last), words >= 3 { return false }
                if lower.last == UInt8(ascii: "?") { return false }
            }
            if (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !lower.contains(UInt8(ascii: "@")) && !lower.contains(UInt8(ascii: "?")) {
                return false
            }
            if lower.hasPrefix("arn:") { return false }
            let text = String(decoding: trimmed, as: UTF8.self)
            if SafeShapes.isDateOrTime(text) || SafeShapes.isFilePath(text) || SafeShapes.isPublicToken(text) { return false }
            if shape == .session && SafeShapes.isIdentifier(trimmed) { return false }
            if shape == .generated || shape == .session {
                var material = trimmed
                for scheme in authorizationSchemes where lower.hasPrefix(scheme) {
                    material = UnsafeBufferPointer(rebasing: material[(material.startIndex + scheme.utf8CodeUnitCount)...])
                }
                return looksGenerated(material)
            }
            return true
        }
    }

    /// The judgement of trimmed text that is not all ASCII, where lowercasing and counting need
    /// Unicode.
    private static func isCredible(text trimmed: String, keyWords: [String], shape: ValueShape) -> Bool {
        // Counting scalars only when the bytes could be too few (a scalar is at most 4 bytes).
        if trimmed.utf8.count < 4 * minimumLength && trimmed.unicodeScalars.count < minimumLength { return false }
        let lower = trimmed.lowercased()
        if keyWords.contains(lower) { return false }
        let words = wordCount(lower)
        if words > 1 {
            // A label or prompt: prose that names what it asks for, a long phrase, a sentence.
            if keyWords.contains(where: { $0.count >= 3 && lower.containsText($0) }) { return false }
            if words >= 5 { return false }
            if let last = lower.utf8.last, ".?!:".utf8.contains(last), words >= 3 { return false }
            // A question is a label in any language ("Passwort vergessen?").
            if lower.hasSuffix("?") { return false }
        }
        if (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !lower.containsText("@") && !lower.containsText("?") {
            return false
        }
        if lower.hasPrefix("arn:") || SafeShapes.isDateOrTime(trimmed) || SafeShapes.isFilePath(trimmed) { return false }
        if SafeShapes.isPublicToken(trimmed) { return false }
        if shape == .generated {
            var material = Substring(trimmed)
            for scheme in authorizationSchemes where lower.hasPrefix("\(scheme)") {
                material = material.dropFirst(scheme.utf8CodeUnitCount)
            }
            return looksGenerated(material)
        }
        return true
    }

    private static func isASCIIWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The number of space-separated words (runs of spaces count as one separator).
    private static func wordCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { wordCount($0) }
    }

    private static func wordCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var inWord = false
        for b in bytes {
            if b == UInt8(ascii: " ") {
                inWord = false
            } else if !inWord {
                inWord = true
                count += 1
            }
        }
        return count
    }

    /// At least eight characters, no spaces, and two character classes (or, in one class, long
    /// and as varied as a random string of that character set).
    static func looksGenerated(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8 { looksGenerated($0) }
    }

    static func looksGenerated(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var count = 0
        var classes: UInt8 = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: " "): return false
            case UInt8(ascii: "a")...UInt8(ascii: "z"): classes |= 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): classes |= 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"): classes |= 4
            default: classes |= 8
            }
            if b & 0xC0 != 0x80 { count += 1 }
        }
        if count < minimumGeneratedLength { return false }
        if classes.nonzeroBitCount >= 2 { return true }
        return count >= 20 && EntropyCalibration.looksRandom(String(decoding: bytes, as: UTF8.self))
    }
}
