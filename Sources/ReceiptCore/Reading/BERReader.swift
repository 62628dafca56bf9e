/// One decoded BER/DER TLV with absolute byte offsets into the buffer it was read from.
///
/// A small, bounded reader used where offsets matter (error reporting) or where swift-asn1's strict
/// DER parser cannot go (BER indefinite lengths, constructed OCTET STRINGs in Xcode receipts).
/// Primitive values are never copied: a node only records where its content lies.
struct BERNode: Sendable {
    /// The tag class: 0 universal, 1 application, 2 context-specific, 3 private.
    var tagClass: UInt8
    /// Whether the constructed bit is set.
    var isConstructed: Bool
    /// The tag number (bounded to 28 bits).
    var tagNumber: UInt32
    /// Offset of the first identifier octet.
    var offset: Int
    /// Offset of the first content octet.
    var contentStart: Int
    /// Offset one past the last content octet (the end-of-contents octets excluded).
    var contentEnd: Int
    /// Offset one past the whole element (end-of-contents octets included).
    var end: Int
    /// Whether the length was encoded in the indefinite form.
    var isIndefiniteLength: Bool
    /// Children, for constructed nodes.
    var children: [BERNode]

    /// Whether the tag is of the universal class (any number, either form).
    var isUniversalClass: Bool {
        tagClass == 0
    }

    /// ``ASN1Tag/mayBeConstructed`` for this node's tag; a multi-octet tag only outside the
    /// universal class.
    var mayBeConstructed: Bool {
        identifier?.mayBeConstructed ?? !isUniversalClass
    }

    /// The number of content octets.
    var contentLength: Int { contentEnd - contentStart }

    /// Whether this is a universal string type (BIT STRING, OCTET STRING and the character strings)
    /// in constructed form, which BER allows and DER does not.
    var isConstructedString: Bool {
        tagClass == 0 && isConstructed && BERReader.isStringTag(tagNumber)
    }

    /// The identifier octets of this node's class and number with the constructed bit `constructed`:
    /// one octet for numbers below 31, else the high-tag-number form (`1F` then base-128 groups).
    func identifierOctets(constructed: Bool) -> [UInt8] {
        let leading = (tagClass << 6) | (constructed ? 0x20 : 0)
        guard tagNumber >= 0x1F else { return [leading | UInt8(tagNumber)] }
        var octets: [UInt8] = [leading | 0x1F]
        var groups: [UInt8] = []
        var number = tagNumber
        repeat {
            groups.append(UInt8(number & 0x7F))
            number >>= 7
        } while number > 0
        for (index, group) in groups.reversed().enumerated() {
            octets.append(index == groups.count - 1 ? group : group | 0x80)
        }
        return octets
    }

    /// The identifier, named; `nil` for a multi-octet tag (number 31 and above).
    var identifier: ASN1Tag? {
        guard tagNumber < 31 else { return nil }
        return ASN1Tag(octet: tagClass << 6 | (isConstructed ? 0x20 : 0) | UInt8(tagNumber))
    }
}

/// A structural problem found while reading BER, with the byte offset where it was found.
struct BERError: Error, Sendable {
    /// The absolute byte offset.
    var offset: Int
    /// What was wrong.
    var reason: String
}

/// Bounded BER reader. Every length is checked against the enclosing element before use, nesting is
/// limited, and the total number of nodes per parse is limited, so hostile input can neither crash
/// nor make it allocate more than a bounded multiple of its own size.
///
/// The one BER reader of the package (with ``DERCursor``, the one strict DER reader): every BER
/// TLV header is decoded by ``header(_:at:limit:)``, or taken from a strict DER reading of the
/// same bytes that decoded it already (``DecodedHeaders``, the validator's one walk). It stays beside swift-asn1's `BER` parser,
/// which also reads indefinite lengths and constructed strings, for what that parser does not
/// give: the byte offset of every node and of every error (the `not_pkcs7` messages of
/// ``SignedDataStructure`` and ``PKCS7Container``, and `dump`), whether the input was DER or needed
/// BER, and a bound on the number of nodes. It serves the structure check that runs before every
/// cold verification (benchmark lines `full, cache off` and `full, cold cache`), the container walk,
/// the parser's general lane (Xcode's BER receipts) and the decoding of one attribute value
/// (`ASN1Value`, on the `parse only (ReceiptParser)` line for values the strict lane leaves).
struct BERReader {
    /// The bytes being read.
    let bytes: [UInt8]
    /// Maximum nesting depth of constructed elements.
    let maximumDepth: Int
    /// Maximum number of nodes one `parse` call may create.
    let maximumNodes: Int
    /// Nodes created so far.
    private(set) var nodeCount = 0
    /// Whether anything outside DER was seen (indefinite or non-minimal lengths, constructed strings).
    private(set) var sawNonDER = false
    /// Headers a strict DER reading of the same bytes already decoded, ordered by offset
    /// (``DecodedHeaders``): a node starting at one of them takes it instead of decoding it again.
    private let decoded: [DERCursor.Element]
    /// The first of ``decoded`` not yet passed (a pre-order reading meets offsets in order).
    private var nextDecoded = 0
    /// How many node headers were taken from ``decoded`` rather than decoded.
    private(set) var takenHeaders = 0
    /// How many headers at an offset in ``decoded`` were decoded again all the same (one that
    /// does not fit where this reading meets it; none does: a strict DER reading's elements are
    /// nodes of this reading's tree). The validator counts a second walk when this is not 0.
    private(set) var redecodedHeaders = 0

    init(_ bytes: [UInt8], maximumDepth: Int = 32, maximumNodes: Int = 500_000) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
        self.decoded = []
    }

    /// A reader that takes the headers in `decoded` (read from these `bytes`) instead of decoding
    /// them again; the nodes it reads are the ones the reader without them reads.
    init(_ bytes: [UInt8], maximumDepth: Int, maximumNodes: Int, decoded: DecodedHeaders) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
        self.decoded = decoded.sorted()
    }

    /// Reads exactly one element spanning `range` (no trailing bytes).
    mutating func parseSingle(in range: Range<Int>) throws(BERError) -> BERNode {
        let node = try parseNode(at: range.lowerBound, limit: range.upperBound, depth: 0)
        if node.end != range.upperBound {
            throw BERError(offset: node.end, reason: "\(range.upperBound - node.end) trailing byte(s) after the element")
        }
        return node
    }

    /// Reads one element starting at `offset`, not extending past `limit` (trailing bytes allowed).
    mutating func parsePrefix(at offset: Int, limit: Int) throws(BERError) -> BERNode {
        try parseNode(at: offset, limit: limit, depth: 0)
    }

    /// Reads one element header and, for constructed elements, its children.
    private mutating func parseNode(at start: Int, limit: Int, depth: Int) throws(BERError) -> BERNode {
        guard depth <= maximumDepth else {
            throw BERError(offset: start, reason: "nesting deeper than \(maximumDepth) levels")
        }
        nodeCount += 1
        guard nodeCount <= maximumNodes else {
            throw BERError(offset: start, reason: "more than \(maximumNodes) ASN.1 elements")
        }
        let header = try nodeHeader(at: start, limit: limit)
        let tagClass = header.tagClass
        let isConstructed = header.isConstructed
        let tagNumber = header.tagNumber
        let position = header.contentStart
        if !header.isMinimalLength { sawNonDER = true }
        let definiteLength = header.length

        if let length = definiteLength {
            let contentEnd = position + length
            var children: [BERNode] = []
            if isConstructed {
                var childStart = position
                while childStart < contentEnd {
                    let child = try parseNode(at: childStart, limit: contentEnd, depth: depth + 1)
                    children.append(child)
                    childStart = child.end
                }
            }
            if isConstructed, tagClass == 0, Self.isStringTag(tagNumber) { sawNonDER = true }
            return BERNode(
                tagClass: tagClass, isConstructed: isConstructed, tagNumber: tagNumber, offset: start,
                contentStart: position, contentEnd: contentEnd, end: contentEnd,
                isIndefiniteLength: false, children: children
            )
        }

        // Indefinite length: children until the end-of-contents octets 00 00.
        var children: [BERNode] = []
        var childStart = position
        while true {
            guard limit - childStart >= 2 else {
                throw BERError(offset: childStart, reason: "unexpected end of data: end-of-contents octets missing")
            }
            if bytes[childStart] == 0, bytes[childStart + 1] == 0 { break }
            let child = try parseNode(at: childStart, limit: limit, depth: depth + 1)
            children.append(child)
            childStart = child.end
        }
        if tagClass == 0, Self.isStringTag(tagNumber) { sawNonDER = true }
        return BERNode(
            tagClass: tagClass, isConstructed: true, tagNumber: tagNumber, offset: start,
            contentStart: position, contentEnd: childStart, end: childStart + 2,
            isIndefiniteLength: true, children: children
        )
    }

    /// The header of the node at `start`: the one already decoded there (``decoded``), when it
    /// ends within `limit`, else ``header(_:at:limit:)``'s.
    @inline(__always)
    private mutating func nodeHeader(at start: Int, limit: Int) throws(BERError) -> Header {
        while nextDecoded < decoded.count, decoded[nextDecoded].start < start { nextDecoded += 1 }
        if nextDecoded < decoded.count, decoded[nextDecoded].start == start {
            if decoded[nextDecoded].end <= limit, start < limit {
                takenHeaders += 1
                return Header(decoded[nextDecoded])
            }
            redecodedHeaders += 1
        }
        return try Self.header(bytes, at: start, limit: limit)
    }

    /// One identifier and length, as ``header(_:at:limit:)`` reads them.
    struct Header {
        /// The first identifier octet.
        var octet: UInt8
        /// The tag class: 0 universal, 1 application, 2 context-specific, 3 private.
        var tagClass: UInt8
        /// Whether the constructed bit is set.
        var isConstructed: Bool
        /// The tag number (bounded to 28 bits).
        var tagNumber: UInt32
        /// Offset of the first length octet.
        var lengthOffset: Int
        /// Offset of the first content octet.
        var contentStart: Int
        /// The definite length (at most `limit - contentStart`), or `nil` for the indefinite form.
        var length: Int?
        /// Whether the length is definite and in its minimal form (as DER requires).
        var isMinimalLength: Bool

        /// The identifier, named; `nil` for a multi-octet tag (number 31 and above).
        var identifier: ASN1Tag? {
            tagNumber < 31 ? ASN1Tag(octet: octet) : nil
        }

        /// The header of a strict DER element: what ``header(_:at:limit:)`` decodes at its start
        /// (a one-octet tag, a minimal definite length).
        init(_ element: DERCursor.Element) {
            let tag = element.identifier
            self.init(
                octet: element.tag, tagClass: tag.tagClass, isConstructed: tag.isConstructed, tagNumber: UInt32(tag.number),
                lengthOffset: element.start + 1, contentStart: element.contentStart, length: element.end - element.contentStart,
                isMinimalLength: true)
        }

        /// A header with every field given.
        init(
            octet: UInt8, tagClass: UInt8, isConstructed: Bool, tagNumber: UInt32, lengthOffset: Int, contentStart: Int, length: Int?,
            isMinimalLength: Bool
        ) {
            self.octet = octet
            self.tagClass = tagClass
            self.isConstructed = isConstructed
            self.tagNumber = tagNumber
            self.lengthOffset = lengthOffset
            self.contentStart = contentStart
            self.length = length
            self.isMinimalLength = isMinimalLength
        }
    }

    /// The identifier and length octets of the element at `start`, which must lie before `limit`
    /// (at most `bytes.count`): multi-octet tags of up to four octets, definite lengths of up to
    /// four octets (checked against `limit`), the indefinite form on constructed elements only.
    /// The one BER header decoder: ``parsePrefix(at:limit:)`` reads every node with it and the
    /// receipt parser's `ASN1Value` reads an attribute value's single TLV with it.
    @inline(__always)
    static func header<Bytes: RandomAccessCollection>(
        _ bytes: Bytes, at start: Int, limit: Int
    ) throws(BERError) -> Header where Bytes.Element == UInt8, Bytes.Index == Int {
        guard start >= bytes.startIndex, limit <= bytes.endIndex, start < limit else {
            throw BERError(offset: start, reason: "unexpected end of data: an element header was expected")
        }
        var position = start
        let first = ASN1Tag(octet: bytes[position])
        position += 1
        var tagNumber = UInt32(first.number)
        if tagNumber == 0x1F {
            tagNumber = 0
            var octets = 0
            while true {
                guard position < limit else {
                    throw BERError(offset: position, reason: "unexpected end of data inside a multi-octet tag")
                }
                let octet = bytes[position]
                position += 1
                octets += 1
                guard octets <= 4 else { throw BERError(offset: start, reason: "tag number too large") }
                tagNumber = (tagNumber << 7) | UInt32(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
        }
        guard position < limit else {
            throw BERError(offset: position, reason: "unexpected end of data: a length was expected")
        }
        let lengthOctet = bytes[position]
        let lengthOffset = position
        position += 1
        var length: Int?
        var isMinimal = true
        if lengthOctet < 0x80 {
            length = Int(lengthOctet)
        } else if lengthOctet == 0x80 {
            guard first.isConstructed else {
                throw BERError(offset: lengthOffset, reason: "indefinite length on a primitive element")
            }
            isMinimal = false
        } else if lengthOctet == 0xFF {
            throw BERError(offset: lengthOffset, reason: "reserved length octet 0xFF")
        } else {
            let count = Int(lengthOctet & 0x7F)
            guard count <= 4 else {
                throw BERError(offset: lengthOffset, reason: "length of \(count) octets is too large")
            }
            guard limit - position >= count else {
                throw BERError(offset: lengthOffset, reason: "unexpected end of data inside a length")
            }
            var value = 0
            for index in 0..<count {
                value = (value << 8) | Int(bytes[position + index])
            }
            position += count
            if value < 0x80 || bytes[lengthOffset + 1] == 0 { isMinimal = false }
            length = value
        }
        if let length, length > limit - position {
            throw BERError(offset: lengthOffset, reason: "length \(length) exceeds the \(limit - position) byte(s) available")
        }
        return Header(
            octet: first.octet, tagClass: first.tagClass, isConstructed: first.isConstructed, tagNumber: tagNumber, lengthOffset: lengthOffset,
            contentStart: position, length: length, isMinimalLength: isMinimal
        )
    }

    /// Universal string-like tags that BER allows in constructed form.
    static func isStringTag(_ number: UInt32) -> Bool {
        switch number {
        case 3, 4, 12, 19, 20, 22, 26, 28, 30: true
        default: false
        }
    }

    /// The content octets of a (possibly constructed) OCTET STRING or other string, concatenated.
    /// Each segment of a constructed string must carry the same universal tag.
    func stringContent(of node: BERNode) throws(BERError) -> [UInt8] {
        if !node.isConstructed {
            return Array(bytes[node.contentStart..<node.contentEnd])
        }
        let segments = try stringSegments(of: node)
        var result: [UInt8] = []
        result.reserveCapacity(segments.reduce(0) { $0 + $1.count })
        for segment in segments { result += bytes[segment] }
        return result
    }

    /// Where the content octets of a (possibly constructed) string lie in ``bytes``, in order:
    /// their concatenation is ``stringContent(of:)`` (read without copying them). Each segment of
    /// a constructed string must carry the same universal tag; nesting is bounded by
    /// ``maximumDepth``.
    func stringSegments(of node: BERNode, depth: Int = 0) throws(BERError) -> [Range<Int>] {
        if !node.isConstructed {
            return [node.contentStart..<node.contentEnd]
        }
        guard depth < maximumDepth else {
            throw BERError(offset: node.offset, reason: "constructed string nested too deeply")
        }
        var result: [Range<Int>] = []
        for child in node.children {
            guard child.tagClass == 0, child.tagNumber == node.tagNumber else {
                throw BERError(offset: child.offset, reason: "segment of a constructed string has a different tag")
            }
            result += try stringSegments(of: child, depth: depth + 1)
        }
        return result
    }

    /// The content octets of a primitive node.
    func content(of node: BERNode) -> ArraySlice<UInt8> {
        bytes[node.contentStart..<node.contentEnd]
    }

    /// The whole encoding of a node (identifier, length, content, end-of-contents).
    func encoding(of node: BERNode) -> [UInt8] {
        Array(bytes[node.offset..<node.end])
    }
}
