#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict DER TLV reader over a buffer: single-octet tags, definite minimal lengths, every
/// length checked against the enclosing element. No allocation.
///
/// The one strict DER reader of the package: the certificate and signed-attribute rules, the
/// verified-chain cache's envelope and template, the GnuTLS adapter's layout of its re-encoding,
/// the parser's strict lane (``ReceiptAttributeSet``, ``StrictValueReader``) and the ECDSA signature
/// conversion all read their TLV headers here, and nowhere else. It stays beside swift-asn1's
/// `DER` parser, which builds a node tree, because it reads in place without allocating: the
/// benchmark lines that keep it are `parse only (ReceiptParser)` and `full, warm cache`
/// (`receipt-bench`, and `--loop parse|validate` under callgrind), where the strict lane and the
/// fast path read every TLV of a receipt through ``element(at:within:)``,
/// ``shortElement(at:within:)`` and ``shortAttributeLength(at:within:)``.
package struct DERCursor {
    /// One element.
    package struct Element: Sendable, Equatable {
        /// The identifier octet.
        package var tag: UInt8
        /// Offset of the identifier octet.
        package var start: Int
        /// Offset of the first content octet.
        package var contentStart: Int
        /// One past the last content octet.
        package var end: Int
        /// The whole TLV.
        package var whole: Range<Int> { start..<end }
        /// The identifier, named (compare with this, not with ``tag``'s number).
        @inline(__always) package var identifier: ASN1Tag { ASN1Tag(octet: tag) }
    }

    package let bytes: UnsafeBufferPointer<UInt8>

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The element starting at `offset`, which must end at or before `limit`; `nil` when it is not
    /// strict DER or does not fit.
    @inline(__always)
    package func element(at offset: Int, within limit: Int) -> Element? {
        guard offset >= 0, limit <= bytes.count, offset < limit, limit - offset >= 2 else { return nil }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { return nil }
        guard let (contentStart, length) = length(at: offset + 1, within: limit) else { return nil }
        return Element(tag: tag, start: offset, contentStart: contentStart, end: contentStart + length)
    }

    /// The length octets at `index` (below `limit`, itself at most `bytes.count`): the content's
    /// start and length when they are in short form or minimal long form of at most four octets and
    /// the content fits before `limit`; `nil` otherwise. The one length decoder of strict DER: the
    /// short form and the one- and two-octet long forms (every length of a receipt below 64 KiB)
    /// are read without a loop.
    @inline(__always)
    package func length(at index: Int, within limit: Int) -> (contentStart: Int, length: Int)? {
        let first = bytes[index]
        let start: Int
        let length: Int
        if first < 0x80 {
            start = index &+ 1
            length = Int(first)
        } else if first == 0x81 {
            guard limit &- index >= 2 else { return nil }
            start = index &+ 2
            length = Int(bytes[index &+ 1])
            guard length >= 0x80 else { return nil }  // non-minimal
        } else if first == 0x82 {
            guard limit &- index >= 3, bytes[index &+ 1] != 0 else { return nil }  // no leading zero, so >= 0x100
            start = index &+ 3
            length = Int(bytes[index &+ 1]) << 8 | Int(bytes[index &+ 2])
        } else {
            let count = Int(first & 0x7F)
            guard count >= 3, count <= 4, limit &- index > count, bytes[index &+ 1] != 0 else { return nil }
            var value = 0
            for octet in 1...count { value = (value << 8) | Int(bytes[index &+ octet]) }
            start = index &+ 1 &+ count
            length = value
        }
        guard length <= limit &- start else { return nil }
        return (start, length)
    }

    /// ``element(at:within:)`` for an element whose length is in short form (below 128 octets),
    /// for callers that have checked `0 <= offset` and `limit <= bytes.count`: `nil` when fewer
    /// than two octets are left, the length is in long form, or the content does not fit. The
    /// identifier is not checked (a multi-octet tag's first octet is returned as it stands): the
    /// caller compares it with the one tag it expects.
    @inline(__always)
    package func shortElement(at offset: Int, within limit: Int) -> Element? {
        guard limit &- offset >= 2 else { return nil }
        let length = Int(bytes[offset &+ 1])
        let contentStart = offset &+ 2
        guard length < 0x80, length <= limit &- contentStart else { return nil }
        return Element(tag: bytes[offset], start: offset, contentStart: contentStart, end: contentStart &+ length)
    }

    /// The eight octets `SEQUENCE L INTEGER 2 t t INTEGER 1` (`30 L 02 02 t t 02 01`) of a receipt
    /// attribute with a two-octet type and a one-octet version in short form, loaded little-endian,
    /// with `L`, `t` and `t` masked out (a test checks it against ``ASN1Tag``'s octets).
    static let attributeHeadMask: UInt64 = 0xFFFF_0000_FFFF_00FF
    /// The masked value ``attributeHeadMask`` selects.
    static let attributeHead: UInt64 = 0x0102_0000_0202_0030

    /// The SEQUENCE's content length when the octets at `offset` start
    /// `SEQUENCE L INTEGER 2 t t INTEGER 1 v OCTET-STRING L-9` in short form with the SEQUENCE
    /// ending at or before `limit` (a receipt attribute with a two-octet type and a one-octet
    /// version, the usual shape inside an in-app purchase), checked with one eight-octet load;
    /// `nil` otherwise. ``shortElement(at:within:)`` read four times gives the same ranges.
    @inline(__always)
    package func shortAttributeLength(at offset: Int, within limit: Int) -> Int? {
        guard offset >= 0, limit <= bytes.count, limit &- offset >= 11, let base = bytes.baseAddress else { return nil }
        // Offsets up to offset + 10 are below limit (checked above), itself at most bytes.count.
        let head = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        let length = Int(truncatingIfNeeded: head >> 8) & 0xFF
        guard head & Self.attributeHeadMask == Self.attributeHead, length < 0x80, length >= 9,
              length <= limit &- offset &- 2, ASN1Tag(octet: bytes[offset &+ 9]) == .octetString,
              Int(bytes[offset &+ 10]) == length &- 9
        else { return nil }
        return length
    }

    /// The two's-complement value of an element's one to eight content octets (an INTEGER's, read
    /// as `ASN1Integer.decode` reads them); `nil` for no content or more than eight octets.
    @inline(__always)
    package func int64(contentOf element: Element) -> Int64? {
        let count = element.end &- element.contentStart
        guard count >= 1, count <= 8 else { return nil }
        return ASN1Integer.value(ofAtMostEight: bytes[element.contentStart..<element.end], first: bytes[element.contentStart])
    }

    /// More children than this in one element are refused by ``children(of:)``.
    package static let maximumChildren = 4096

    /// The elements inside a constructed element, or `nil` when it is primitive, when they do not
    /// tile its content exactly, or when there are more than ``maximumChildren``.
    package func children(of parent: Element) -> [Element]? {
        guard parent.identifier.isConstructed else { return nil }
        var result: [Element] = []
        var position = parent.contentStart
        while position < parent.end {
            guard result.count < Self.maximumChildren, let child = element(at: position, within: parent.end) else { return nil }
            result.append(child)
            position = child.end
        }
        return result
    }

    /// Whether the bytes in `range` equal `expected`.
    package func equals(_ range: Range<Int>, _ expected: [UInt8]) -> Bool {
        guard range.count == expected.count, range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        guard let base = bytes.baseAddress, !range.isEmpty else { return range.isEmpty }
        return expected.withUnsafeBufferPointer { other in
            guard let otherBase = other.baseAddress else { return false }
            return memcmp(base + range.lowerBound, otherBase, range.count) == 0
        }
    }
}
