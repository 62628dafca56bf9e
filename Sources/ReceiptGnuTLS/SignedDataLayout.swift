#if GnuTLS
import ReceiptCore

/// The parts of a DER ContentInfo(signedData) that GnuTLS's public API does not hand out: the DER
/// of each signer's signed attributes (which the signature covers,
/// re-tagged from `[0] IMPLICIT` to `SET`), and the raw eContentType.
///
/// It reads the DER that `gnutls_pkcs7_export2` produces from the structure GnuTLS decoded, the
/// same re-encoding GnuTLS itself verifies signed attributes over. (libtasn1 sorts SET OF members
/// when it re-encodes, so signers are matched to GnuTLS's by their signature value, not by index.) Strict DER only
/// (``DERCursor``), every length checked against its parent.
struct SignedDataLayout {
    /// One SignerInfo.
    struct Signer: Equatable {
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
        guard let layout = der.withUnsafeBufferPointer({ Self.parse(DERCursor($0)) }) else { return nil }
        self = layout
    }

    /// The layout of `bytes`, taken from their ``SignedDataEnvelope`` (read or rebuilt by the caller)
    /// without reading them again: id-data content present, one signer, its signed attributes
    /// re-tagged as a `SET` and its signature.
    ///
    /// Only for bytes whose signed attributes the validator found DER (the ``CanonicalSignedData``
    /// it rebuilt, handed with its ``SignedDataRanges``): libtasn1's re-encoding of DER attributes
    /// is the same bytes (``SignedAttributeEncoding``), so GnuTLS's export would give this layout.
    init(_ bytes: [UInt8], envelope: SignedDataEnvelope) {
        var attributes: [UInt8]?
        if let range = envelope.signedAttributes, !range.isEmpty {
            var set = Array(bytes[range])
            set[0] = ASN1Tag.set.octet
            attributes = set
        }
        self.init(
            contentTypeTLV: KnownObjectIdentifier.data.tlv, hasContent: true,
            signers: [Signer(signedAttributes: attributes, signature: Array(bytes[envelope.signature]))])
    }

    private init(contentTypeTLV: [UInt8], hasContent: Bool, signers: [Signer]) {
        self.contentTypeTLV = contentTypeTLV
        self.hasContent = hasContent
        self.signers = signers
    }

    /// Reads the layout with ReceiptCore's strict DER reader (``DERCursor``, the one every backend
    /// and the cache share: definite minimal lengths, single-octet tags, every length checked).
    private static func parse(_ reader: DERCursor) -> SignedDataLayout? {
        let count = reader.bytes.count
        guard let contentInfo = reader.element(at: 0, within: count), contentInfo.identifier == .sequence,
              contentInfo.end == count,
              let contentInfoItems = reader.children(of: contentInfo), contentInfoItems.count == 2,
              contentInfoItems[0].identifier == .objectIdentifier, contentInfoItems[1].identifier == .contextSpecific(0, constructed: true),
              let explicit = reader.children(of: contentInfoItems[1]), explicit.count == 1,
              explicit[0].identifier == .sequence,
              let signedData = reader.children(of: explicit[0]), signedData.count >= 4,
              signedData[0].identifier == .integer, signedData[1].identifier == .set, signedData[2].identifier == .sequence,
              let encapsulated = reader.children(of: signedData[2]), let contentType = encapsulated.first,
              contentType.identifier == .objectIdentifier,
              let signerInfos = signedData.last, signerInfos.identifier == .set,
              let signerElements = reader.children(of: signerInfos),
              signerElements.count <= maximumSigners
        else { return nil }

        var signers: [Signer] = []
        for signerInfo in signerElements {
            guard signerInfo.identifier == .sequence, let items = reader.children(of: signerInfo), items.count >= 5,
                  items[0].identifier == .integer, items[2].identifier == .sequence
            else { return nil }
            var attributes: [UInt8]?
            if items[3].identifier == .contextSpecific(0, constructed: true) {
                var set = Array(reader.bytes[items[3].whole])
                set[0] = ASN1Tag.set.octet
                attributes = set
            }
            // signature follows signatureAlgorithm, which follows the optional signedAttrs.
            let signatureIndex = attributes == nil ? 4 : 5
            guard items.count > signatureIndex, items[signatureIndex].identifier == .octetString else { return nil }
            let signature = items[signatureIndex]
            signers.append(
                Signer(
                    signedAttributes: attributes,
                    signature: Array(reader.bytes[signature.contentStart..<signature.end])
                )
            )
        }
        return SignedDataLayout(
            contentTypeTLV: Array(reader.bytes[contentType.whole]),
            hasContent: encapsulated.count == 2 && encapsulated[1].identifier == .contextSpecific(0, constructed: true),
            signers: signers)
    }
}
#endif
