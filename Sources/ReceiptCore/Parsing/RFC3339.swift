#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hand-written RFC 3339 date parsing and formatting for receipt dates (no `DateFormatter`, no locale).
///
/// Accepted: `2015-08-13T07:50:46Z`, lowercase `z`, offsets `+01:00`, `+0100` (no colon, as in
/// 2020–2021 Xcode receipts) and `+01`, fractional seconds of any length (`.123`, `.5`), and a
/// space instead of `T`. Every field is range-checked (month 1–12, day within its month,
/// hour 0–23, minute 0–59, second 0–60, offset up to ±23:59).
public enum RFC3339 {
    /// Parses an RFC 3339 timestamp, or returns nil when it is not one.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses an RFC 3339 timestamp given as its UTF-8 bytes (no String is built).
    static func parse(bytes: ArraySlice<UInt8>) -> Date? {
        bytes.withUnsafeBufferPointer { parse(utf8: $0) }
    }

    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if bytes.count == 20, let date = parseCanonical(bytes) { return date }
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        var position = 0

        func digits(_ count: Int) -> Int? {
            guard bytes.count - position >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[position]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                position += 1
            }
            return value
        }
        func expect(_ first: UInt8, _ second: UInt8? = nil, _ third: UInt8? = nil) -> Bool {
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            guard byte == first || byte == second || byte == third else { return false }
            position += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              expect(0x54, 0x74, 0x20),  // T t space
              let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2)
        else { return nil }
        guard isInRange(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }

        var fraction = 0.0
        if position < bytes.count, bytes[position] == 0x2E {  // .
            position += 1
            var scale = 0.1
            var count = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                fraction += Double(bytes[position] - 0x30) * scale
                scale /= 10
                position += 1
                count += 1
            }
            guard count > 0 else { return nil }
        }

        guard position < bytes.count else { return nil }
        var offsetSeconds = 0
        let sign = bytes[position]
        position += 1
        if sign == 0x5A || sign == 0x7A {  // Z z
            // UTC
        } else if sign == 0x2B || sign == 0x2D {  // + -
            guard let offsetHours = digits(2), offsetHours <= 23 else { return nil }
            var offsetMinutes = 0
            if position < bytes.count {
                if bytes[position] == 0x3A { position += 1 }
                guard let minutes = digits(2), minutes <= 59 else { return nil }
                offsetMinutes = minutes
            }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == 0x2D ? -1 : 1)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The common `YYYY-MM-DDTHH:MM:SSZ` form (exactly 20 bytes, uppercase `T` and `Z`) read at
    /// fixed positions, with the same range checks and arithmetic as ``parse(utf8:)``; nil for
    /// anything else, which the general reader then decides.
    @inline(__always)
    private static func parseCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 20, let base = bytes.baseAddress else { return nil }
        // Three little-endian loads (byte i of a word at bits 8i): `YYYY-MM-`, `DDTHH:MM`, `:SSZ`.
        let raw = UnsafeRawPointer(base)
        let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let c = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        // Separators: `-` at 4 and 7, `T` at 10, `:` at 13 and 16, `Z` at 19.
        guard a & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000, b & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0054_0000,
              c & 0xFF00_00FF == 0x5A00_003A
        else { return nil }
        // Every other byte minus '0' must be 0…9: with '0' cleared by XOR, no high nibble and a
        // low nibble that does not reach 0x10 when 6 is added (no carry leaves a byte).
        let da = (a & 0x00FF_FF00_FFFF_FFFF) ^ 0x0030_3000_3030_3030
        let db = (b & 0xFFFF_00FF_FF00_FFFF) ^ 0x3030_0030_3000_3030
        let dc = (c & 0x00FF_FF00) ^ 0x0030_3000
        let high = (da | db | dc) & 0xF0F0_F0F0_F0F0_F0F0
        let carry = ((da &+ 0x0006_0600_0606_0606) | (db &+ 0x0606_0006_0600_0606) | (dc &+ 0x0006_0600)) & 0x1010_1010_1010_1010
        guard high | carry == 0 else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: word >> UInt64(index &* 8)) & 0xFF }
        let year = digit(da, 0) &* 1000 &+ digit(da, 1) &* 100 &+ digit(da, 2) &* 10 &+ digit(da, 3)
        let month = digit(da, 5) &* 10 &+ digit(da, 6)
        let day = digit(db, 0) &* 10 &+ digit(db, 1)
        let hour = digit(db, 3) &* 10 &+ digit(db, 4)
        let minute = digit(db, 6) &* 10 &+ digit(db, 7)
        let second = digit(dc, 1) &* 10 &+ digit(dc, 2)
        guard isInRange(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            return nil
        }
        // daysSinceEpoch's arithmetic on non-negative values, in unsigned division (the shifted
        // year is negative only for January and February of year 0, left to the signed version).
        guard year > 0 || month > 2 else {
            return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }
        let y = UInt(bitPattern: month <= 2 ? year &- 1 : year)  // 0…9999
        let era = y / 400
        let yearOfEra = y &- era &* 400
        let shiftedMonth = UInt(bitPattern: month > 2 ? month &- 3 : month &+ 9)  // 0…11
        let dayOfYear = (153 &* shiftedMonth &+ 2) / 5 &+ UInt(bitPattern: day) &- 1
        let dayOfEra = yearOfEra &* 365 &+ yearOfEra / 4 &- yearOfEra / 100 &+ dayOfYear
        let days = Int(bitPattern: era &* 146_097 &+ dayOfEra) &- 719_468
        return Date(timeIntervalSince1970: Double(days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ second))
    }

    /// The range checks of both readers: month 1–12, day within its month, hour 0–23, minute 0–59,
    /// second 0–60.
    @inline(__always)
    private static func isInRange(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysInMonth(month, year: year) && hour <= 23 && minute <= 59
            && second <= 60
    }

    /// Formats a date as `YYYY-MM-DDTHH:MM:SSZ`, with milliseconds (`.SSS`) when it has any.
    public static func string(from date: Date) -> String {
        // Stored in place, in one string (text tables print three dates a purchase); dates outside
        // the years 0 to 9999 are composed field by field.
        ASCIICursor.string(capacity: maximumCompactLength) { write(date, to: $0) } ?? composedString(from: date)
    }

    /// Formats a time given in milliseconds since 1970 (Apple's JWS dates) as
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, always with three fraction digits, exact to the millisecond:
    /// the second as ``string(from:)`` writes it, the milliseconds from the integer (a `Date`'s
    /// `Double` seconds can lose one). Outside the years 0 to 9999, ``string(from:)``'s text of
    /// the second.
    public static func string(fromMilliseconds milliseconds: Int64) -> String {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (second, millisecond) = remainder < 0 ? (quotient - 1, remainder + 1000) : (quotient, remainder)
        let text = string(from: Date(timeIntervalSince1970: Double(second)))
        guard text.hasSuffix("Z") else { return text }
        let digits = String(millisecond)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// ``string(from:)`` built from its fields as strings: the reference the tests hold
    /// ``write(_:to:)`` to, and the text of dates outside the years 0 to 9999.
    static func composedString(from date: Date) -> String {
        guard let fields = fields(of: date) else { return "invalid-date" }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(fields.year, 4))-\(pad(fields.month, 2))-\(pad(fields.day, 2))T"
        text += "\(pad(fields.hour, 2)):\(pad(fields.minute, 2)):\(pad(fields.second, 2))"
        if fields.millisecond != 0 { text += ".\(pad(fields.millisecond, 3))" }
        return text + "Z"
    }

    /// Appends the UTF-8 of ``string(from:)`` to `bytes` without building a `String` (for writers
    /// of large JSON documents, where a receipt's dates are most of the text formatting).
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCompactLength) { buffer in
            guard let base = buffer.baseAddress, let length = write(date, to: base) else {
                bytes.append(contentsOf: string(from: date).utf8)
                return
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
        }
    }

    /// The longest text ``write(_:to:)`` stores: `YYYY-MM-DDTHH:MM:SS.sssZ`. (A constant the
    /// compiler folds in other modules; a `static let` there is read through a `swift_once` check
    /// at every date `JSONByteWriter` writes.)
    @inlinable package static var maximumCompactLength: Int { 24 }

    /// Stores the UTF-8 of ``string(from:)`` at `out`, which has room for
    /// ``maximumCompactLength`` bytes, and returns how many it stored; nil (nothing stored) for a
    /// date outside the years 0 to 9999, which ``string(from:)`` writes in its own way.
    package static func write(_ date: Date, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let parts = compactParts(of: date), let dayLength = writeDay(parts.day, to: out) else { return nil }
        return dayLength + writeTime(secondOfDay: parts.secondOfDay, millisecond: parts.millisecond, to: out + dayLength)
    }

    /// What ``write(_:to:)`` writes of `date`: its UTC day (days since 1970-01-01), the second
    /// within that day and the millisecond, rounded to the millisecond; nil outside years ±9999.
    /// A writer of many dates can keep the text of the last day (``writeDay(_:to:)``) and write
    /// only the time (``writeTime(secondOfDay:millisecond:to:)``) of another date of that day.
    package static func compactParts(of date: Date) -> (day: Int, secondOfDay: Int, millisecond: Int)? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 253_402_300_800 else { return nil }
        var milliseconds = Int64((interval * 1000).rounded())
        var millisecondPart = milliseconds % 1000
        if millisecondPart < 0 { millisecondPart += 1000 }
        milliseconds -= millisecondPart
        let totalSeconds = milliseconds / 1000
        var days = totalSeconds / 86_400
        var secondOfDay = totalSeconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        return (Int(days), Int(secondOfDay), Int(millisecondPart))
    }

    /// Stores `YYYY-MM-DD` of `day` (days since 1970-01-01) at `out`, which has room for 10 bytes,
    /// and returns 10; nil (nothing stored) outside the years 0 to 9999. Always inlined: in
    /// ``writeCivilSeconds(_:to:)`` it is the same code as the copy it replaced (126 instructions,
    /// one call, to ``civilDate(daysSinceEpoch:)``, in the release build).
    @inline(__always)
    package static func writeDay(_ day: Int, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let (year, month, dayOfMonth) = civilDate(daysSinceEpoch: day)
        guard (0...9999).contains(year) else { return nil }
        var cursor = ASCIICursor(out)
        cursor.digits(year, width: 4)
        cursor.byte(UInt8(ascii: "-"))
        cursor.digits(month, width: 2)
        cursor.byte(UInt8(ascii: "-"))
        cursor.digits(dayOfMonth, width: 2)
        return cursor.count
    }

    /// Stores `yyyy-MM-dd HH:mm:ss` of `seconds` (since 1970, proleptic Gregorian calendar,
    /// rounded down to the day) at `out`, which has room for 19 bytes, and returns 19; nil
    /// (nothing stored) outside the years 0 to 9999.
    ///
    /// One call a text, for Apple's `_date` and `_pst` texts (ReceiptOutput's `AppleDate`): here
    /// ``writeDay(_:to:)`` and ``ASCIICursor`` are calls within the module, while a writer in another
    /// module calls each digit pair, byte and the calendar across the module boundary (thirteen
    /// calls, 724 instructions a text; Benchmarks/RESULTS.md, session 21).
    package static func writeCivilSeconds(_ seconds: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        guard let dayLength = writeDay(Int(days), to: out) else { return nil }
        var cursor = ASCIICursor(out + dayLength)
        cursor.byte(UInt8(ascii: " "))
        cursor.digits(secondOfDay / 3600, width: 2)
        cursor.byte(UInt8(ascii: ":"))
        cursor.digits(secondOfDay / 60 % 60, width: 2)
        cursor.byte(UInt8(ascii: ":"))
        cursor.digits(secondOfDay % 60, width: 2)
        return dayLength + cursor.count
    }

    /// Stores `THH:MM:SS`, then `.sss` when `millisecond` is not 0, then `Z` at `out`, which has
    /// room for 14 bytes, and returns how many it stored (10 or 14). `secondOfDay` is 0–86,399 and
    /// `millisecond` 0–999.
    package static func writeTime(secondOfDay: Int, millisecond: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = ASCIICursor(out)
        cursor.byte(UInt8(ascii: "T"))
        cursor.digits(secondOfDay / 3600, width: 2)
        cursor.byte(UInt8(ascii: ":"))
        cursor.digits(secondOfDay % 3600 / 60, width: 2)
        cursor.byte(UInt8(ascii: ":"))
        cursor.digits(secondOfDay % 60, width: 2)
        if millisecond != 0 {
            cursor.byte(UInt8(ascii: "."))
            cursor.digits(millisecond, width: 3)
        }
        cursor.byte(UInt8(ascii: "Z"))
        return cursor.count
    }

    /// The UTC calendar fields of `date`, rounded to the millisecond; nil outside years ±9999.
    private static func fields(
        of date: Date
    ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int)? {
        guard let parts = compactParts(of: date) else { return nil }
        let (year, month, day) = civilDate(daysSinceEpoch: parts.day)
        let second = parts.secondOfDay
        return (year, month, day, second / 3600, second % 3600 / 60, second % 60, parts.millisecond)
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysSinceEpoch(year:month:day:)``.
    package static func civilDate(daysSinceEpoch: Int) -> (Int, Int, Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Seconds since 1970 for calendar fields in UTC (used for certificate times).
    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double = 0) -> Date {
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction)
    }
}
