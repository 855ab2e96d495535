@testable import AuditDetection
@testable import AuditInputs
import Testing

@Suite struct PortableFieldsTests {
    /// The weekday test by digit answers as the integer reading does, for every JSON number of
    /// up to four characters (of those the reader takes; a longer one is never a lone digit).
    @Test func aWeekdayIsReadAsTheIntegerReadingReadsIt() throws {
        let alphabet = Array("0123456789-+.eE".utf8)
        var texts: [[UInt8]] = [[]]
        var numbers = 0
        for _ in 1...4 {
            texts = texts.flatMap { text in alphabet.map { text + [$0] } }
            for text in texts {
                guard case .number = (try? JSONValue.parse(text, maxDepth: 1))?.value else { continue }
                numbers += 1
                text.withUnsafeBufferPointer { number in
                    #expect(PortableFields.isWeekday(number) == (PortableFields.safeInteger(number).map((1...7).contains) == true),
                            "\(String(decoding: text, as: UTF8.self))")
                }
            }
        }
        #expect(numbers > 10_000)
    }
}
