/// Splits key names into lowercase words, so that rules match every spelling of a name:
/// `refreshToken`, `refresh_token`, `REFRESH-TOKEN`, `refresh.token` and `Refresh Token` all give
/// ["refresh", "token"]; `APIKey` gives ["api", "key"]. Digits stay with the preceding letters.
public enum KeyWords {
    public static func split(_ key: String) -> [String] {
        var bytes = Array(key.utf8)
        return bytes.withUnsafeMutableBufferPointer { split(UnsafeBufferPointer($0)) }
    }

    public static func split(_ key: UnsafeBufferPointer<UInt8>) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        let n = key.count
        for i in 0..<n {
            let b = key[i]
            let isUpper = b >= 0x41 && b <= 0x5A
            let isLower = b >= 0x61 && b <= 0x7A
            let isDigit = b >= 0x30 && b <= 0x39
            guard isUpper || isLower || isDigit || b >= 0x80 else {
                flush()
                continue
            }
            if isUpper && !current.isEmpty {
                // fooBar -> foo|Bar; APIKey -> API|Key (the last capital starts the next word).
                let previous = key[i - 1]
                let previousIsLowerOrDigit = (previous >= 0x61 && previous <= 0x7A) || (previous >= 0x30 && previous <= 0x39)
                let previousIsUpper = previous >= 0x41 && previous <= 0x5A
                let nextIsLower = i + 1 < n && key[i + 1] >= 0x61 && key[i + 1] <= 0x7A
                if previousIsLowerOrDigit || (previousIsUpper && nextIsLower) { flush() }
            }
            current.append(isUpper ? b | 0x20 : b)
        }
        flush()
        return words
    }
}
