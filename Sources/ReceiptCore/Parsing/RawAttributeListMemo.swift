/// The strict parsing lane's memory of the raw (untyped) attributes of the in-app purchase decoded
/// last, so that a purchase whose raw attributes repeat the previous purchase's (every renewal of
/// a subscription carries the same 1709, 1710, 1714…1718 attributes) shares that purchase's
/// `otherAttributes` array instead of allocating three arrays per attribute and a list again.
///
/// While the raw attributes of the current purchase match the previous purchase's, one by one in
/// order, nothing is appended: they are counted. The first one that differs (or an attribute the
/// general path appends, see ``adoptGeneralAppends(into:)``) makes the list real: the matched prefix is copied
/// and every later attribute appended, each still sharing an equal attribute of the previous list
/// when there is one. ``finish(into:)`` then either shares the previous list whole or keeps the new
/// one as the next purchase's template.
///
/// Attributes are compared byte for byte over their type, version and value content ranges in the
/// one buffer being parsed; an attribute shared is the very value `ReceiptAttribute(typeBytes:
/// versionBytes:value:)` gives for those bytes.
struct RawAttributeListMemo {
    /// The content ranges of one raw attribute in the buffer.
    private struct Ranges {
        var type: Range<Int>
        var version: Range<Int>
        var value: Range<Int>
    }

    private var base: UnsafePointer<UInt8>?
    /// The previous purchase's raw attributes and their ranges (same count). Empty while no
    /// template is known.
    private var template: [ReceiptAttribute] = []
    private var templateRanges: [Ranges] = []
    /// The ranges of the current purchase's raw attributes, once its list is real.
    private var currentRanges: [Ranges] = []
    /// How many raw attributes the current purchase has had so far.
    private var count = 0
    /// Whether every raw attribute so far equals the template's at the same index (none appended yet).
    private var matching = true
    /// Whether every raw attribute of the current purchase went through ``append(_:_:_:_:into:)``
    /// (their ranges are known, so the list can become the next template).
    private var rangesComplete = true

    /// The capacity a purchase's raw attribute list (and its ranges) starts with when it is not
    /// copied from the template: every purchase of the real fixtures has seven or eight.
    private static let initialCapacity = 8

    init() {}

    /// Starts a purchase read from `bytes`, whose `otherAttributes` is empty. Forgets the template
    /// when `bytes` is not the buffer it was read from.
    @inline(__always)
    mutating func begin(_ bytes: UnsafeBufferPointer<UInt8>) {
        if base != bytes.baseAddress {
            base = bytes.baseAddress
            template = []
            templateRanges.removeAll(keepingCapacity: true)
        }
        count = 0
        matching = true
        rangesComplete = true
        if !currentRanges.isEmpty { currentRanges.removeAll(keepingCapacity: true) }
    }

    /// Appends the raw attribute whose type, version and value content octets lie at the given
    /// ranges of `bytes` (the buffer passed to ``begin(_:)``, the ranges inside it) to the
    /// current purchase's list.
    mutating func append(
        _ bytes: UnsafeBufferPointer<UInt8>, type: Range<Int>, version: Range<Int>, value: Range<Int>,
        into list: inout [ReceiptAttribute]
    ) {
        let ranges = Ranges(type: type, version: version, value: value)
        if matching {
            if count < template.count, Self.same(bytes, templateRanges[count], ranges) {
                count &+= 1
                return
            }
            makeReal(into: &list)
        }
        var attribute: ReceiptAttribute?
        for index in templateRanges.indices where Self.same(bytes, templateRanges[index], ranges) {
            attribute = template[index]
            break
        }
        if list.capacity == 0 {
            // The first raw attribute of a purchase with no template to copy from (Apple's
            // purchases carry seven or eight): one allocation, where growing from empty made four.
            list.reserveCapacity(Self.initialCapacity)
            currentRanges.reserveCapacity(Self.initialCapacity)
        }
        list.append(attribute ?? ReceiptAttribute(
            typeBytes: SharedAttributeBytes.array(UnsafeBufferPointer(rebasing: bytes[type])),
            versionBytes: SharedAttributeBytes.array(UnsafeBufferPointer(rebasing: bytes[version])),
            value: SharedAttributeBytes.array(UnsafeBufferPointer(rebasing: bytes[value]))))
        currentRanges.append(ranges)
        count &+= 1
    }

    /// Puts the attributes the general path appended to `list` directly (after the ones this memo
    /// holds back, so the encoded order is kept). Their ranges are not known here, so this
    /// purchase's list will not become a template.
    mutating func adoptGeneralAppends(into list: inout [ReceiptAttribute]) {
        guard rangesComplete else { return }  // the list is already real and appended to in order
        let known = matching ? 0 : currentRanges.count
        guard list.count != known else { return }
        rangesComplete = false
        guard matching else { return }
        let appended = list
        list = []
        makeReal(into: &list)
        list.append(contentsOf: appended)
    }

    /// Ends the current purchase (decoded whole by the strict lane): shares the template when the
    /// purchase's raw attributes are exactly the template's, and otherwise keeps the purchase's
    /// list as the next template when all its ranges are known.
    @inline(__always)
    mutating func finish(into list: inout [ReceiptAttribute]) {
        if matching {
            guard count > 0 else { return }
            if count == template.count {
                list = template
                return
            }
            makeReal(into: &list)
        }
        if rangesComplete {
            template = list
            swap(&templateRanges, &currentRanges)
        }
    }

    /// Copies the matched prefix of the template into `list` (empty until now) and stops matching.
    private mutating func makeReal(into list: inout [ReceiptAttribute]) {
        matching = false
        guard count > 0 else { return }
        list.reserveCapacity(max(template.count, count &+ 1))
        list.append(contentsOf: template[0..<count])
        currentRanges.append(contentsOf: templateRanges[0..<count])
    }

    /// Whether two attributes' content octets are equal.
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Ranges, _ b: Ranges) -> Bool {
        equal(bytes, a.type, b.type) && equal(bytes, a.version, b.version) && equal(bytes, a.value, b.value)
    }

    /// Whether two ranges of `bytes` (inside it) hold the same octets.
    @inline(__always)
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        guard a != b, !a.isEmpty, let base = bytes.baseAddress else { return true }
        return RepeatedValueMemo.equal(base + a.lowerBound, base + b.lowerBound, count: a.count)
    }
}
