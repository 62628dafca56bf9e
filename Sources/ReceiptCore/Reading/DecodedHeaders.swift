/// The TLV headers of a signedData that the verified-chain cache's strict DER reading already
/// decoded (``SignedDataEnvelope/read(_:noting:)``), kept for the ``BERReader`` reading of the
/// same bytes (``SignedDataReading``) to take instead of decoding them again: with them the
/// full path continues the envelope's walk, and each header of the signedData is decoded once
/// per validation.
///
/// Every element noted was read by ``DERCursor`` at the start of its parent's content or at the
/// end of its previous sibling, within its parent's end, so it is a node of the BER tree of the
/// same bytes with the header ``BERReader/header(_:at:limit:)`` would decode there (strict DER is
/// a subset of what that decoder accepts, read to the same offsets). Noting stops where the
/// envelope's reading stops, so an input outside the canonical shape leaves the headers read up
/// to that point.
struct DecodedHeaders: Sendable {
    /// The headers, in the order noted (``sorted()`` orders them by offset).
    private(set) var elements: [DERCursor.Element] = []

    /// The most a reading notes: the envelope reads about 25 elements of a receipt, and this
    /// bound keeps a hostile input from growing the list.
    static let capacity = 64

    /// Notes `element` (when read, and while fewer than ``capacity`` are noted) and hands it back.
    @inline(__always)
    mutating func note(_ element: DERCursor.Element?) -> DERCursor.Element? {
        if let element, elements.count < Self.capacity {
            if elements.isEmpty { elements.reserveCapacity(32) }
            elements.append(element)
        }
        return element
    }

    /// The headers ordered by offset, the order a pre-order reading of the tree meets them in
    /// (no two nodes of a tree start at the same offset).
    func sorted() -> [DERCursor.Element] {
        var sorted = elements
        // Nearly sorted already (the envelope reads in order but for a few look-backs).
        for index in sorted.indices.dropFirst() {
            let element = sorted[index]
            var position = index
            while position > 0, sorted[position - 1].start > element.start {
                sorted[position] = sorted[position - 1]
                position -= 1
            }
            sorted[position] = element
        }
        return sorted
    }
}
