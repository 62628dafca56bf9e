#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The strict parsing lane's memory of the last few strings and canonical dates it decoded from
/// one payload, so that a value whose bytes repeat (the product id of every renewal, an original
/// transaction id equal to the transaction id, an original purchase date equal to the purchase
/// date) is shared instead of decoded (and, for a string, allocated) again. Only 20-byte dates
/// (`YYYY-MM-DDTHH:MM:SSZ`) are kept, compared with three word loads.
///
/// Entries are ranges of the one buffer being parsed, compared byte for byte; the
/// result is the very value decoding those bytes would give. The string and date entries are fixed
/// in size and allocate nothing of their own.
struct RepeatedValueMemo {
    /// Strings longer than this are kept in the four-entry ring; shorter ones (stored inline by
    /// `String`) are only compared with the short string decoded just before.
    private static let smallStringLimit = 15

    private var base: UnsafePointer<UInt8>?
    /// The short string decoded last (an empty range matches nothing).
    private var lastRange = 0..<0
    private var lastString = ""
    /// Four long strings, replaced in a ring that gives a second chance to the entries matched
    /// since the ring's hand last passed them (bit `i` of `matchedStrings` for entry `i`): the
    /// product id and original transaction id every renewal repeats stay, and the transaction ids,
    /// new in each purchase, take turns in the other entries. (A plain ring let every purchase's
    /// new transaction id push them out once per round of four: the real 187-purchase receipt
    /// made 313 strings, for 187 transaction ids, one original transaction id and 3 product ids.)
    private var ranges: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
    private var strings: (String, String, String, String) = ("", "", "", "")
    private var nextString = 0
    private var matchedStrings: UInt8 = 0
    /// The offsets of the last two 20-byte dates (-1: none) and their values.
    private var dateStarts = (-1, -1)
    private var dates = (Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0))
    private var nextDate = 0
    /// The raw attributes of the purchase decoded last (see ``RawAttributeListMemo``).
    var rawAttributes = RawAttributeListMemo()

    init() {}

    /// Forgets every entry when `pointer` is not the buffer the entries were read from.
    @inline(__always)
    private mutating func use(_ pointer: UnsafePointer<UInt8>) {
        guard base != pointer else { return }
        base = pointer
        lastRange = 0..<0
        ranges = (0..<0, 0..<0, 0..<0, 0..<0)
        matchedStrings = 0
        dateStarts = (-1, -1)
    }

    /// The string of the bytes at `content` of `bytes` when they are all ASCII, else nil. An entry
    /// matches only bytes equal to ones already found to be ASCII, so only new strings are checked.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> String? {
        guard let pointer = bytes.baseAddress, !content.isEmpty else {
            return content.isEmpty ? "" : nil
        }
        use(pointer)
        if content.count > Self.smallStringLimit {
            let found: String
            if Self.same(pointer, ranges.0, content) {
                found = strings.0
                matchedStrings |= 1
            } else if Self.same(pointer, ranges.1, content) {
                found = strings.1
                matchedStrings |= 2
            } else if Self.same(pointer, ranges.2, content) {
                found = strings.2
                matchedStrings |= 4
            } else if Self.same(pointer, ranges.3, content) {
                found = strings.3
                matchedStrings |= 8
            } else {
                guard Self.isASCII(pointer + content.lowerBound, count: content.count) else { return nil }
                return remember(Self.asciiString(pointer + content.lowerBound, count: content.count), at: content)
            }
            return found
        }
        if Self.same(pointer, lastRange, content) { return lastString }
        guard Self.isASCII(pointer + content.lowerBound, count: content.count) else { return nil }
        let value = Self.asciiString(pointer + content.lowerBound, count: content.count)
        lastRange = content
        lastString = value
        return value
    }

    /// The string of `count` ASCII bytes at `start`, copied straight into its storage (the caller
    /// checked they are ASCII).
    @inline(__always)
    private static func asciiString(_ start: UnsafePointer<UInt8>, count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            guard let target = buffer.baseAddress else { return 0 }
            target.initialize(from: start, count: count)
            return count
        }
    }

    /// Whether the `count` (> 0) bytes at `start` are all below 0x80: eight at a time, the last
    /// eight overlapping the ones before when `count` is not a multiple of eight.
    @inline(__always)
    static func isASCII(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(start)
        var bits: UInt64 = 0
        if count >= 8 {
            var offset = 0
            while count &- offset >= 8 {
                bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            if offset < count { bits |= raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) }
        } else {
            for offset in 0..<count { bits |= UInt64(start[offset]) }
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// ``RFC3339/parse(utf8:)`` of the bytes at `content` of `bytes` (nil when they are not a date).
    mutating func date(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> Date? {
        guard content.count == 20, let pointer = bytes.baseAddress else {
            return RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content]))
        }
        use(pointer)
        let start = content.lowerBound
        if dateStarts.0 >= 0, Self.equal20(pointer + dateStarts.0, pointer + start) { return dates.0 }
        if dateStarts.1 >= 0, Self.equal20(pointer + dateStarts.1, pointer + start) { return dates.1 }
        guard let value = RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content])) else { return nil }
        if nextDate == 0 { (dateStarts.0, dates.0) = (start, value) } else { (dateStarts.1, dates.1) = (start, value) }
        nextDate ^= 1
        return value
    }

    /// Whether the 20 bytes at `a` and at `b` (both inside the buffer) are equal.
    @inline(__always)
    private static func equal20(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) -> Bool {
        let left = UnsafeRawPointer(a)
        let right = UnsafeRawPointer(b)
        let first = left.loadUnaligned(as: UInt64.self) ^ right.loadUnaligned(as: UInt64.self)
        let second = left.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ right.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let third = left.loadUnaligned(fromByteOffset: 16, as: UInt32.self) ^ right.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        return first | second | UInt64(third) == 0
    }

    /// Keeps a newly decoded long string in the ring, in the first entry from the hand on not
    /// matched since the hand last passed it (clearing the marks it passes: after four, none is
    /// left, so the hand moves at most four places).
    private mutating func remember(_ value: String, at content: Range<Int>) -> String {
        for _ in 0..<4 {
            let bit: UInt8 = 1 << UInt8(truncatingIfNeeded: nextString)
            guard matchedStrings & bit != 0 else { break }
            matchedStrings &= ~bit
            nextString = (nextString &+ 1) & 3
        }
        switch nextString {
        case 0: (ranges.0, strings.0) = (content, value)
        case 1: (ranges.1, strings.1) = (content, value)
        case 2: (ranges.2, strings.2) = (content, value)
        default: (ranges.3, strings.3) = (content, value)
        }
        nextString = (nextString &+ 1) & 3
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
    /// `memcmp` for the short values compared here). Also ``RawAttributeListMemo``'s comparison.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
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
