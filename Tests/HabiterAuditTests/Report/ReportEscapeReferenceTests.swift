@testable import AuditCore
@testable import AuditReport
import Testing

/// The reports' escapers, which read bytes where they can, held to plain versions that read a
/// scalar at a time (as they did before), on random text of the pieces that need care: every
/// character they escape, multi-byte characters around and inside the escaped ranges, and plain
/// runs of every length. A failure names the text through the reference `DisplayText` (the
/// texts hold terminal escapes), never as it is.
@Suite struct ReportEscapeReferenceTests {
    static let pieces = ["plain", "a", " ", "%", "\r", "\n", "\t", ":", ",", "&", "<", ">", "\"", "'", "\\", "\u{0}", "\u{1B}[8m",
                         "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{61C}", "\u{61D}", "\u{200D}", "\u{200E}", "\u{200F}",
                         "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}",
                         "\u{206A}", "日本", "🔑", "ghp_…, 40 characters", "0123456789abcdef"]

    /// Made once for every test of the suite.
    static let texts: [String] = {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        return [""] + pieces + (0..<3000).map { _ in (0..<next(7)).map { _ in pieces[next(pieces.count)] }.joined() }
    }()

    /// `DisplayText.escaped` a scalar at a time, into a string.
    static func displayReference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if DisplayText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `HTMLReport.escape` a scalar at a time, into a string.
    static func htmlReference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09, 0x0A: out.unicodeScalars.append(scalar)
            case _ where DisplayText.needsEscape(scalar): out += displayReference(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// GitHub's percent-encoding a scalar at a time, `also` encoded besides `%`, CR and LF.
    static func percentReference(_ text: String, also: Set<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "\r" || scalar == "\n" || also.contains(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += hex.count < 2 ? "%0" + hex : "%" + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The byte check the three escapers share, against `String.UTF8View`'s.
    @Test func utf8AllSatisfyAsTheView() {
        let checks: [(UInt8) -> Bool] = [{ $0 >= 0x20 && $0 < 0x7F }, HTMLReport.isPlain, { $0 != UInt8(ascii: "%") }]
        for text in Self.texts + [String(Self.texts.joined().dropFirst(3))] {
            for check in checks { #expect(text.utf8AllSatisfy(check) == text.utf8.allSatisfy(check)) }
        }
    }

    @Test func displayTextEscapesAsTheReference() {
        for text in Self.texts {
            let same = DisplayText.escaped(text) == Self.displayReference(text)
            #expect(same, "\(Self.displayReference(text))")
        }
    }

    @Test func htmlEscapesAsTheReference() {
        for text in Self.texts {
            let expected = Self.htmlReference(text)
            let escaped = HTMLReport.escape(text) == expected
            #expect(escaped, "\(Self.displayReference(text))")
            var bytes: [UInt8] = Array("<p>".utf8)
            HTMLReport.appendEscaped(text, to: &bytes)
            let appended = String(decoding: bytes, as: UTF8.self) == "<p>" + expected
            #expect(appended, "\(Self.displayReference(text))")
        }
    }

    @Test func githubPercentEncodesAsTheReference() {
        for text in Self.texts {
            let data = GitHubReport.escapeData(text) == Self.percentReference(text, also: [])
            #expect(data, "\(Self.displayReference(text))")
            let property = GitHubReport.escapeProperty(text) == Self.percentReference(text, also: [":", ","])
            #expect(property, "\(Self.displayReference(text))")
        }
    }
}
