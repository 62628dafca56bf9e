/// The two civil texts of an Apple `verifyReceipt` date (`yyyy-MM-dd HH:mm:ss` in UTC and in US
/// Pacific time, without their zones) written in one call, for ReceiptOutput's `AppleDate` writer.
///
/// The Pacific instant is the UTC one 7 or 8 hours earlier: on the same day whenever the UTC time
/// of day is past that, and then its date text is the UTC one's, copied rather than worked out
/// again. Digits are stored two at a time from one table. One call a date where the writer made
/// two (``RFC3339/writeCivilSeconds(_:to:)`` for each text, each working out its calendar date and
/// storing its digits one pair a loop turn): a 2-purchase `verifyReceipt` answer has fifteen
/// dates (Benchmarks/RESULTS.md, session 23). `AppleCivilTextsTests` holds the texts equal to the two
/// calls' over years of instants.
package enum AppleCivilTexts {
    /// The length of each text.
    package static let length = 19

    /// Stores the UTC civil text of `seconds` (since 1970) at `gmt` and the Pacific one at
    /// `pacific`, 19 bytes each, as ``RFC3339/writeCivilSeconds(_:to:)`` stores those of
    /// `seconds` and of `seconds` plus ``PacificTime/offset(atUnixSeconds:)``; false when either
    /// year is outside 0–9999 (then what was stored is not a text).
    package static func write(seconds: Int64, gmt: UnsafeMutablePointer<UInt8>, pacific: UnsafeMutablePointer<UInt8>) -> Bool {
        // Within ±2^52 seconds (far beyond the years 0–9999) the arithmetic cannot overflow.
        guard seconds > -(1 << 52), seconds < 1 << 52 else { return false }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        guard writeDate(Int(days), to: gmt) else { return false }
        writeTime(secondOfDay, to: gmt + 10)
        let pacificSecondOfDay = secondOfDay + Int(PacificTime.offset(atUnixSeconds: seconds))
        if pacificSecondOfDay >= 0 {
            pacific.update(from: gmt, count: 10)
            writeTime(pacificSecondOfDay, to: pacific + 10)
        } else {
            guard writeDate(Int(days) - 1, to: pacific) else { return false }
            writeTime(pacificSecondOfDay + 86_400, to: pacific + 10)
        }
        return true
    }

    /// `yyyy-MM-dd` of a day since 1970 at `out`; false outside the years 0–9999.
    @inline(__always)
    private static func writeDate(_ day: Int, to out: UnsafeMutablePointer<UInt8>) -> Bool {
        let (year, month, dayOfMonth) = RFC3339.civilDate(daysSinceEpoch: day)
        guard (0...9999).contains(year) else { return false }
        pair(year / 100, to: out)
        pair(year % 100, to: out + 2)
        out[4] = UInt8(ascii: "-")
        pair(month, to: out + 5)
        out[7] = UInt8(ascii: "-")
        pair(dayOfMonth, to: out + 8)
        return true
    }

    /// ` HH:mm:ss` of a second of the day (0–86,399) at `out`.
    @inline(__always)
    private static func writeTime(_ secondOfDay: Int, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(ascii: " ")
        pair(secondOfDay / 3600, to: out + 1)
        out[3] = UInt8(ascii: ":")
        pair(secondOfDay / 60 % 60, to: out + 4)
        out[6] = UInt8(ascii: ":")
        pair(secondOfDay % 60, to: out + 7)
    }

    /// The two digits of `value` (0–99) at `out`.
    @inline(__always)
    private static func pair(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        let pairs = ASCIICursor.pairs
        let digits = UnsafeRawPointer(pairs.utf8Start + value &* 2).loadUnaligned(as: UInt16.self)
        UnsafeMutableRawPointer(out).storeBytes(of: digits, as: UInt16.self)
    }
}
