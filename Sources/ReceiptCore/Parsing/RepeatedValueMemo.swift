#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The strict parsing lane's memory of the last few long strings and dates it decoded from one
/// payload, so that a value whose bytes repeat (the product id of every renewal, an original
/// transaction id equal to the transaction id, a purchase date equal to the original purchase
/// date) is shared instead of decoded and allocated again.
///
/// Entries are ranges of the one buffer being parsed, compared byte for byte with `memcmp`; the
/// result is the very value decoding those bytes would give. Fixed size, no allocation of its own.
struct RepeatedValueMemo {
    /// Strings of at most this many bytes are stored inline by `String` and not worth sharing.
    private static let smallStringLimit = 15

    private var base: UnsafePointer<UInt8>?
    private var strings: (Slot<String>, Slot<String>, Slot<String>, Slot<String>) = (.empty, .empty, .empty, .empty)
    private var nextString = 0
    private var dates: (Slot<Date>, Slot<Date>) = (.empty, .empty)
    private var nextDate = 0

    private struct Slot<Value> {
        var range: Range<Int>
        var value: Value?
        static var empty: Slot { Slot(range: 0..<0, value: nil) }
    }

    init() {}

    /// The ASCII string at `content` of `bytes` (the caller checked it is ASCII).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> String {
        guard content.count > Self.smallStringLimit, let pointer = bytes.baseAddress else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        }
        if base != pointer { self = RepeatedValueMemo(); base = pointer }
        for index in 0..<4 {
            let slot = stringSlot(index)
            if let value = slot.value, Self.same(pointer, slot.range, content) { return value }
        }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        setStringSlot(nextString, Slot(range: content, value: value))
        nextString = (nextString + 1) & 3
        return value
    }

    /// ``RFC3339/parse(utf8:)`` of the bytes at `content` of `bytes` (nil when they are not a date).
    mutating func date(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> Date? {
        guard let pointer = bytes.baseAddress else { return RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content])) }
        if base != pointer { self = RepeatedValueMemo(); base = pointer }
        if let value = dates.0.value, Self.same(pointer, dates.0.range, content) { return value }
        if let value = dates.1.value, Self.same(pointer, dates.1.range, content) { return value }
        guard let value = RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: bytes[content])) else { return nil }
        if nextDate == 0 { dates.0 = Slot(range: content, value: value) } else { dates.1 = Slot(range: content, value: value) }
        nextDate ^= 1
        return value
    }

    private static func same(_ base: UnsafePointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && (a == b || memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0)
    }

    private func stringSlot(_ index: Int) -> Slot<String> {
        switch index {
        case 0: strings.0
        case 1: strings.1
        case 2: strings.2
        default: strings.3
        }
    }

    private mutating func setStringSlot(_ index: Int, _ slot: Slot<String>) {
        switch index {
        case 0: strings.0 = slot
        case 1: strings.1 = slot
        case 2: strings.2 = slot
        default: strings.3 = slot
        }
    }
}
