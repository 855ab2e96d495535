
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import AuditCore
@testable import AuditDetection
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan

/// Hostile structure in prefs XML (issue 18): each shape is read and scanned in time linear in
/// its size. Before, the duplicate-attribute check compared every attribute name with every
/// earlier one: 80,000 attributes took 8 s in a release build, a million did not finish in a
/// minute. The bounds are generous, for a debug build on a shared machine.
@Suite struct PrefsXMLHostileTests {
    /// Fake, format-valid: `ghp_` and 36 base62 characters.
    private static let token = "ghp_" + "Zq8R2mWv7LkP4xT9nB3cD6fH1jS5gA0yE2uK"

    private struct Ignore: PrefsXMLVisitor {
        mutating func entry(_ entry: PrefsEntry) {}
        mutating func part(_ part: PrefsEntryPart) {}
        mutating func endEntry() {}
        mutating func markup(_ markup: PrefsMarkup) {}
    }

    /// The reader's error, or nil when the document reads.
    private static func readError(_ bytes: [UInt8]) -> PrefsXMLError? {
        bytes.withUnsafeBytes { buffer in
            var reader = PrefsXMLReader(buffer)
            var ignore = Ignore()
            do {
                try reader.read(&ignore)
                return nil
            } catch {
                return error as? PrefsXMLError ?? PrefsXMLError(.unexpectedText, at: -1)
            }
        }
    }

    private static func scan(_ bytes: [UInt8]) -> (findings: [Finding], errors: [InputError], inventory: [InventoryEntry]) {
        TestSupport.scan(bytes: bytes, name: "FlutterSharedPreferences.xml")
    }

    /// `<map><string name="k" a0="" a1="" …` with `count` attributes, then `tail` and the end.
    private static func manyAttributes(_ count: Int, tail: String) -> [UInt8] {
        var bytes = Array("<map><string name=\"k\"".utf8)
        bytes.reserveCapacity(12 * count + 64)
        for i in 0..<count { bytes += " a\(i)=\"\"".utf8 }
        bytes += "\(tail)>v</string></map>".utf8
        return bytes
    }

    @Test func twoHundredThousandAttributesAreCheckedInLinearTime() throws {
        let clean = Self.manyAttributes(200_000, tail: "")
        #expect(TestSupport.withinSeconds(5) { Self.readError(clean) } == nil)
        // A duplicate of the first at the very end is still found, at its own offset.
        let duplicate = Self.manyAttributes(200_000, tail: " a0=\"x\"")
        let error = try #require(TestSupport.withinSeconds(5) { Self.readError(duplicate) })
        #expect(error.reason == .duplicateAttribute)
        #expect(error.offset == duplicate.count - " a0=\"x\">v</string></map>".utf8.count + 1)
    }

    /// Past the first few names the check runs when the tag ends or breaks off: the error is the
    /// one in document order, as when each name was checked as it came. A duplicate before a
    /// broken attribute is the error; a broken attribute before a duplicate is.
    @Test func theFirstErrorOfATagIsReportedWhicheverKind() throws {
        let names = (0..<20).map { " a\($0)=\"\"" }.joined()
        for (tail, expected) in [(" a3=\"\" b c=\"\"", PrefsXMLReason?.some(.duplicateAttribute)), (" b c=\"\" a3=\"\"", .expectedEquals),
                                 (" a3=\"\" d=\"&bad;\"", .duplicateAttribute), (" d=\"&bad;\" a3=\"\"", nil)] {
            let text = Array("<map><string name=\"k\"\(names)\(tail)>v</string></map>".utf8)
            let error = try #require(Self.readError(text), "\(tail)")
            if let expected {
                #expect(error.reason == expected, "\(tail)")
            } else {
                #expect(error.reason != PrefsXMLReason.duplicateAttribute, "\(tail)")
            }
            if error.reason == PrefsXMLReason.duplicateAttribute {
                #expect(error.offset == text.count - "\(tail)>v</string></map>".utf8.count + 1, "\(tail)")
            }
        }
    }

    @Test func aTokenInTheLastOfManyAttributesIsFound() throws {
        let bytes = Self.manyAttributes(100_000, tail: " last=\"\(Self.token)\"")
        let outcome = TestSupport.withinSeconds(20) { Self.scan(bytes) }
        #expect(outcome.errors.isEmpty)
        let finding = try #require(outcome.findings.first { $0.ruleId == "secret.github-token" })
        #expect(finding.pathText == "/k/@last")
        #expect(finding.position.byteOffset == bytes.count - "\(Self.token)\">v</string></map>".utf8.count)
    }

    @Test func manyEntriesCommentsReferencesAndElementsAreReadInLinearTime() {
        let entries = "<map>" + String(repeating: "<boolean name=\"b\" value=\"true\"/><!-- c -->", count: 200_000) + "</map>"
        let comment = "<!-- " + String(repeating: "a-", count: 5_000_000) + "a --><map/>"
        let references = "<map><string name=\"r\">" + String(repeating: "&#10;&#x1F600;&amp;", count: 300_000) + "</string></map>"
        let siblings = "<map><list name=\"l\">" + String(repeating: "<a b=\"1\">x</a>", count: 200_000) + "</list></map>"
        let nested = "<map><list name=\"l\">" + String(repeating: String(repeating: "<a>", count: 250) + String(repeating: "</a>", count: 250), count: 400) + "</list></map>"
        for (name, text) in [("entries", entries), ("comment", comment), ("references", references), ("siblings", siblings), ("nested", nested)] {
            #expect(TestSupport.withinSeconds(10) { Self.readError(Array(text.utf8)) } == nil, "\(name)")
        }
    }

    /// Every entry's scalar value comes before a name that is a secret: hits are still recorded in
    /// document order, so positions never make the scan count lines again from the start.
    @Test func secretNamesAfterTheirValuesAreScannedInLinearTime() {
        let count = 20_000
        var text = "<map>\n"
        for _ in 0..<count { text += "<int value=\"1\" name=\"\(Self.token)\" />\n" }
        text += "</map>\n"
        let outcome = TestSupport.withinSeconds(20) { Self.scan(Array(text.utf8)) }
        #expect(outcome.errors.isEmpty)
        let tokens = outcome.findings.filter { $0.ruleId == "secret.github-token" }
        #expect(tokens.count == count)
        #expect(tokens.last.map { [$0.position.line, $0.position.column] } == [count + 1, 22])
        #expect(tokens.allSatisfy { $0.pathText == "/[REDACTED]/@name" })
    }

    // MARK: Memory

    /// A scan of `text` from a file through a 64 KiB window; the window, for its capacity.
    private static func scanStreamed(_ text: String) throws -> (findings: [Finding], errors: [InputError], window: ByteWindow) {
        let url = TestSupport.temporaryDirectory().appendingPathComponent("FlutterSharedPreferences.xml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let window = ByteWindow(descriptor: open(url.path, O_RDONLY), expectedSize: text.utf8.count, chunkSize: 64 * 1024)
        let outcome = Scanner(rules: TestSupport.builtinPack).scan(window, name: "FlutterSharedPreferences.xml", rules: TestSupport.builtinPack, matcher: RegexMatcher())
        return (outcome.findings, outcome.errors, window)
    }

    /// One entry of megabytes (members, elements with attributes, comments) goes through a
    /// window of a few chunks: each part is handed as it is read and none is kept (issue 18).
    /// Before, the window kept the whole entry and the reader a record per part, 200 bytes an
    /// attribute. A token in the last part is still found, at its own line.
    @Test(arguments: [
        ("set", "<set name=\"s\">", "<string>m</string>\n", "</set>", "<string>TOKEN</string>", "/s/100000"),
        ("list", "<list name=\"l\">", "<string a=\"1\">x</string>\n", "</list>", "<string>TOKEN</string>", "/l/100000"),
        ("attributes of a list", "<list name=\"l\">", "<int value=\"1\" />\n", "</list>", "<int value=\"TOKEN\" />", "/l/#element/100000/@value"),
        ("comments in a set", "<set name=\"s\">", "<!-- c -->\n", "</set>", "<!-- TOKEN -->", "/s/#comment/100000"),
        ("comments in an int", "<int name=\"i\" value=\"1\">", "<!-- c -->\n", "</int>", "<!-- TOKEN -->", "/i/#comment/100000"),
    ] as [(String, String, String, String, String, String)])
    func aLargeEntryGoesThroughASmallWindow(_ shape: String, _ open: String, _ part: String, _ close: String, _ last: String, _ path: String) throws {
        let lastPart = last.replacingOccurrences(of: "TOKEN", with: Self.token)
        let text = "<map>\n" + open + "\n" + String(repeating: part, count: 100_000) + lastPart + "\n" + close + "\n</map>\n"
        let outcome = try TestSupport.withinSeconds(30) { try Self.scanStreamed(text) }
        #expect(outcome.errors.isEmpty, "\(shape)")
        let finding = try #require(outcome.findings.first { $0.ruleId == "secret.github-token" }, "\(shape)")
        #expect(finding.pathText == path, "\(shape)")
        #expect(finding.position.line == 100_003, "\(shape)")
        #expect(text.utf8.count > 1_000_000 && outcome.window.capacityForTests <= 256 * 1024, "\(shape)")
    }

    /// The duplicate check keeps a note of 16 bytes per name (its array up to twice as large as
    /// it holds) and splits them into a copy: 32 to 48 bytes a name however long its value, freed
    /// after a large tag.
    @Test func theDuplicateCheckCostsABoundedAmountPerName() {
        let count = 50_000
        var bytes: [UInt8] = []
        var names: [(Int, Int)] = []
        for i in 0..<count {
            bytes += " ".utf8
            let start = bytes.count
            bytes += "a\(i)".utf8
            names.append((start, bytes.count))
            bytes += "=\"\(String(repeating: "v", count: 100))\"".utf8
        }
        var set = AttributeNameSet()
        bytes.withUnsafeBufferPointer { buffer in
            let origin = buffer.baseAddress!
            #expect(names.allSatisfy { set.insert($0.0, $0.1, in: origin) })
            #expect(set.firstDuplicate(in: origin) == nil)
            _ = set.insert(names[count / 2].0, names[count / 2].1, in: origin)
            #expect(set.firstDuplicate(in: origin) == names[count / 2].0)
        }
        #expect(set.capacityForTests <= 48 * (count + 1) && set.capacityForTests >= 32 * count)
        set.removeAll()
        #expect(set.capacityForTests <= 1024)
    }
}
