/// The app's own sensitive-name rule, as the setting registry, the operation and document
/// checks, the replica's register names, the backup exporter and the server's sync-core all
/// apply it: a case-insensitive *substring* test for `token`, `secret`, `password`,
/// `credential`, or `api`, at most one character, `key`. A name it matches is rejected by the
/// app, so at the contract boundaries it is a violation whatever our word-based name rules say
/// (`tokenizer`, `secretary` and `apiXkey` are the app's, not ours).
public enum AppSensitiveName {
    private static let words: [[UInt8]] = ["token", "secret", "password", "credential"].map { Array($0.utf8) }
    /// Made once: an array literal here was allocated at every `a` of every name.
    private static let api = Array("api".utf8), key = Array("key".utf8)

    public static func matches(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { matches($0) }
    }

    public static func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        func lower(_ i: Int) -> UInt8 { name[i] | (name[i] &- 0x41 < 26 ? 0x20 : 0) }
        func occurs(_ word: [UInt8], at i: Int) -> Bool {
            guard i + word.count <= count else { return false }
            for j in 0..<word.count where lower(i + j) != word[j] { return false }
            return true
        }
        for i in 0..<count {
            switch lower(i) {
            case UInt8(ascii: "t"): if occurs(words[0], at: i) { return true }
            case UInt8(ascii: "s"): if occurs(words[1], at: i) { return true }
            case UInt8(ascii: "p"): if occurs(words[2], at: i) { return true }
            case UInt8(ascii: "c"): if occurs(words[3], at: i) { return true }
            case UInt8(ascii: "a"):
                // `api`, then `key` right after it or after one arbitrary character (the
                // regex's `.` is one UTF-16 unit in the app; one byte or one scalar here).
                guard occurs(api, at: i) else { continue }
                if occurs(key, at: i + 3) { return true }
                if i + 3 < count {
                    let next = i + 3 + scalarLength(name[i + 3])
                    if occurs(key, at: next) { return true }
                }
            default: continue
            }
        }
        return false
    }

    /// The length of the UTF-8 sequence a lead byte starts.
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
