@testable import AuditTriage
import Foundation
import Testing

/// Today's date for allowlist expiry is worked out by day arithmetic; it must say what a
/// `DateFormatter` in UTC says.
@Suite struct UTCDateTests {
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    static func expectAsFormatter(_ seconds: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        #expect(Triage.utcDate(secondsSince1970: seconds) == expected, "\(seconds) s", sourceLocation: sourceLocation)
    }

    /// Midnight and the second before it on leap days, century and era edges, and the epoch
    /// (from 1600: before 1582 a `DateFormatter` counts in the Julian calendar).
    @Test func daysAroundTheEdgesOfMonthsYearsAndEras() {
        let edges = [(1970, 1, 1), (1999, 12, 31), (2000, 2, 29), (2000, 3, 1), (2100, 2, 28), (2100, 3, 1), (2024, 2, 29),
                     (2026, 12, 4), (1900, 3, 1), (1600, 2, 29), (9999, 12, 31), (1969, 12, 31)]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (year, month, day) in edges {
            let midnight = Int(calendar.date(from: DateComponents(year: year, month: month, day: day))!.timeIntervalSince1970)
            for seconds in [midnight, midnight - 1, midnight + 86_399] { Self.expectAsFormatter(seconds) }
        }
    }

    /// Random moments from 1900 to 2200.
    @Test func randomMoments() {
        var generator = SeededGenerator(seed: 41)
        for _ in 0..<2_000 { Self.expectAsFormatter(Int.random(in: -2_208_988_800...7_258_118_400, using: &generator)) }
    }
}
