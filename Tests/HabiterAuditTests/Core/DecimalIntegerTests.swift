@testable import AuditBytes
import Testing

/// `decimalInteger` reads bytes as `Int(String)` reads the same text, which the contract checks
/// used before.
@Suite struct DecimalIntegerTests {
    static let edges = ["", "-", "+", "0", "-0", "+0", "00", "007", "12", "-12", "+12", "1.0", "1e5", "12a", " 1", "1 ", "--1",
                        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                        "99999999999999999999", "9007199254740993", "\u{665}", "１"]

    static func read(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { $0.decimalInteger }
    }

    @Test(arguments: edges)
    func readsAsIntDoes(_ text: String) {
        #expect(Self.read(text) == Int(text), "\(text)")
    }

    /// Random texts of digits, signs and other bytes.
    @Test func agreesWithIntOnRandomTexts() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-+.e ".utf8)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...21, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(Self.read(text) == Int(text), "\(text)")
        }
    }
}
