/// The strict parsing lane's memory of the last few strings it decoded from one payload, so that
/// a string whose bytes repeat (the product id of every renewal, an original transaction id equal
/// to the transaction id) is shared instead of decoded and allocated again. Dates are not kept:
/// the canonical RFC 3339 reader costs less than looking them up.
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

    init() {}

    /// Forgets every entry when `pointer` is not the buffer the entries were read from.
    @inline(__always)
    private mutating func use(_ pointer: UnsafePointer<UInt8>) {
        guard base != pointer else { return }
        base = pointer
        lastRange = 0..<0
        ranges = (0..<0, 0..<0, 0..<0, 0..<0)
    }

    /// The string of the bytes at `content` of `bytes` when they are all ASCII, else nil. An entry
    /// matches only bytes equal to ones already found to be ASCII, so only new strings are checked.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> String? {
        guard let pointer = bytes.baseAddress, !content.isEmpty else {
            return content.isEmpty ? "" : nil
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
                guard Self.isASCII(pointer + content.lowerBound, count: content.count) else { return nil }
                return remember(Self.asciiString(pointer + content.lowerBound, count: content.count), at: content)
            }
            lastRange = content
            lastString = found
            return found
        }
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
