#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The strict parsing lane's memory of the last few strings and dates it decoded from one
/// payload, so that a value whose bytes repeat (the product id of every renewal, an original
/// transaction id equal to the transaction id, a purchase date equal to the original purchase
/// date) is shared instead of decoded and allocated again.
///
/// Entries are ranges of the one buffer being parsed, compared byte for byte; the
/// result is the very value decoding those bytes would give. Fixed size, no allocation of its own.
struct RepeatedValueMemo {
    /// Strings longer than this are kept in the four-entry ring; shorter ones (stored inline by
    /// `String`) are only compared with the string decoded just before.
    private static let smallStringLimit = 15

    private var base: UnsafePointer<UInt8>?
    /// The string decoded last, of any length (an empty range matches nothing).
    private var lastRange = 0..<0
    private var lastString = ""
    /// The last four long strings.
    private var ranges: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
    private var strings: (String, String, String, String) = ("", "", "", "")
    private var nextString = 0
    /// The last two dates.
    private var dateRanges: (Range<Int>, Range<Int>) = (0..<0, 0..<0)
    private var dates: (Date, Date) = (Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0))
    private var nextDate = 0

    init() {}

    /// Forgets every entry when `pointer` is not the buffer the entries were read from.
    @inline(__always)
    private mutating func use(_ pointer: UnsafePointer<UInt8>) {
        guard base != pointer else { return }
        base = pointer
        lastRange = 0..<0
        ranges = (0..<0, 0..<0, 0..<0, 0..<0)
        dateRanges = (0..<0, 0..<0)
    }

    /// The ASCII string at `content` of `bytes` (the caller checked it is ASCII).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> String {
        guard let pointer = bytes.baseAddress, !content.isEmpty else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        }
        use(pointer)
        if Self.same(pointer, lastRange, content) { return lastString }
        let long = content.count > Self.smallStringLimit
        if long {
            let found: String
            if Self.same(pointer, ranges.0, content) {
                found = strings.0
            } else if Self.same(pointer, ranges.1, content) {
                found = strings.1
            } else if Self.same(pointer, ranges.2, content) {
                found = strings.2
            } else if Self.same(pointer, ranges.3, content) {
                found = strings.3
            } else {
                return remember(String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self), at: content)
            }
            lastRange = content
            lastString = found
            return found
        }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        lastRange = content
        lastString = value
        return value
    }

    /// Keeps a newly decoded long string as the last one and in the ring.
    private mutating func remember(_ value: String, at content: Range<Int>) -> String {
        lastRange = content
        lastString = value
        switch nextString {
        case 0: (ranges.0, strings.0) = (content, value)
        case 1: (ranges.1, strings.1) = (content, value)
        case 2: (ranges.2, strings.2) = (content, value)
        default: (ranges.3, strings.3) = (content, value)
        }
        nextString = (nextString &+ 1) & 3
        return value
    }

    /// ``RFC3339/parse(utf8:)`` of the bytes at `content` of `bytes` (nil when they are not a date).
    mutating func date(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> Date? {
        guard let pointer = bytes.baseAddress, !content.isEmpty else {
            return RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content]))
        }
        use(pointer)
        if Self.same(pointer, dateRanges.0, content) { return dates.0 }
        if Self.same(pointer, dateRanges.1, content) { return dates.1 }
        guard let value = RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content])) else { return nil }
        if nextDate == 0 { (dateRanges.0, dates.0) = (content, value) } else { (dateRanges.1, dates.1) = (content, value) }
        nextDate ^= 1
        return value
    }

    /// Whether the non-empty ranges `a` and `b` of the buffer at `base` hold the same bytes.
    /// Both ranges were read from that buffer before (they lie inside it).
    @inline(__always)
    private static func same(_ base: UnsafePointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && !a.isEmpty && (a == b || equal(base + a.lowerBound, base + b.lowerBound, count: a.count))
    }

    /// Whether `count` (> 0) bytes at `a` and at `b` are equal: eight bytes at a time, the last
    /// eight overlapping the ones before when `count` is not a multiple of eight (no call to
    /// `memcmp` for the short values compared here).
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let left = UnsafeRawPointer(a)
        let right = UnsafeRawPointer(b)
        if count >= 8 {
            var difference: UInt64 = 0
            var offset = 0
            while count &- offset > 8 {
                difference |= left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    ^ right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            let last = count &- 8
            difference |= left.loadUnaligned(fromByteOffset: last, as: UInt64.self) ^ right.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            return difference == 0
        }
        var difference: UInt8 = 0
        for offset in 0..<count { difference |= a[offset] ^ b[offset] }
        return difference == 0
    }
}
