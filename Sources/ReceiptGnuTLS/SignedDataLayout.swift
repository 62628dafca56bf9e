#if GnuTLS

/// The parts of a DER ContentInfo(signedData) that GnuTLS's public API does not hand out: each
/// signer's digest algorithm and the DER of its signed attributes (which the signature covers,
/// re-tagged from `[0] IMPLICIT` to `SET`), and the raw eContentType.
///
/// It reads the DER that `gnutls_pkcs7_export2` produces from the structure GnuTLS decoded, the
/// same re-encoding GnuTLS itself verifies signed attributes over. (libtasn1 sorts SET OF members
/// when it re-encodes, so signers are matched to GnuTLS's by their signature value, not by index.) Strict DER only (definite
/// lengths, single-byte tags on the path walked), every length checked against its parent.
struct SignedDataLayout {
    /// One SignerInfo.
    struct Signer: Equatable {
        /// The signer's digestAlgorithm OID, dotted.
        var digestAlgorithmOID: String
        /// The signedAttrs as a DER `SET` (first byte 0x31), or `nil` when absent.
        var signedAttributes: [UInt8]?
        /// The signature value (matches a SignerInfo read through GnuTLS to this one).
        var signature: [UInt8]
    }

    /// `encapContentInfo.eContentType` as a whole TLV (tag 0x06 …).
    var contentTypeTLV: [UInt8]
    /// Whether `encapContentInfo` carries an eContent (possibly empty); `false` for a detached signature.
    var hasContent: Bool
    /// The signer infos in order.
    var signers: [Signer]

    /// More signer infos than this are refused (a receipt has one).
    static let maximumSigners = 16

    /// Parses `der`, or returns `nil` when it is not the expected shape.
    init?(der: [UInt8]) {
        let reader = DERReader(bytes: der)
        guard let contentInfo = reader.element(at: 0, end: der.count), contentInfo.tag == 0x30,
              contentInfo.end == der.count,
              let contentInfoItems = reader.children(of: contentInfo), contentInfoItems.count == 2,
              contentInfoItems[0].tag == 0x06, contentInfoItems[1].tag == 0xA0,
              let explicit = reader.children(of: contentInfoItems[1]), explicit.count == 1,
              explicit[0].tag == 0x30,
              let signedData = reader.children(of: explicit[0]), signedData.count >= 4,
              signedData[0].tag == 0x02, signedData[1].tag == 0x31, signedData[2].tag == 0x30,
              let encapsulated = reader.children(of: signedData[2]), let contentType = encapsulated.first,
              contentType.tag == 0x06,
              let signerInfos = signedData.last, signerInfos.tag == 0x31,
              let signerElements = reader.children(of: signerInfos),
              signerElements.count <= Self.maximumSigners
        else { return nil }

        var signers: [Signer] = []
        for signerInfo in signerElements {
            guard signerInfo.tag == 0x30, let items = reader.children(of: signerInfo), items.count >= 5,
                  items[0].tag == 0x02, items[2].tag == 0x30,
                  let algorithm = reader.children(of: items[2]), let oid = algorithm.first, oid.tag == 0x06,
                  let dotted = DERReader.dottedOID(reader.content(of: oid))
            else { return nil }
            var attributes: [UInt8]?
            if items[3].tag == 0xA0 {
                var set = reader.bytes(of: items[3])
                set[0] = 0x31
                attributes = set
            }
            // signature follows signatureAlgorithm, which follows the optional signedAttrs.
            let signatureIndex = attributes == nil ? 4 : 5
            guard items.count > signatureIndex, items[signatureIndex].tag == 0x04 else { return nil }
            signers.append(
                Signer(
                    digestAlgorithmOID: dotted, signedAttributes: attributes,
                    signature: reader.content(of: items[signatureIndex])
                )
            )
        }
        self.contentTypeTLV = reader.bytes(of: contentType)
        self.hasContent = encapsulated.count == 2 && encapsulated[1].tag == 0xA0
        self.signers = signers
    }
}

/// A minimal bounds-checked DER reader for ``SignedDataLayout``.
struct DERReader {
    /// One TLV: `start` is the tag's offset, `contentStart` the first content byte, `end` one past the last.
    struct Element {
        var tag: UInt8
        var start: Int
        var contentStart: Int
        var end: Int
    }

    let bytes: [UInt8]

    /// More children than this in one element are refused.
    static let maximumChildren = 4096

    /// The TLV starting at `offset`, which must end at or before `end`.
    func element(at offset: Int, end: Int) -> Element? {
        guard offset >= 0, end <= bytes.count, offset < end, end - offset >= 2 else { return nil }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags are not on our path
        let first = bytes[offset + 1]
        var cursor = offset + 2
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4, end - cursor >= count else { return nil }  // 0x80 = indefinite: not DER
            for _ in 0..<count {
                length = (length << 8) | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard length <= end - cursor else { return nil }
        return Element(tag: tag, start: offset, contentStart: cursor, end: cursor + length)
    }

    /// The TLVs inside a constructed element, or `nil` if they do not tile its content exactly.
    func children(of parent: Element) -> [Element]? {
        guard parent.tag & 0x20 != 0 else { return nil }
        var result: [Element] = []
        var offset = parent.contentStart
        while offset < parent.end {
            guard result.count < Self.maximumChildren, let child = element(at: offset, end: parent.end) else {
                return nil
            }
            result.append(child)
            offset = child.end
        }
        return result
    }

    /// The whole TLV.
    func bytes(of element: Element) -> [UInt8] {
        Array(bytes[element.start..<element.end])
    }

    /// The content octets.
    func content(of element: Element) -> [UInt8] {
        Array(bytes[element.contentStart..<element.end])
    }

    /// The digest algorithms a receipt's signer names, content octets and dotted form: read
    /// without building arcs and strings (what the general decoding below gives for them).
    private static let knownOIDs: [(content: [UInt8], dotted: String)] = [
        ([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01], "2.16.840.1.101.3.4.2.1"),  // SHA-256
        ([0x2B, 0x0E, 0x03, 0x02, 0x1A], "1.3.14.3.2.26"),  // SHA-1
    ]

    /// Decodes OBJECT IDENTIFIER content octets to dotted form; `nil` when malformed.
    static func dottedOID(_ content: [UInt8]) -> String? {
        for known in knownOIDs where known.content == content { return known.dotted }
        guard !content.isEmpty, content.count <= 128, content.last.map({ $0 & 0x80 == 0 }) == true else { return nil }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var started = false
        for byte in content {
            if !started && byte == 0x80 { return nil }  // non-minimal encoding
            guard value <= (UInt64.max >> 7) else { return nil }
            value = (value << 7) | UInt64(byte & 0x7F)
            started = true
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
                started = false
            }
        }
        guard let first = arcs.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }
}
#endif
