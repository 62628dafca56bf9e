#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `Time` of a certificate's ``CertificateValidity``, read in place:
///
/// ```
/// Validity ::= SEQUENCE { notBefore Time, notAfter Time }
/// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
/// ```
///
/// in the strict form RFC 5280 §4.1.2.5 requires: UTCTime `YYMMDDHHMMSSZ` (years 50–99 are 19YY,
/// 00–49 20YY) or GeneralizedTime `YYYYMMDDHHMMSSZ`, every field in range and the day one its month
/// has in its year. The one reading of a certificate time: ``CertificateValidity`` reads its two
/// here, and through it ``CertificateStructure``'s structure check and ``ValidityPeriod`` (the
/// inclusive validity rule). ``node`` is the range of the caller's buffer the time was read from.
package struct CertificateTime: Sendable, Equatable {
    /// The UTCTime or GeneralizedTime element.
    package var node: DERCursor.Element
    /// The calendar fields, UTC.
    package var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// The time in `element` of the cursor's buffer, or `nil` when it is not a UTCTime or
    /// GeneralizedTime in the strict form.
    package init?(_ cursor: DERCursor, _ element: DERCursor.Element) {
        let bytes = cursor.bytes
        let length = element.end - element.contentStart
        let digits: Int
        switch (element.identifier, length) {
        case (.utcTime, 13): digits = 12
        case (.generalizedTime, 15): digits = 14
        default: return nil
        }
        let start = element.contentStart
        node = element
        guard bytes[start + digits] == UInt8(ascii: "Z") else { return nil }
        for index in start..<(start + digits) {
            guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        }
        func number(_ at: Int) -> Int { Int(bytes[start + at] &- 48) * 10 + Int(bytes[start + at + 1] &- 48) }
        let base = digits - 10  // month offset
        year = digits == 12 ? (number(0) < 50 ? 2000 + number(0) : 1900 + number(0)) : number(0) * 100 + number(2)
        month = number(base)
        day = number(base + 2)
        hour = number(base + 4)
        minute = number(base + 6)
        second = number(base + 8)
        // A day that the month does not have (February 30, April 31) is no time at all.
        guard (1...12).contains(month), day >= 1, day <= RFC3339.daysInMonth(month, year: year), hour < 24, minute < 60,
              second < 60
        else { return nil }
    }

    /// Seconds since 1970.
    package var secondsSince1970: Int64 {
        Int64(RFC3339.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second).timeIntervalSince1970)
    }
}
