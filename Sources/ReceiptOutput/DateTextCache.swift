#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// The compact RFC 3339 texts of the dates ``JSONByteWriter`` wrote lately.
///
/// A direct-mapped cache of ``slots`` entries: the bit pattern of each date's
/// `timeIntervalSince1970` (`UInt64.max`, a NaN no date is cached with, when empty) and,
/// ``slotSize`` bytes a slot, its text's length and text. A subscription's renewals repeat their
/// dates (a renewal starts when the last one expires, and all of them have the same original
/// purchase date): 304 of the 561 dates of the real 187-purchase receipt. After the slots comes
/// the `YYYY-MM-DD` text of the day formatted last: a renewal's purchase date and expiry date
/// mostly fall on one day, so a date missing from the cache often needs only its time formatted.
struct DateTextCache: ~Copyable {
    private let keys: UnsafeMutablePointer<UInt64>
    private let texts: UnsafeMutablePointer<UInt8>
    /// The day (days since 1970-01-01) of the date formatted last, whose text follows the slots.
    private var lastDay = Int.min
    private static let slots = 16
    private static let slotSize = 1 + RFC3339.maximumCompactLength
    private static let dayTextLength = 10

    /// An empty cache.
    init() {
        keys = .allocate(capacity: Self.slots)
        keys.initialize(repeating: .max, count: Self.slots)
        texts = .allocate(capacity: Self.slots * Self.slotSize + Self.dayTextLength)
    }

    deinit {
        keys.deallocate()
        texts.deallocate()
    }

    /// Stores ``RFC3339/write(_:to:)``'s text of `value` at `out` (room for
    /// `RFC3339.maximumCompactLength` bytes) and returns its length: the cached text when a date
    /// with the same bits was written lately, else the text formatted now (and cached); nil
    /// (nothing stored) where `RFC3339.write` stores nothing.
    mutating func write(_ value: Date, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let key = value.timeIntervalSince1970.bitPattern
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 60) & (Self.slots - 1)
        let cached = texts + slot * Self.slotSize
        if key != .max, keys[slot] == key {
            // The text is a function of the interval alone: the same bits, the same text.
            let length = Int(cached[0])
            out.update(from: cached + 1, count: length)
            return length
        }
        guard let length = format(value, to: out) else { return nil }
        keys[slot] = key
        cached[0] = UInt8(truncatingIfNeeded: length)
        (cached + 1).update(from: out, count: length)
        return length
    }

    /// Formats `value` at `out`, taking the day's text from the last date formatted when it fell
    /// on the same day; nil (nothing stored) where `RFC3339.write` stores nothing.
    private mutating func format(_ value: Date, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let parts = RFC3339.compactParts(of: value) else { return nil }
        let dayText = texts + Self.slots * Self.slotSize
        if parts.day == lastDay {
            out.update(from: dayText, count: Self.dayTextLength)
        } else {
            guard RFC3339.writeDay(parts.day, to: out) == Self.dayTextLength else { return nil }
            dayText.update(from: out, count: Self.dayTextLength)
            lastDay = parts.day
        }
        let time = RFC3339.writeTime(secondOfDay: parts.secondOfDay, millisecond: parts.millisecond, to: out + Self.dayTextLength)
        return Self.dayTextLength + time
    }
}
