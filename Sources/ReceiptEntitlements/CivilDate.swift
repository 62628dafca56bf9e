import ReceiptCore

/// A proleptic Gregorian calendar date in UTC, for date arithmetic without `Calendar` (which
/// FoundationEssentials does not have on every platform). The conversions are ``RFC3339``'s.
package struct CivilDate: Hashable {
    package var year: Int64
    package var month: Int64
    package var day: Int64

    /// The date `days` days after 1970-01-01.
    package init(daysSinceEpoch days: Int64) {
        let (year, month, day) = RFC3339.civilDate(daysSinceEpoch: Int(days))
        self.init(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The date of the given fields (month 1–12, day 1–31, not checked against the month).
    package init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 to this date.
    package var daysSinceEpoch: Int64 {
        Int64(RFC3339.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
    }

    /// The number of days of `month` in `year`.
    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        Int64(RFC3339.daysInMonth(Int(month), year: Int(year)))
    }
}
