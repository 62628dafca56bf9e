#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date as Apple's `verifyReceipt` writes it: three fields from one instant.
///
/// - `name`: `"2020-07-14 19:33:26 Etc/GMT"`
/// - `name_ms`: milliseconds since 1970 as a string, `"1594755206000"`
/// - `name_pst`: the same instant in America/Los_Angeles, daylight saving included,
///   `"2020-07-14 12:33:26 America/Los_Angeles"`
public struct AppleDate: Hashable, Sendable {
    /// The `Etc/GMT` text.
    public var gmt: String
    /// Milliseconds since 1970-01-01T00:00:00Z, as a decimal string.
    public var milliseconds: String
    /// The `America/Los_Angeles` text.
    public var pacific: String

    /// The three texts of `date` (milliseconds rounded down).
    public init(_ date: Date) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        self.gmt = Self.civilText(seconds) + " Etc/GMT"
        self.milliseconds = String(milliseconds)
        self.pacific = Self.civilText(seconds + PacificTime.offset(atUnixSeconds: seconds)) + " America/Los_Angeles"
    }

    /// Three texts as read from a response.
    public init(gmt: String, milliseconds: String, pacific: String) {
        self.gmt = gmt
        self.milliseconds = milliseconds
        self.pacific = pacific
    }

    /// `yyyy-MM-dd HH:mm:ss` of a count of seconds since 1970 (proleptic Gregorian calendar).
    static func civilText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.fromDays(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " "
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// Conversions between days since 1970-01-01 and civil (proleptic Gregorian) dates, after
/// Howard Hinnant's `days_from_civil` / `civil_from_days`.
enum CivilDate {
    /// The year, month (1–12) and day (1–31) of a count of days since 1970-01-01.
    static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The count of days since 1970-01-01 of a civil date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weekday (0 = Sunday) of a count of days since 1970-01-01 (a Thursday).
    static func weekday(_ days: Int64) -> Int64 {
        ((days + 4) % 7 + 7) % 7
    }
}

/// US Pacific time (America/Los_Angeles) by the US federal daylight-saving rules, which is what
/// Apple's `_pst` fields show: written out here so the answer does not depend on the tz database
/// a server has installed, and checked against Foundation's `TimeZone` in the tests.
///
/// - since 2007: daylight time from the second Sunday of March, 02:00 PST, to the first Sunday of
///   November, 02:00 PDT;
/// - 1987–2006: from the first Sunday of April to the last Sunday of October (no App Store receipt
///   is older than 2008; earlier instants use this rule too).
enum PacificTime {
    /// Seconds to add to UTC: −25,200 (PDT) or −28,800 (PST).
    static func offset(atUnixSeconds seconds: Int64) -> Int64 {
        let standard: Int64 = -8 * 3600
        let year = CivilDate.fromDays((seconds + standard) >= 0 ? (seconds + standard) / 86_400 : (seconds + standard - 86_399) / 86_400).year
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
        let daylightStarts = start * 86_400 + 10 * 3600
        let daylightEnds = end * 86_400 + 9 * 3600
        return seconds >= daylightStarts && seconds < daylightEnds ? -7 * 3600 : standard
    }

    /// The day (since 1970) of the n-th Sunday of a month.
    private static func nthSunday(_ n: Int64, month: Int64, year: Int64) -> Int64 {
        let first = CivilDate.days(year: year, month: month, day: 1)
        let firstSunday = first + (7 - CivilDate.weekday(first)) % 7
        return firstSunday + (n - 1) * 7
    }

    /// The day (since 1970) of the last Sunday of a month.
    private static func lastSunday(month: Int64, year: Int64) -> Int64 {
        let nextMonth = month == 12 ? CivilDate.days(year: year + 1, month: 1, day: 1) : CivilDate.days(year: year, month: month + 1, day: 1)
        let last = nextMonth - 1
        return last - CivilDate.weekday(last)
    }
}
