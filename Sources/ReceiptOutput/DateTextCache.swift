#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// Writes the compact RFC 3339 texts of the dates ``JSONByteWriter`` writes, keeping the
/// `YYYY-MM-DD` texts of the days written lately.
///
/// A date of a whole second from 1970 to 9999 (every date of a real receipt: Apple writes them to
/// the second) is written here: its day's text from a direct-mapped cache of ``slots`` days (a
/// subscription's purchases share one original purchase date, and each renewal starts on the
/// day the one before expires), its time from a table of two-digit pairs. Any other date (a
/// fraction of a second, before 1970) goes to ``RFC3339/write(_:to:)``; both write the text
/// ``RFC3339/string(from:)`` makes.
///
/// Needed by the `Scripts/bench.sh --cli-only` line "--ndjson, real 187iap sha1, one core ≤ 2×
/// the library's warm validation": the writer's dates took 31.9 million instructions over the
/// bench's 200 copies (284 a date, callgrind, static release build) through a cache of the 16
/// dates written last and `RFC3339.write`; written here, 14.8 million (132 a date).
struct DateTextCache: ~Copyable {
    /// Three words a slot: the day (days since 1970-01-01) plus one (0: empty), then the first
    /// eight bytes of its text and the last two.
    private let days: UnsafeMutablePointer<UInt64>
    private static let slots = 16

    /// The first instant past the year 9999 (10000-01-01T00:00:00Z), seconds since 1970.
    private static let endOfYear9999 = 253_402_300_800.0

    /// An empty cache.
    init() {
        days = .allocate(capacity: 3 * Self.slots)
        days.initialize(repeating: 0, count: 3 * Self.slots)
    }

    deinit {
        days.deallocate()
    }

    /// Stores ``RFC3339/write(_:to:)``'s text of `value` at `out` (room for
    /// `RFC3339.maximumCompactLength` bytes) and returns its length; nil (nothing stored) where
    /// `RFC3339.write` stores nothing.
    @inline(__always)
    mutating func write(_ value: Date, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let interval = value.timeIntervalSince1970
        // NaN fails the first comparison; the range check comes before the conversion.
        guard interval >= 0, interval < Self.endOfYear9999 else { return RFC3339.write(value, to: out) }
        let seconds = Int(interval)
        guard Double(seconds) == interval else { return RFC3339.write(value, to: out) }
        let day = seconds / 86_400
        let raw = UnsafeMutableRawPointer(out)
        let slot = days + (day & (Self.slots - 1)) &* 3
        if slot[0] == UInt64(day &+ 1) {
            raw.storeBytes(of: slot[1], as: UInt64.self)
            raw.storeBytes(of: UInt16(truncatingIfNeeded: slot[2]), toByteOffset: 8, as: UInt16.self)
        } else {
            guard RFC3339.writeDay(day, to: out) == 10 else { return RFC3339.write(value, to: out) }
            slot[0] = UInt64(day &+ 1)
            slot[1] = raw.loadUnaligned(as: UInt64.self)
            slot[2] = UInt64(raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        }
        Self.writeTime(seconds &- day &* 86_400, to: out + 10)
        return 20
    }

    /// Stores `THH:MM:SSZ` of `secondOfDay` (0–86,399) at `out`, which has room for 10 bytes.
    @inline(__always)
    private static func writeTime(_ secondOfDay: Int, to out: UnsafeMutablePointer<UInt8>) {
        let pairs = DecimalDigits.pairs
        let hour = secondOfDay / 3600
        let rest = secondOfDay &- hour &* 3600
        let minute = rest / 60
        let second = rest &- minute &* 60
        let digits = pairs.utf8Start
        out[0] = UInt8(ascii: "T")
        out[1] = digits[hour &* 2]
        out[2] = digits[hour &* 2 &+ 1]
        out[3] = UInt8(ascii: ":")
        out[4] = digits[minute &* 2]
        out[5] = digits[minute &* 2 &+ 1]
        out[6] = UInt8(ascii: ":")
        out[7] = digits[second &* 2]
        out[8] = digits[second &* 2 &+ 1]
        out[9] = UInt8(ascii: "Z")
    }
}
