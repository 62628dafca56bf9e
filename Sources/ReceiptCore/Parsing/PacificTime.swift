/// US Pacific time (America/Los_Angeles) by the US federal daylight-saving rules, which is what
/// Apple's `_pst` fields show: written out here so the answer does not depend on the tz database
/// a server has installed, and checked against Foundation's `TimeZone` in the tests
/// (ReceiptOutputTests' `AppleDateTests`).
///
/// - since 2007: daylight time from the second Sunday of March, 02:00 PST, to the first Sunday of
///   November, 02:00 PDT;
/// - 1987–2006: from the first Sunday of April to the last Sunday of October (no App Store receipt
///   is older than 2008; earlier instants use this rule too).
///
/// In ReceiptCore, beside the calendar arithmetic of ``RFC3339`` it uses: ReceiptOutput's date
/// writer calls it once a date, where from there each calendar conversion was a call across the
/// module boundary (374 instructions a date, 5 % of a 187-purchase `verifyReceipt`'s; Benchmarks/
/// RESULTS.md, session 21).
///
/// The daylight-time spans of 2000–2099 are worked out once, into a table; an instant of those
/// years looks its year's span up (the year estimated from the seconds: a day off at most, around
/// New Year, when neither rule is in daylight time), other instants take the rule itself.
/// `PacificTimeTests` holds the two equal.
package enum PacificTime {
    /// The first year of ``daylightSpans``.
    static let firstTableYear = 2000
    /// 2000-01-01T00:00:00Z.
    static let firstTableSecond: Int64 = 946_684_800
    /// The mean Gregorian year in seconds.
    static let meanYear: Int64 = 31_556_952

    /// Each year's daylight time, from its start (inclusive) to its end (exclusive), in seconds
    /// since 1970: 2000 first, 100 years.
    static let daylightSpans: [(starts: Int64, ends: Int64)] = (firstTableYear..<firstTableYear + 100).map(daylightSpan(year:))

    /// Seconds to add to UTC: −25,200 (PDT) or −28,800 (PST).
    package static func offset(atUnixSeconds seconds: Int64) -> Int64 {
        if seconds >= firstTableSecond {
            let index = Int((seconds - firstTableSecond) / meanYear)
            let spans = daylightSpans
            if index < spans.count {
                let span = spans[index]
                return seconds >= span.starts && seconds < span.ends ? -7 * 3600 : -8 * 3600
            }
        }
        return ruleOffset(atUnixSeconds: seconds)
    }

    /// ``offset(atUnixSeconds:)`` by the rule itself, for any instant.
    static func ruleOffset(atUnixSeconds seconds: Int64) -> Int64 {
        let standard: Int64 = -8 * 3600
        let local = seconds + standard
        let (year, _, _) = RFC3339.civilDate(daysSinceEpoch: Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400))
        let span = daylightSpan(year: year)
        return seconds >= span.starts && seconds < span.ends ? -7 * 3600 : standard
    }

    /// The daylight time of `year` (whose local year it is), in seconds since 1970.
    static func daylightSpan(year: Int) -> (starts: Int64, ends: Int64) {
        let start: Int64
        let end: Int64
        if year >= 2007 {
            start = nthSunday(2, month: 3, year: year)
            end = nthSunday(1, month: 11, year: year)
        } else {
            start = nthSunday(1, month: 4, year: year)
            end = lastSunday(month: 10, year: year)
        }
        // 02:00 local: 10:00 UTC in standard time (start), 09:00 UTC in daylight time (end).
        return (start * 86_400 + 10 * 3600, end * 86_400 + 9 * 3600)
    }

    /// The day (since 1970) of the n-th Sunday of a month.
    private static func nthSunday(_ n: Int64, month: Int, year: Int) -> Int64 {
        let first = Int64(RFC3339.daysSinceEpoch(year: year, month: month, day: 1))
        let firstSunday = first + (7 - weekday(first)) % 7
        return firstSunday + (n - 1) * 7
    }

    /// The day (since 1970) of the last Sunday of a month.
    private static func lastSunday(month: Int, year: Int) -> Int64 {
        let nextMonth = month == 12
            ? RFC3339.daysSinceEpoch(year: year + 1, month: 1, day: 1) : RFC3339.daysSinceEpoch(year: year, month: month + 1, day: 1)
        let last = Int64(nextMonth) - 1
        return last - weekday(last)
    }

    /// The weekday (0 = Sunday) of a count of days since 1970-01-01 (a Thursday).
    static func weekday(_ days: Int64) -> Int64 {
        ((days + 4) % 7 + 7) % 7
    }
}
