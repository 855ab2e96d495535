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

    /// A payload with every required field has none missing; one without a field is missing
    /// exactly that one, whichever it is (the first, the last, any between).
    @Test func eachMissingRequiredFieldIsNamed() throws {
        let habit: [(String, String)] = [
            ("id", #""h1""#), ("name", #""Run""#), ("description", #""""#), ("color", ##""#E0C677""##), ("icon", #""local_drink""#),
            ("frequency", #""weekly""#), ("targetCount", "2"), ("category", #""mind""#), ("customDays", "[1,2]"),
            ("createdAt", #""2026-02-24T20:54:00.000Z""#), ("isActive", "true"), ("notificationEnabled", "false"), ("notificationTime", #""18:30""#),
        ]
        let entry: [(String, String)] = [
            ("id", #""e1""#), ("habitId", #""h1""#), ("date", #""2026-09-19""#), ("completed", "true"), ("count", "2"),
            ("timestamp", #""2026-09-19T07:12:00.000Z""#),
        ]
        func missing(_ fields: [(String, String)], _ check: (CapturedJSON.View, inout [ContractViolation]) -> Void) throws -> [String] {
            let text = "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            let tree = CapturedJSON(try JSONValue.parse(Array(text.utf8), maxDepth: 10))
            var violations: [ContractViolation] = []
            tree.withView { check($0, &violations) }
            return violations.filter { $0.check == .requiredField }.map(\.message)
        }
        for (fields, check) in [(habit, { PortableFields.checkHabit($0, screensNames: false, into: &$1) }),
                                (entry, { PortableFields.checkEntry($0, screensNames: false, into: &$1) })]
            as [([(String, String)], (CapturedJSON.View, inout [ContractViolation]) -> Void)] {
            #expect(try missing(fields, check).isEmpty)
            for i in fields.indices {
                var without = fields
                let (name, _) = without.remove(at: i)
                let messages = try missing(without, check)
                #expect(messages.count == 1 && messages[0].contains("lacks portable fields: \(name) ("), "without \(name)")
            }
        }
    }
}
