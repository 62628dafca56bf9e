#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The length of a non-renewing subscription, written as an ISO 8601 duration such as `P1M`,
/// `P1Y`, `P7D`, `P2W` or `P1DT12H`.
///
/// Receipts carry no expiry for non-renewing subscriptions, so the app's catalogue says how long
/// one lasts. Parsing is strict: `P`, then at least one component, each a non-negative whole
/// number followed by its designator in ISO 8601 order (`Y`, `M`, `W`, `D`, then after `T`: `H`,
/// `M`, `S`); no signs, fractions, spaces or repeated designators. Calendar components are added
/// in the proleptic Gregorian calendar in UTC, and a day past the end of the month is clamped to
/// its last day (January 31 plus `P1M` is February 28 or 29).
public struct SubscriptionDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Years (`nY`).
    public let years: Int
    /// Months (`nM` before `T`).
    public let months: Int
    /// Weeks (`nW`).
    public let weeks: Int
    /// Days (`nD`).
    public let days: Int
    /// Hours (`nH`).
    public let hours: Int
    /// Minutes (`nM` after `T`).
    public let minutes: Int
    /// Seconds (`nS`).
    public let seconds: Int

    /// The largest value accepted for one component: far beyond any real subscription, small
    /// enough that no date arithmetic overflows.
    public static let componentLimit = 100_000

    /// Parses an ISO 8601 duration, throwing ``ProductCatalogError/invalidDuration(_:reason:)``
    /// with the reason when `text` is not one.
    public init(iso8601 text: String) throws {
        func fail(_ reason: String) -> ProductCatalogError { .invalidDuration(text, reason: reason) }
        guard text.first == "P" else { throw fail("it does not start with P") }
        let parts = text.dropFirst().split(separator: "T", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw fail("it has more than one T") }
        if parts.count == 2, parts[1].isEmpty { throw fail("T is followed by no component") }
        let date = try Self.components(of: parts[0], designators: ["Y", "M", "W", "D"], fail: fail)
        let time = try Self.components(of: parts.count == 2 ? parts[1] : "", designators: ["H", "M", "S"], fail: fail)
        guard (date + time).contains(where: { $0 != nil }) else { throw fail("it has no component") }
        self.init(
            years: date[0] ?? 0, months: date[1] ?? 0, weeks: date[2] ?? 0, days: date[3] ?? 0,
            hours: time[0] ?? 0, minutes: time[1] ?? 0, seconds: time[2] ?? 0
        )
    }

    /// Reads `nX` pairs whose designators appear in `designators` order, each at most once.
    private static func components(
        of part: Substring, designators: [Character], fail: (String) -> ProductCatalogError
    ) throws -> [Int?] {
        var values = [Int?](repeating: nil, count: designators.count)
        var nextRank = 0
        var number: Int?
        for character in part {
            if character.isASCII, let digit = character.wholeNumberValue {
                let value = (number ?? 0) * 10 + digit
                guard value <= componentLimit else { throw fail("a component exceeds \(componentLimit)") }
                number = value
                continue
            }
            guard let rank = designators.firstIndex(of: character) else {
                throw fail("'\(character)' is not a duration designator here")
            }
            guard let value = number else { throw fail("'\(character)' has no number before it") }
            guard rank >= nextRank else { throw fail("designators are repeated or out of order") }
            values[rank] = value
            nextRank = rank + 1
            number = nil
        }
        guard number == nil else { throw fail("it ends with a number without a designator") }
        return values
    }

    /// Creates a duration from its components; each is clamped to 0...``componentLimit``.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        func clamp(_ value: Int) -> Int { min(max(value, 0), Self.componentLimit) }
        self.years = clamp(years)
        self.months = clamp(months)
        self.weeks = clamp(weeks)
        self.days = clamp(days)
        self.hours = clamp(hours)
        self.minutes = clamp(minutes)
        self.seconds = clamp(seconds)
    }

    /// The ISO 8601 form, e.g. `P1M` or `P1DT12H` (`PT0S` for an empty duration).
    public var description: String {
        var text = "P"
        for (value, designator) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value > 0 {
            text += "\(value)\(designator)"
        }
        let time = [(hours, "H"), (minutes, "M"), (seconds, "S")].filter { $0.0 > 0 }
        if !time.isEmpty {
            text += "T" + time.map { "\($0.0)\($0.1)" }.joined()
        }
        return text == "P" ? "PT0S" : text
    }

    /// The date this duration after `start`: years and months on the UTC Gregorian calendar
    /// (the day clamped to the month's length), then weeks, days and the time components as
    /// fixed lengths.
    public func added(to start: Date) -> Date {
        let secondsPerDay: Int64 = 86_400
        let whole = start.timeIntervalSince1970.rounded(.down)
        let fraction = start.timeIntervalSince1970 - whole
        guard whole.magnitude < 1e15 else { return start }
        let startSeconds = Int64(whole)
        let dayNumber = startSeconds >= 0 ? startSeconds / secondsPerDay : (startSeconds - secondsPerDay + 1) / secondsPerDay
        let secondOfDay = startSeconds - dayNumber * secondsPerDay
        var civil = CivilDate(daysSinceEpoch: dayNumber)
        let monthIndex = civil.year * 12 + (civil.month - 1) + Int64(years) * 12 + Int64(months)
        civil.year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        civil.month = monthIndex - civil.year * 12 + 1
        civil.day = min(civil.day, CivilDate.daysInMonth(year: civil.year, month: civil.month))
        let fixedSeconds = Int64(weeks) * 7 * secondsPerDay + Int64(days) * secondsPerDay
            + Int64(hours) * 3_600 + Int64(minutes) * 60 + Int64(seconds)
        let endSeconds = civil.daysSinceEpoch * secondsPerDay + secondOfDay + fixedSeconds
        return Date(timeIntervalSince1970: Double(endSeconds) + fraction)
    }

    /// Decodes the ISO 8601 string.
    public init(from decoder: any Decoder) throws {
        try self.init(iso8601: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the ISO 8601 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A proleptic Gregorian calendar date, converted to and from days since 1970-01-01
/// (Howard Hinnant's `days_from_civil` and `civil_from_days`).
struct CivilDate {
    var year: Int64
    var month: Int64
    var day: Int64

    init(daysSinceEpoch days: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    var daysSinceEpoch: Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
