import ReceiptCore
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
        self.init(checked: (date + time).map { $0 ?? 0 })
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

    /// Creates a duration from its components, throwing
    /// ``ProductCatalogError/invalidDuration(_:reason:)`` when one is negative or above
    /// ``componentLimit``.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) throws {
        for value in [years, months, weeks, days, hours, minutes, seconds] where !(0...Self.componentLimit).contains(value) {
            throw ProductCatalogError.invalidDuration(
                "\(value)", reason: "a component must lie in 0...\(Self.componentLimit)"
            )
        }
        self.init(checked: [years, months, weeks, days, hours, minutes, seconds])
    }

    /// Stores components already checked against ``componentLimit``, in ``description`` order.
    private init(checked values: [Int]) {
        years = values[0]
        months = values[1]
        weeks = values[2]
        days = values[3]
        hours = values[4]
        minutes = values[5]
        seconds = values[6]
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
        let whole = start.timeIntervalSince1970.rounded(.down)
        guard whole.magnitude < 1e15 else { return start }
        let fraction = start.timeIntervalSince1970 - whole
        let startSeconds = Int64(whole)
        let dayNumber = startSeconds >= 0 ? startSeconds / 86_400 : (startSeconds - 86_399) / 86_400
        let secondOfDay = startSeconds - dayNumber * 86_400
        var civil = CivilDate(daysSinceEpoch: dayNumber)
        let monthIndex = civil.year * 12 + (civil.month - 1) + Int64(years * 12 + months)
        civil.year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        civil.month = monthIndex - civil.year * 12 + 1
        civil.day = min(civil.day, CivilDate.daysInMonth(year: civil.year, month: civil.month))
        let fixedSeconds = Int64(((weeks * 7 + days) * 24 + hours) * 3_600 + minutes * 60 + seconds)
        return Date(timeIntervalSince1970: Double(civil.daysSinceEpoch * 86_400 + secondOfDay + fixedSeconds) + fraction)
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
