#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte ranges of a PKCS #7 signedData in the one canonical shape the verified-chain cache's
/// fast path accepts, read in place (nothing copied, nothing allocated).
///
/// Accepted shape, strict DER (definite minimal lengths, single-octet tags, no trailing bytes):
///
/// ```
/// ContentInfo SEQUENCE { OID signedData, [0] {
///   SignedData SEQUENCE { version INTEGER,
///     digestAlgorithms SET { exactly the signer's digestAlgorithm, byte for byte },
///     encapContentInfo SEQUENCE { OID data, [0] { OCTET STRING (primitive) } },
///     [0] certificates (at least one), -- no [1] crls
///     signerInfos SET { exactly one SignerInfo SEQUENCE {
///       version INTEGER, sid SEQUENCE (issuerAndSerialNumber), digestAlgorithm SEQUENCE,
///       [0] signedAttrs (optional, DER throughout: SignedAttributeEncoding),
///       signatureAlgorithm SEQUENCE { OID, NULL OPTIONAL }, signature OCTET STRING
///       -- no unsignedAttrs } } } } }
/// ```
///
/// Anything else is `nil`: the caller then takes the full verification path. Nothing here is
/// trusted; it only locates the parts the fast path compares and verifies.
///
/// The validator has it once per validation: read from the bytes when the verified-chain cache's
/// fast path may use it (the cache holds an entry; ``read(_:noting:)``, whose noted headers the
/// full path's BER reading then continues from instead of walking the bytes again), otherwise
/// taken from the structure checks' reading (``init(structure:)``); it hands it to the fast path,
/// the inspection before verification and the cache fill. The built-in backends (``SignedDataEnvelopeVerifying``) get the envelope of the
/// canonical rebuild, known from the rebuild (``CanonicalSignedData/envelope``).
package struct SignedDataEnvelope: Hashable, Sendable {
    /// `version` and `digestAlgorithms` of the SignedData (two adjacent TLVs).
    package var head: Range<Int>
    /// The encapsulated content octets (the receipt payload).
    package var content: Range<Int>
    /// The content octets of the `[0] certificates` field (the certificates' encodings, in order).
    package var certificates: Range<Int>
    /// `version`, `sid` and `digestAlgorithm` of the SignerInfo (three adjacent TLVs).
    package var signerHead: Range<Int>
    /// The whole `[0] signedAttrs` TLV, when present.
    package var signedAttributes: Range<Int>?
    /// The `signatureAlgorithm` TLV.
    package var signatureAlgorithm: Range<Int>
    /// The signature octets.
    package var signature: Range<Int>
    /// The signer's digest algorithm (SHA-1 or SHA-256; anything else is `nil` at parse time).
    package var digestAlgorithm: DigestAlgorithm
}

extension SignedDataEnvelope {
    /// Reads `bytes`, or returns `nil` when they are not in the canonical shape.
    package init?(_ bytes: [UInt8]) {
        var known = DecodedHeaders()
        guard let parsed = Self.read(bytes, noting: &known) else { return nil }
        self = parsed
    }

    /// Reads `bytes` as ``init(_:)`` does, noting in `known` every TLV header it decoded, up to
    /// where it stopped when the bytes are not in the canonical shape: the validator's full
    /// path hands them to its BER reading (``SignedDataReading``), which continues this walk
    /// instead of decoding them again.
    static func read(_ bytes: [UInt8], noting known: inout DecodedHeaders) -> SignedDataEnvelope? {
        bytes.withUnsafeBufferPointer { parse($0, noting: &known) }
    }

    // DER encodings of the OIDs on the path (tag and length included), from the catalogue.
    static let signedDataOID = KnownObjectIdentifier.signedData.tlv
    static let dataOID = KnownObjectIdentifier.data.tlv
    static let sha1OID = KnownObjectIdentifier.sha1.tlv
    static let sha256OID = KnownObjectIdentifier.sha256.tlv

    private static func parse(_ p: UnsafeBufferPointer<UInt8>, noting known: inout DecodedHeaders) -> SignedDataEnvelope? {
        let reader = DERCursor(p)
        guard let contentInfo = known.note(reader.element(at: 0, within: p.count)), contentInfo.identifier == .sequence,
              contentInfo.end == p.count,
              let type = known.note(reader.element(at: contentInfo.contentStart, within: contentInfo.end)),
              reader.equals(type.whole, signedDataOID),
              let explicit = known.note(reader.element(at: type.end, within: contentInfo.end)), explicit.identifier == .contextSpecific(0, constructed: true),
              explicit.end == contentInfo.end,
              let signedData = known.note(reader.element(at: explicit.contentStart, within: explicit.end)), signedData.identifier == .sequence,
              signedData.end == explicit.end,
              let version = known.note(reader.element(at: signedData.contentStart, within: signedData.end)), version.identifier == .integer,
              let algorithms = known.note(reader.element(at: version.end, within: signedData.end)), algorithms.identifier == .set,
              let encapsulated = known.note(reader.element(at: algorithms.end, within: signedData.end)), encapsulated.identifier == .sequence,
              let eType = known.note(reader.element(at: encapsulated.contentStart, within: encapsulated.end)),
              reader.equals(eType.whole, dataOID),
              let eExplicit = known.note(reader.element(at: eType.end, within: encapsulated.end)), eExplicit.identifier == .contextSpecific(0, constructed: true),
              eExplicit.end == encapsulated.end,
              let octets = known.note(reader.element(at: eExplicit.contentStart, within: eExplicit.end)), octets.identifier == .octetString,
              octets.end == eExplicit.end,
              let certificates = known.note(reader.element(at: encapsulated.end, within: signedData.end)), certificates.identifier == .contextSpecific(0, constructed: true),
              certificates.contentStart < certificates.end,
              let signerInfos = known.note(reader.element(at: certificates.end, within: signedData.end)), signerInfos.identifier == .set,
              signerInfos.end == signedData.end,
              let signer = known.note(reader.element(at: signerInfos.contentStart, within: signerInfos.end)), signer.identifier == .sequence,
              signer.end == signerInfos.end,
              let signerVersion = known.note(reader.element(at: signer.contentStart, within: signer.end)), signerVersion.identifier == .integer,
              let sid = known.note(reader.element(at: signerVersion.end, within: signer.end)), sid.identifier == .sequence,
              let digest = known.note(reader.element(at: sid.end, within: signer.end)), digest.identifier == .sequence,
              let digestOID = known.note(reader.element(at: digest.contentStart, within: digest.end))
        else { return nil }

        // The digest AlgorithmIdentifier: the OID, then nothing or NULL.
        let digestAlgorithm: DigestAlgorithm
        if reader.equals(digestOID.whole, sha256OID) {
            digestAlgorithm = .sha256
        } else if reader.equals(digestOID.whole, sha1OID) {
            digestAlgorithm = .sha1
        } else {
            return nil
        }
        if digestOID.end != digest.end {
            guard let parameters = known.note(reader.element(at: digestOID.end, within: digest.end)), parameters.identifier == .null,
                  parameters.contentStart == parameters.end, parameters.end == digest.end
            else { return nil }
        }

        // digestAlgorithms lists exactly the signer's algorithm, encoded as the signer encodes it
        // (the canonical form the validator hands a backend; every DER receipt Apple signs has it).
        guard let listed = known.note(reader.element(at: algorithms.contentStart, within: algorithms.end)), listed.end == algorithms.end,
              reader.equals(listed.whole, Array(p[digest.whole]))
        else { return nil }

        // The certificates field must tile into whole TLVs (each a SEQUENCE).
        var position = certificates.contentStart
        while position < certificates.end {
            guard let certificate = known.note(reader.element(at: position, within: certificates.end)), certificate.identifier == .sequence else {
                return nil
            }
            position = certificate.end
        }

        guard var next = known.note(reader.element(at: digest.end, within: signer.end)) else { return nil }
        var signedAttributes: Range<Int>?
        if next.identifier == .contextSpecific(0, constructed: true) {
            guard SignedAttributeEncoding.isDER(reader, next.whole) else { return nil }
            signedAttributes = next.whole
            guard let following = known.note(reader.element(at: next.end, within: signer.end)) else { return nil }
            next = following
        }
        let signatureAlgorithm = next
        // signatureAlgorithm: an OID and nothing or NULL, strict DER.
        guard signatureAlgorithm.identifier == .sequence,
              let signatureOID = known.note(reader.element(at: signatureAlgorithm.contentStart, within: signatureAlgorithm.end)),
              signatureOID.identifier == .objectIdentifier,
              signatureOID.end == signatureAlgorithm.end
                || known.note(reader.element(at: signatureOID.end, within: signatureAlgorithm.end)).map({
                    $0.identifier == .null && $0.contentStart == $0.end && $0.end == signatureAlgorithm.end
                }) == true,
              let signature = known.note(reader.element(at: signatureAlgorithm.end, within: signer.end)), signature.identifier == .octetString,
              signature.end == signer.end, signature.contentStart < signature.end
        else { return nil }

        return SignedDataEnvelope(
            head: version.start..<algorithms.end,
            content: octets.contentStart..<octets.end,
            certificates: certificates.contentStart..<certificates.end,
            signerHead: signerVersion.start..<digest.end,
            signedAttributes: signedAttributes,
            signatureAlgorithm: signatureAlgorithm.whole,
            signature: signature.contentStart..<signature.end,
            digestAlgorithm: digestAlgorithm
        )
    }
}
