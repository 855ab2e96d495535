@testable import AuditDetection
import Testing

/// `AppSensitiveName.matches` reads a name eight bytes at a time; these hold it to the rule
/// searched byte by byte (the app's regex, `token|secret|password|credential|api.?key` without
/// case, with `.` one scalar), on names built from the rule's words, their near misses, capitals,
/// separators and bytes beyond ASCII, at every length and place.
@Suite struct AppSensitiveNameTests {
    /// The rule, one byte at a time: the plain version the word-at-a-time one must agree with.
    static func plainMatches(_ name: [UInt8]) -> Bool {
        func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }
        func occurs(_ word: String, at i: Int) -> Bool {
            let word = Array(word.utf8)
            guard i >= 0, i + word.count <= name.count else { return false }
            return word.indices.allSatisfy { lower(name[i + $0]) == word[$0] }
        }
        for i in name.indices {
            if ["token", "secret", "password", "credential"].contains(where: { occurs($0, at: i) }) { return true }
            guard occurs("api", at: i) else { continue }
            if occurs("key", at: i + 3) { return true }
            if i + 3 < name.count {
                let lead = name[i + 3]
                let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                if occurs("key", at: i + 3 + length) { return true }
            }
        }
        return false
    }

    static let pieces = ["token", "toke", "oken", "TOKEN", "Secret", "secre", "password", "passwor", "PassWord",
                         "credential", "credentia", "CREDENTIAL", "api", "API", "key", "KEY", "ke", "apikey", "api_key",
                         "api\u{e9}key", "api\u{1F511}key", "apiXYkey", "t", "s", "p", "c", "a", "_", ".", "-", "x", "habiter",
                         "flutter.", "\u{e9}", "\u{C4}", "\u{0}", "0", "9", "notification"]

    @Test func agreesWithTheRuleSearchedByteByByte() {
        var generator = SeededGenerator(seed: 0xA9_5E5E)
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBufferPointer { AppSensitiveName.matches($0) } == Self.plainMatches(bytes), "\(name.debugDescription)")
        }
    }

    /// A word at every place of a name of every length up to 82, with the bytes before and after
    /// it letters, so that it lies anywhere within and across the eight-byte words.
    @Test func findsEachWordAtEveryPlace() {
        for word in ["token", "SECRET", "password", "Credential", "apikey", "api-KEY", "api\u{e9}key"] {
            for before in 0...64 {
                for after in [0, 1, 7, 8] {
                    let name = String(repeating: "b", count: before) + word + String(repeating: "q", count: after)
                    #expect(AppSensitiveName.matches(name), "\(name)")
                    // The word cut short by one byte, at the end of the name: no match.
                    let cut = Array((String(repeating: "b", count: before) + word).utf8.dropLast())
                    #expect(cut.withUnsafeBufferPointer { AppSensitiveName.matches($0) } == Self.plainMatches(cut), "\(cut)")
                }
            }
        }
    }
}
