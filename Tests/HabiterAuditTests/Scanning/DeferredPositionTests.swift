@testable import AuditCore
@testable import AuditInputs
@testable import AuditRules
@testable import AuditScan
import Foundation
import Testing

/// Positions asked for that may never be needed (`ByteWindow.deferPosition(of:)`), counted
/// when asked for or when the line cursor passes them: the same as counted from the start of
/// the text, however far the window has slid. A contract violation is reported where its
/// member was read, though its position is counted only once the violation is found.
@Suite struct DeferredPositionTests {
    typealias S = ContractSamples

    /// Through a window of 64-byte chunks, each read dropping what lies before the reader:
    /// positions deferred, some asked for on the way (as a hit's are: the cursor moves on),
    /// some given back (as a closing object gives its tickets back), and the rest asked for at
    /// the end, long after their bytes were dropped.
    @Test func aDeferredPositionIsCountedBeforeItsBytesAreDropped() {
        // Lines of characters of one to four bytes, ended by LF, CRLF or a lone CR.
        var text = ""
        for i in 0..<400 { text += "line \(i): Übung ✨ 𝄞 " + String(repeating: "x", count: i % 50) + ["\n", "\r\n", "\r"][i % 3] }
        let bytes = Array(text.utf8)
        let window = ByteWindow(source: ArraySource(bytes), chunkSize: 64)
        var tickets: [(ticket: Int, offset: Int)] = []
        var offset = 0
        var step = 0
        while window.ensure(offset, keeping: offset) {
            switch step % 7 {
            case 0, 3: tickets.append((window.deferPosition(of: offset), offset))
            case 5: _ = window.position(of: offset)
            case 6 where tickets.count > 2: window.releaseDeferred(from: tickets.removeLast().ticket)
            default: break
            }
            step += 1
            offset += 1 + step % 41
        }
        #expect(offset >= bytes.count && tickets.count > 100)
        #expect(window.capacityForTests < 1024, "the window slid")
        for (ticket, offset) in tickets {
            let counted = bytes.withUnsafeBytes { ByteWindow.position(of: offset, in: $0) }
            #expect(window.deferredPosition(ticket) == counted, "offset \(offset)")
        }
    }

    /// Operations with a violation at each member whose position a draft keeps, between clean
    /// ones whose text has characters of two, three and four bytes (columns count characters,
    /// and the entity's id no longer matches its payload's: a violation of each).
    static let operations: [String] = {
        let clean = S.operation(S.document("entry/h1/2026-01-04", payload: S.entryPayload(habitId: "h1", date: "2026-01-04")))
        let wide = clean.replacingOccurrences(of: #""habitId": "h1""#, with: #""habitId": "Übung macht den Meister ✨ 𝄞""#)
        let broken = [
            clean.replacingOccurrences(of: #""kind": "create""#, with: #""kind": "update""#),
            clean.replacingOccurrences(of: #""protocolVersion": 1"#, with: #""protocolVersion": 9"#),
            clean.replacingOccurrences(of: "operation/\(S.deviceId)/1", with: "operation/\(S.deviceId)/2"),
            clean.replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": 7"#),
            clean.replacingOccurrences(of: #""entityId": "entry/h1/2026-01-04", "#, with: ""),
        ]
        // Past the 64 KiB the format is told from, which the window reads at once.
        return Array(repeating: broken.flatMap { [wide, $0, clean] }, count: 20).flatMap { $0 }
    }()

    /// The contract findings of `text` scanned through a window of `chunkSize` bytes read from
    /// a file, or over the whole text.
    static func violations(_ text: String, name: String, chunkSize: Int?) throws -> [Finding] {
        let findings: [Finding]
        if let chunkSize {
            let url = TestSupport.temporaryDirectory().appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            let window = ByteWindow(descriptor: open(url.path, O_RDONLY), expectedSize: text.utf8.count, chunkSize: chunkSize)
            let outcome = Scanner(rules: TestSupport.builtinPack).scan(window, name: name, rules: TestSupport.builtinPack, matcher: RegexMatcher())
            #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.description))")
            findings = outcome.findings
        } else {
            let outcome = TestSupport.scan(text, name: name)
            #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.description))")
            findings = outcome.findings
        }
        return findings.filter { $0.ruleId.hasPrefix("contract.") }
    }

    @Test(arguments: [
        ("ops.ndjson", operations.joined(separator: "\n") + "\n"),
        ("crlf.ndjson", operations.joined(separator: "\r\n") + "\r\n"),
        // One push body: its own draft stays open while the window slides over every operation.
        ("push.json", "{\"operations\": [\n  " + operations.joined(separator: ",\n  ") + "\n]}\n"),
    ])
    func violationsAreWhereTheirMembersWereRead(_ name: String, _ text: String) throws {
        let whole = try Self.violations(text, name: name, chunkSize: nil)
        let windowed = try Self.violations(text, name: name, chunkSize: 64)
        #expect(whole.count >= 100, "\(whole.map(\.ruleId))")
        #expect(windowed.map(\.ruleId) == whole.map(\.ruleId))
        #expect(windowed.map(\.position) == whole.map(\.position))
        let bytes = Array(text.utf8)
        for finding in whole {
            let counted = bytes.withUnsafeBytes { ByteWindow.position(of: finding.position.byteOffset, in: $0) }
            #expect(finding.position == counted, "\(finding.ruleId) \(finding.message)")
        }
    }
}
