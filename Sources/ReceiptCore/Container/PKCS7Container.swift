/// A PKCS #7 signedData read for inspection, WITHOUT verifying anything.
///
/// Use it to look at a receipt (the `dump` command, diagnostics). Never trust its ``content`` for a
/// decision: validation parses only the bytes a ``CryptoBackend`` verified
/// (``VerifiedSignedData/content``).
///
/// Accepts DER and BER (indefinite lengths, constructed OCTET STRINGs, as in Xcode StoreKit
/// receipts). Reading is bounded: at most ``maximumDepth`` levels and ``maximumElements`` elements.
///
/// ```swift
/// let container = try PKCS7Container(bytes: bytes)
/// let receipt = try ReceiptParser.parse(container.content)
/// ```
public struct PKCS7Container: Hashable, Sendable {
    /// How the container was encoded.
    public enum Encoding: String, Hashable, Sendable, Codable {
        /// Distinguished Encoding Rules (what Apple's production servers emit).
        case der = "DER"
        /// Basic Encoding Rules with indefinite lengths, non-minimal lengths or constructed strings.
        case ber = "BER"
    }

    /// OID of PKCS #7 signedData.
    public static let signedDataOID = KnownObjectIdentifier.signedData.dotted
    /// OID of PKCS #7 data.
    public static let dataOID = KnownObjectIdentifier.data.dotted
    /// Maximum nesting depth read.
    public static let maximumDepth = 32
    /// Maximum number of ASN.1 elements read in the container (the content is not descended into):
    /// the bound the validator holds every signedData to before any crypto.
    public static let maximumElements = SignedDataLimits.maximumElements

    /// The encapsulated content (the receipt payload), with constructed OCTET STRING segments concatenated.
    public let content: [UInt8]
    /// The embedded certificates, as their encodings, in the order they appear.
    public let certificates: [Certificate]
    /// The digest algorithms listed in `SignedData.digestAlgorithms`.
    public let digestAlgorithms: [DigestAlgorithm]
    /// The first signer's digest algorithm.
    public let digestAlgorithm: DigestAlgorithm
    /// The number of signer infos.
    public let signerCount: Int
    /// Whether the first signer carries signed attributes.
    public let hasSignedAttributes: Bool
    /// Whether the whole structure was DER or needed BER.
    public let encoding: Encoding
    /// Whether the eContent OCTET STRING was in constructed form.
    public let isContentConstructed: Bool

    /// Reads a PKCS #7 signedData.
    /// - Throws: ``ReceiptValidationError/Code/notPKCS7`` when the bytes are not a ContentInfo
    ///   (with the offset of the problem); ``ReceiptValidationError/Code/notSigned`` when it is not
    ///   signedData over data, has no content or has no signer.
    public init(bytes: [UInt8]) throws(ReceiptValidationError) {
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.notPKCS7, "The input is empty, not a PKCS #7 structure.", offset: 0)
        }
        guard bytes[0] == ASN1Tag.sequence.octet else {
            throw ReceiptValidationError(
                .notPKCS7, "Not a PKCS #7 structure: the input does not start with an ASN.1 SEQUENCE (0x30).", offset: 0
            )
        }
        try self.init(reading: SignedDataReading(bytes))
    }

    /// Reads the PKCS #7 signedData `reading` read (the validator's one reading of its input,
    /// inspected when the structure checks refuse it), as ``init(bytes:)`` reads its bytes.
    init(reading: SignedDataReading) throws(ReceiptValidationError) {
        let bytes = reading.bytes
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.notPKCS7, "The input is empty, not a PKCS #7 structure.", offset: 0)
        }
        guard bytes[0] == ASN1Tag.sequence.octet else {
            throw ReceiptValidationError(
                .notPKCS7, "Not a PKCS #7 structure: the input does not start with an ASN.1 SEQUENCE (0x30).", offset: 0
            )
        }
        let reader = reading.reader
        let root: BERNode
        switch reading.root {
        case .success(let node)?:
            root = node
        case .failure(let error)?:
            throw ReceiptValidationError(.notPKCS7, "Not a PKCS #7 structure: \(error.reason).", offset: error.offset)
        case nil:
            throw ReceiptValidationError(.notPKCS7, "The input is empty, not a PKCS #7 structure.", offset: 0)
        }
        func notPKCS7(_ reason: String, _ offset: Int) -> ReceiptValidationError {
            ReceiptValidationError(.notPKCS7, "Not a PKCS #7 structure: \(reason).", offset: offset)
        }
        func notSigned(_ reason: String, _ offset: Int) -> ReceiptValidationError {
            ReceiptValidationError(.notSigned, "The PKCS #7 structure is not usable signed data: \(reason).", offset: offset)
        }

        // ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, content [0] EXPLICIT ANY OPTIONAL }
        guard root.identifier == .sequence else {
            throw notPKCS7("the outer element is not a SEQUENCE", root.offset)
        }
        guard let typeNode = root.children.first, typeNode.identifier == .objectIdentifier,
              let contentType = decodeObjectIdentifier(reader.content(of: typeNode))
        else {
            throw notPKCS7("the ContentInfo does not start with an OBJECT IDENTIFIER", root.children.first?.offset ?? root.contentStart)
        }
        guard contentType.hasPrefix("1.2.840.113549.1.7.") else {
            throw notPKCS7("content type \(contentType) is not a PKCS #7 type", typeNode.offset)
        }
        guard contentType == Self.signedDataOID else {
            throw notSigned("content type \(contentType) is not signedData", typeNode.offset)
        }
        guard root.children.count >= 2, root.children[1].identifier == .contextSpecific(0, constructed: true),
              let signedData = root.children[1].children.first, signedData.identifier == .sequence
        else {
            throw notSigned("the signedData content is missing", typeNode.end)
        }

        // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo, [0] certificates,
        //                           [1] crls, signerInfos SET }
        let fields = signedData.children
        guard fields.count >= 4, fields[0].hasTag(.integer), fields[1].hasTag(.set), fields[2].hasTag(.sequence) else {
            throw notSigned("SignedData does not have the version, digestAlgorithms and encapContentInfo fields", signedData.offset)
        }
        var algorithms: [DigestAlgorithm] = []
        for algorithm in fields[1].children {
            guard let oid = Self.algorithmOID(algorithm, reader) else {
                throw notSigned("a digest AlgorithmIdentifier is malformed", algorithm.offset)
            }
            algorithms.append(DigestAlgorithm(oid: oid))
        }

        let encap = fields[2]
        guard let eTypeNode = encap.children.first, eTypeNode.hasTag(.objectIdentifier),
              let eType = decodeObjectIdentifier(reader.content(of: eTypeNode))
        else {
            throw notSigned("encapContentInfo has no content type", encap.offset)
        }
        guard eType == Self.dataOID else {
            throw notSigned("encapsulated content type \(eType) is not data", eTypeNode.offset)
        }
        guard encap.children.count >= 2, encap.children[1].identifier == .contextSpecific(0, constructed: true),
              let octets = encap.children[1].children.first, octets.hasTag(.octetString)
        else {
            throw notSigned("there is no encapsulated content (detached signature)", eTypeNode.end)
        }
        let content: [UInt8]
        do {
            content = try reader.stringContent(of: octets)
        } catch {
            throw notSigned("the encapsulated content is malformed: \(error.reason)", error.offset)
        }

        var certificates: [Certificate] = []
        var index = 3
        if index < fields.count, fields[index].hasTag(.contextSpecific(0, constructed: true)) {
            certificates = fields[index].children.map { Certificate(derBytes: reader.encoding(of: $0)) }
            index += 1
        }
        if index < fields.count, fields[index].hasTag(.contextSpecific(1, constructed: true)) { index += 1 }
        guard index < fields.count, fields[index].hasTag(.set) else {
            throw notSigned("SignedData has no signerInfos SET", fields[min(index, fields.count - 1)].offset)
        }
        let signers = fields[index].children
        guard let signer = signers.first else {
            throw notSigned("there is no signer", fields[index].offset)
        }
        // SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature, ... }
        guard signer.hasTag(.sequence), signer.children.count >= 5,
              let signerDigest = Self.algorithmOID(signer.children[2], reader)
        else {
            throw notSigned("the SignerInfo is malformed", signer.offset)
        }

        self.content = content
        self.certificates = certificates
        self.digestAlgorithms = algorithms
        self.digestAlgorithm = DigestAlgorithm(oid: signerDigest)
        self.signerCount = signers.count
        self.hasSignedAttributes = signer.children[3].hasTag(.contextSpecific(0, constructed: true))
        self.encoding = reader.sawNonDER ? .ber : .der
        self.isContentConstructed = octets.isConstructed
    }

    /// The OID of an AlgorithmIdentifier SEQUENCE, or nil.
    private static func algorithmOID(_ node: BERNode, _ reader: BERReader) -> String? {
        guard node.hasTag(.sequence), let oidNode = node.children.first, oidNode.identifier == .objectIdentifier else {
            return nil
        }
        return decodeObjectIdentifier(reader.content(of: oidNode))
    }
}
