import ReceiptCore
import ReceiptEntitlements
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
    /// An instant (its texts made when they are read or written: a response of 187 purchases
    /// has over a thousand dates, and the tool writes their texts straight into its output), or
    /// three texts as given.
    private enum Storage: Sendable {
        case instant(milliseconds: Int64)
        case texts(Texts)
    }

    /// Three texts as given, behind one reference: an `AppleDate` is then 9 bytes, and a copy
    /// costs at most one retain (three strings inline made every transaction of a response
    /// 300-odd bytes, copied through an outlined switch for each of its four dates).
    private final class Texts: Sendable {
        let gmt: String
        let milliseconds: String
        let pacific: String

        init(gmt: String, milliseconds: String, pacific: String) {
            self.gmt = gmt
            self.milliseconds = milliseconds
            self.pacific = pacific
        }
    }

    private var storage: Storage

    /// The `Etc/GMT` text.
    public var gmt: String {
        get {
            switch storage {
            case .instant(let milliseconds): Self.civilText(Self.seconds(milliseconds), zone: Self.gmtZone)
            case .texts(let texts): texts.gmt
            }
        }
        set { storage = .texts(Texts(gmt: newValue, milliseconds: milliseconds, pacific: pacific)) }
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, as a decimal string.
    public var milliseconds: String {
        get {
            switch storage {
            case .instant(let milliseconds): DecimalDigits.text(milliseconds)
            case .texts(let texts): texts.milliseconds
            }
        }
        set { storage = .texts(Texts(gmt: gmt, milliseconds: newValue, pacific: pacific)) }
    }

    /// The `America/Los_Angeles` text.
    public var pacific: String {
        get {
            switch storage {
            case .instant(let milliseconds): Self.civilText(Self.pacificSeconds(milliseconds), zone: Self.pacificZone)
            case .texts(let texts): texts.pacific
            }
        }
        set { storage = .texts(Texts(gmt: gmt, milliseconds: milliseconds, pacific: newValue)) }
    }

    /// The three texts of `date` (milliseconds rounded down).
    public init(_ date: Date) {
        storage = .instant(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Three texts as read from a response.
    public init(gmt: String, milliseconds: String, pacific: String) {
        storage = .texts(Texts(gmt: gmt, milliseconds: milliseconds, pacific: pacific))
    }

    /// Equal when the three texts are (two instants: when their milliseconds are, which decide
    /// the texts).
    public static func == (left: AppleDate, right: AppleDate) -> Bool {
        if case .instant(let a) = left.storage, case .instant(let b) = right.storage { return a == b }
        return left.gmt == right.gmt && left.milliseconds == right.milliseconds && left.pacific == right.pacific
    }

    /// Hashes the three texts.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(gmt)
        hasher.combine(milliseconds)
        hasher.combine(pacific)
    }

    /// The instant's milliseconds, for a writer that writes the texts itself; `nil` for texts as
    /// given.
    package var instantMilliseconds: Int64? {
        if case .instant(let milliseconds) = storage { return milliseconds }
        return nil
    }

    /// The zone suffixes of the two civil texts.
    package static let gmtZone: StaticString = " Etc/GMT"
    package static let pacificZone: StaticString = " America/Los_Angeles"

    /// Whole seconds of a count of milliseconds, rounded down.
    package static func seconds(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }

    /// The Pacific wall-clock seconds of a count of milliseconds since 1970.
    package static func pacificSeconds(_ milliseconds: Int64) -> Int64 {
        let seconds = seconds(milliseconds)
        return seconds + PacificTime.offset(atUnixSeconds: seconds)
    }

    /// `yyyy-MM-dd HH:mm:ss` of a count of seconds since 1970 (proleptic Gregorian calendar)
    /// followed by `zone`, built as one string: a response of 187 purchases has over a thousand
    /// of these, and ``civilText(_:)`` builds a dozen strings for each. Years outside 0–9999 take
    /// ``civilText(_:)``'s way (and the test holds the two equal over the years 1–9999).
    static func civilText(_ seconds: Int64, zone: StaticString) -> String {
        ASCIICursor.string(capacity: 19 + zone.utf8CodeUnitCount) { writeCivilText(seconds, zone: zone, to: $0) }
            ?? civilText(seconds) + zone.description
    }

    /// Stores ``civilText(_:zone:)`` at `out`, which has room for 19 bytes and the zone, and
    /// returns how many bytes it stored; nil (nothing stored) outside the years 0–9999.
    package static func writeCivilText(_ seconds: Int64, zone: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        // The date and time in one call into ReceiptCore (``RFC3339/writeCivilSeconds(_:to:)``),
        // the zone copied whole here: ``ASCIICursor`` is not inlined across the module boundary
        // (its init and `text(_:)` were two calls more a text in the release build, objdump).
        guard let length = RFC3339.writeCivilSeconds(seconds, to: out) else { return nil }
        let zoneLength = zone.withUTF8Buffer { zone -> Int in
            guard let base = zone.baseAddress else { return 0 }
            (out + length).update(from: base, count: zone.count)
            return zone.count
        }
        return length + zoneLength
    }

    /// `yyyy-MM-dd HH:mm:ss` of a count of seconds since 1970 (proleptic Gregorian calendar).
    static func civilText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let civil = CivilDate(daysSinceEpoch: days)
        return pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2) + " "
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
