/// The structure rules ``ReceiptValidator`` applies to a PKCS #7 signedData before any backend's
/// library sees it, so that every backend's verdict on a structurally damaged input is the same
/// (the DESIGN's "classify failures the same way" rule; OpenSSL and GnuTLS decode differently).
/// No backend applies them: a backend is handed the signedData the validator rebuilt from what
/// these checks read (``canonical(certificates:)``).
///
/// Nothing here verifies anything: signature, chain and validity stay the libraries' decisions.
/// The checks run in phases, and the first failing phase decides the code:
///
/// 1. `not_pkcs7`: the bytes are not one well-formed BER ContentInfo whose signedData follows
///    the schema (field tags and order, INTEGER and OBJECT IDENTIFIER encodings, BMPString and
///    UniversalString lengths anywhere in the SignerInfo, AlgorithmIdentifiers,
///    an issuerAndSerialNumber signer identifier with a well-formed Name, Attributes, an OCTET STRING
///    eContent for id-data and a primitive signature).
/// 2. `not_signed`: a ContentInfo of another type, no signedData content, an eContentType other than
///    id-data, no eContent (detached), a `crls` field, or not exactly one SignerInfo.
/// 3. `invalid_certificate`: more than ``maximumCertificates`` embedded certificates, or one that is
///    not a strict-DER X.509 certificate (``CertificateStructure``), whether or not it is on the
///    chain. (A certificate of the rebuild the backend's library cannot decode is
///    `invalid_certificate` too, from the backend.)
/// 4. `invalid_signature`: the signer's digestAlgorithm is not SHA-1 or SHA-256 (parameters absent
///    or NULL), is not listed in `digestAlgorithms`, the signatureAlgorithm is neither
///    rsaEncryption nor the RSA algorithm with that digest, the signed attributes are not DER
///    (``SignedAttributeEncoding``), or they do not hold exactly one messageDigest (one OCTET
///    STRING) and at most one contentType (id-data).
/// 5. `untrusted_chain`: no embedded certificate has exactly (byte for byte) the signer's issuer
///    name and serial number, or another one also matches when names are compared loosely
///    (``CertificateStructure/looseNameKey(_:)``, so OpenSSL's canonical lookup cannot pick another).
///
/// Phase 1 takes the one reading of the bytes (``SignedDataReading``, one ``BERReader`` pass)
/// and builds from it the Reading values — a
/// ``ContentInfo`` holding its ``CMSSignedData`` (``EncapsulatedContentInfo``, ``SignerInfo``s
/// with their ``CMSAttributes``, ``AlgorithmIdentifier``s), all ranges of the input — and every
/// later phase, ``canonical(certificates:)``, ``SignedDataEnvelope/init(structure:)`` and the
/// validator's inspection read those values, not the bytes again.
///
/// The backend then decodes the rebuild with its library (a failure there is `not_pkcs7`),
/// builds and verifies the chain (`untrusted_chain`) and verifies the signature
/// (`invalid_signature`); the validator checks validity at the chosen time
/// (`certificate_expired`, `certificate_not_yet_valid`) on the chain it returned.
package struct SignedDataStructure: Sendable {
    /// The byte ranges of the embedded certificates, in order.
    package var certificates: [Range<Int>]
    /// The byte range of the signer's certificate (one of ``certificates``).
    package var signerCertificate: Range<Int>
    /// The signer's digest algorithm (SHA-1 or SHA-256).
    package var digestAlgorithm: DigestAlgorithm
    /// Whether the signer carries signed attributes.
    package var hasSignedAttributes: Bool
    /// The reader of ``bytes`` the values below are ranges of.
    let reader: BERReader
    /// The reading every later step builds on (``canonical(certificates:)``,
    /// ``SignedDataEnvelope/init(structure:)``): the whole ContentInfo, read once.
    let contentInfo: ContentInfo
    /// The ContentInfo's signedData (the checks require one).
    let signedData: CMSSignedData
    /// The signedData's one SignerInfo (the checks require exactly one).
    let signer: SignerInfo

    /// More embedded certificates than this are refused (a receipt carries three).
    package static let maximumCertificates = 64

    private static let rsaEncryptionOID = KnownObjectIdentifier.rsaEncryption.dotted
    private static let sha1WithRSAOID = KnownObjectIdentifier.sha1WithRSAEncryption.dotted
    private static let sha256WithRSAOID = KnownObjectIdentifier.sha256WithRSAEncryption.dotted

    /// Runs phases 1–5 on `bytes`.
    /// - Throws: the code of the first failing phase (see the type's documentation).
    package init(checking bytes: [UInt8]) throws(ReceiptValidationError) {
        try self.init(checking: SignedDataReading(bytes))
    }

    /// Runs phases 1–5 on the bytes `reading` read (the validator's one reading of its input,
    /// which it inspects when the checks refuse it).
    /// - Throws: the code of the first failing phase (see the type's documentation).
    init(checking reading: SignedDataReading) throws(ReceiptValidationError) {
        let bytes = reading.bytes
        let (reader, contentInfo) = try Self.schema(reading)
        let (signedData, signer) = try Self.usability(contentInfo)
        try Self.certificates(signedData, reader)
        let digest = try Self.algorithms(signedData, signer, reader)
        let signerCertificate = try Self.signerCertificate(signedData, signer, bytes)
        self.certificates = signedData.certificates.map { $0.offset..<$0.end }
        self.signerCertificate = signerCertificate
        self.digestAlgorithm = digest
        self.hasSignedAttributes = signer.signedAttributes != nil
        self.reader = reader
        self.contentInfo = contentInfo
        self.signedData = signedData
        self.signer = signer
    }

    /// The input these checks read.
    package var bytes: [UInt8] { reader.bytes }

    /// Where the parts a backend verifies lie in ``bytes`` (as read, for the validator to hand on).
    package var ranges: SignedDataRanges {
        SignedDataRanges(
            certificates: certificates, signerCertificate: signerCertificate, digestAlgorithm: digestAlgorithm,
            hasSignedAttributes: hasSignedAttributes)
    }

    // MARK: Phase 1: schema (not_pkcs7)

    private static func notPKCS7(_ reason: String, _ offset: Int) -> ReceiptValidationError {
        ReceiptValidationError(.notPKCS7, "Not a PKCS #7 signedData: \(reason).", offset: offset)
    }

    /// Reads `reading`'s tree as a ``ContentInfo`` (its content as a ``CMSSignedData`` when it is
    /// one), checking the schema as it goes.
    private static func schema(_ reading: SignedDataReading) throws(ReceiptValidationError) -> (BERReader, ContentInfo) {
        let reader = reading.reader
        let root: BERNode
        switch reading.root {
        case nil:
            throw ReceiptValidationError(.notPKCS7, "The data is empty, not a PKCS #7 structure.", offset: 0)
        case .failure(let error)?:
            throw notPKCS7(error.reason, error.offset)
        case .success(let node)?:
            root = node
        }
        // ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, content [0] EXPLICIT ANY OPTIONAL }
        guard root.identifier == .sequence, (1...2).contains(root.children.count),
              let type = oid(root.children[0], reader)
        else {
            throw notPKCS7("the outer element is not a ContentInfo SEQUENCE { OBJECT IDENTIFIER, [0] content }", root.offset)
        }
        var contentInfo = ContentInfo(node: root, contentType: root.children[0], contentTypeOID: type)
        guard root.children.count == 2 else { return (reader, contentInfo) }
        let explicit = root.children[1]
        guard explicit.identifier == .contextSpecific(0, constructed: true), explicit.children.count == 1 else {
            throw notPKCS7("the ContentInfo content is not [0] EXPLICIT with one element", explicit.offset)
        }
        contentInfo.contentField = explicit
        guard type == PKCS7Container.signedDataOID else { return (reader, contentInfo) }
        contentInfo.signedData = try signedData(explicit.children[0], reader)
        return (reader, contentInfo)
    }

    /// SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo,
    ///                           [0] certificates OPTIONAL, [1] crls OPTIONAL, signerInfos SET }
    private static func signedData(_ signedData: BERNode, _ reader: BERReader) throws(ReceiptValidationError) -> CMSSignedData {
        guard signedData.identifier == .sequence, signedData.children.count >= 4 else {
            throw notPKCS7("SignedData is not a SEQUENCE of at least four fields", signedData.offset)
        }
        let fields = signedData.children
        guard isInteger(fields[0], reader) else {
            throw notPKCS7("the SignedData version is not an INTEGER", fields[0].offset)
        }
        guard fields[1].identifier == .set else {
            throw notPKCS7("digestAlgorithms is not a SET", fields[1].offset)
        }
        guard fields[1].children.count <= SignedDataLimits.maximumDigestAlgorithms else {
            throw notPKCS7(
                "digestAlgorithms lists \(fields[1].children.count) algorithms; at most \(SignedDataLimits.maximumDigestAlgorithms) are read",
                fields[1].offset)
        }
        var digestAlgorithms: [AlgorithmIdentifier] = []
        digestAlgorithms.reserveCapacity(fields[1].children.count)
        for node in fields[1].children {
            guard isAlgorithmIdentifier(node, reader), let algorithm = AlgorithmIdentifier(node) else {
                throw notPKCS7("a digestAlgorithms member is not an AlgorithmIdentifier", node.offset)
            }
            digestAlgorithms.append(algorithm)
        }
        let encapContentInfo = try encapsulatedContentInfo(fields[2], reader)

        var index = 3
        var certificateSet: BERNode?
        if fields[index].hasTag(.contextSpecific(0, constructed: true)) {
            guard fields[index].isConstructed else {
                throw notPKCS7("the certificates field is not constructed", fields[index].offset)
            }
            certificateSet = fields[index]
            index += 1
        }
        var crls: BERNode?
        if index < fields.count, fields[index].hasTag(.contextSpecific(1, constructed: true)) {
            crls = fields[index]
            index += 1
        }
        guard index == fields.count - 1, fields[index].identifier == .set else {
            throw notPKCS7("SignedData does not end with exactly one signerInfos SET", fields[min(index, fields.count - 1)].offset)
        }
        let signerInfoSet = fields[index]
        guard signerInfoSet.children.count <= SignedDataLimits.maximumSignerInfos else {
            throw notPKCS7(
                "signerInfos holds \(signerInfoSet.children.count) SignerInfos; at most \(SignedDataLimits.maximumSignerInfos) are read",
                signerInfoSet.offset)
        }
        var signerInfos: [SignerInfo] = []
        signerInfos.reserveCapacity(signerInfoSet.children.count)
        for signer in signerInfoSet.children {
            signerInfos.append(try signerInfo(signer, reader))
        }
        return CMSSignedData(
            node: signedData, version: fields[0], digestAlgorithmSet: fields[1], digestAlgorithms: digestAlgorithms,
            encapContentInfo: encapContentInfo, certificateSet: certificateSet, crls: crls,
            signerInfoSet: signerInfoSet, signerInfos: signerInfos)
    }

    /// EncapsulatedContentInfo ::= SEQUENCE { eContentType OBJECT IDENTIFIER, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
    private static func encapsulatedContentInfo(
        _ encapsulated: BERNode, _ reader: BERReader
    ) throws(ReceiptValidationError) -> EncapsulatedContentInfo {
        guard encapsulated.identifier == .sequence, (1...2).contains(encapsulated.children.count),
              let eType = oid(encapsulated.children[0], reader)
        else {
            throw notPKCS7("encapContentInfo is not a SEQUENCE { OBJECT IDENTIFIER, [0] content }", encapsulated.offset)
        }
        var info = EncapsulatedContentInfo(node: encapsulated, eContentType: encapsulated.children[0], eContentTypeOID: eType)
        guard encapsulated.children.count == 2 else { return info }
        let eExplicit = encapsulated.children[1]
        guard eExplicit.identifier == .contextSpecific(0, constructed: true), eExplicit.children.count == 1 else {
            throw notPKCS7("eContent is not [0] EXPLICIT with one element", eExplicit.offset)
        }
        if eType == PKCS7Container.dataOID {
            let octets = eExplicit.children[0]
            guard octets.hasTag(.octetString), !octets.isConstructed || isOctetStringSegments(octets) else {
                throw notPKCS7("the id-data eContent is not an OCTET STRING", octets.offset)
            }
            guard segmentDepth(octets) <= SignedDataLimits.maximumStringNesting else {
                throw notPKCS7(
                    "the eContent OCTET STRING nests constructed segments more than \(SignedDataLimits.maximumStringNesting) levels deep",
                    octets.offset)
            }
            info.eContent = octets
        }
        info.eContentField = eExplicit
        return info
    }

    /// SignerInfo ::= SEQUENCE { version INTEGER, sid IssuerAndSerialNumber, digestAlgorithm,
    /// signedAttrs [0] IMPLICIT SET OF Attribute OPTIONAL, signatureAlgorithm, signature OCTET STRING,
    /// unsignedAttrs [1] IMPLICIT SET OF Attribute OPTIONAL }
    private static func signerInfo(_ signer: BERNode, _ reader: BERReader) throws(ReceiptValidationError) -> SignerInfo {
        guard signer.identifier == .sequence, (5...7).contains(signer.children.count) else {
            throw notPKCS7("a SignerInfo is not a SEQUENCE of five to seven fields", signer.offset)
        }
        let items = signer.children
        guard isInteger(items[0], reader) else {
            throw notPKCS7("the SignerInfo version is not an INTEGER", items[0].offset)
        }
        let sid = items[1]
        guard sid.identifier == .sequence, sid.children.count == 2,
              CertificateStructure.isName(reader.encoding(of: sid.children[0])),
              isInteger(sid.children[1], reader)
        else {
            throw notPKCS7("the signer identifier is not an issuerAndSerialNumber with a well-formed name", sid.offset)
        }
        guard isAlgorithmIdentifier(items[2], reader), let digestAlgorithm = AlgorithmIdentifier(items[2]) else {
            throw notPKCS7("the SignerInfo digestAlgorithm is not an AlgorithmIdentifier", items[2].offset)
        }
        var index = 3
        var signedAttributes: CMSAttributes?
        if items[index].hasTag(.contextSpecific(0, constructed: true)) {
            signedAttributes = try attributes(items[index], reader, kind: "signed")
            index += 1
        }
        guard index + 1 < items.count, isAlgorithmIdentifier(items[index], reader),
              let signatureAlgorithm = AlgorithmIdentifier(items[index])
        else {
            throw notPKCS7("the SignerInfo signatureAlgorithm is not an AlgorithmIdentifier", items[min(index, items.count - 1)].offset)
        }
        let signature = items[index + 1]
        guard signature.identifier == .octetString else {
            throw notPKCS7("the SignerInfo signature is not a primitive OCTET STRING", signature.offset)
        }
        index += 2
        var unsignedAttributes: CMSAttributes?
        if index < items.count, items[index].hasTag(.contextSpecific(1, constructed: true)) {
            unsignedAttributes = try attributes(items[index], reader, kind: "unsigned")
            index += 1
        }
        guard index == items.count else {
            throw notPKCS7("the SignerInfo has unexpected fields", items[min(index, items.count - 1)].offset)
        }
        return SignerInfo(
            node: signer, version: items[0], sid: sid, issuer: sid.children[0], serialNumber: sid.children[1],
            digestAlgorithm: digestAlgorithm, signedAttributes: signedAttributes, signatureAlgorithm: signatureAlgorithm,
            signature: signature, unsignedAttributes: unsignedAttributes)
    }

    /// `[n] IMPLICIT SET OF Attribute`, Attribute ::= SEQUENCE { OBJECT IDENTIFIER, SET OF ANY (non-empty) },
    /// at most ``SignedDataLimits/maximumAttributes`` of them.
    private static func attributes(_ node: BERNode, _ reader: BERReader, kind: String) throws(ReceiptValidationError) -> CMSAttributes {
        guard node.isConstructed, !node.children.isEmpty else {
            throw notPKCS7("a SignerInfo attribute set is empty or not constructed", node.offset)
        }
        guard node.children.count <= SignedDataLimits.maximumAttributes else {
            throw notPKCS7(
                "the SignerInfo has \(node.children.count) \(kind) attributes; at most \(SignedDataLimits.maximumAttributes) are read",
                node.offset)
        }
        var attributes: [CMSAttributes.Attribute] = []
        attributes.reserveCapacity(node.children.count)
        for attribute in node.children {
            guard attribute.identifier == .sequence, attribute.children.count == 2,
                  isOID(attribute.children[0], reader),
                  attribute.children[1].identifier == .set,
                  !attribute.children[1].children.isEmpty,
                  attribute.children[1].children.allSatisfy({ isWellFormedValue($0, reader) }),
                  let read = CMSAttributes.Attribute(attribute)
            else {
                throw notPKCS7("a SignerInfo attribute is not a SEQUENCE { OBJECT IDENTIFIER, SET OF values }", attribute.offset)
            }
            attributes.append(read)
        }
        return CMSAttributes(node: node, attributes: attributes)
    }

    // MARK: Phase 2: usability (not_signed)

    /// The signedData and its one SignerInfo, when the ContentInfo carries a usable one.
    private static func usability(_ contentInfo: ContentInfo) throws(ReceiptValidationError) -> (CMSSignedData, SignerInfo) {
        guard contentInfo.contentTypeOID == PKCS7Container.signedDataOID else {
            throw ReceiptValidationError(.notSigned, "The PKCS #7 content type \(contentInfo.contentTypeOID) is not signedData.")
        }
        guard let signedData = contentInfo.signedData else {
            throw ReceiptValidationError(.notSigned, "The ContentInfo carries no signedData content.")
        }
        let encapsulated = signedData.encapContentInfo
        guard encapsulated.eContentTypeOID == PKCS7Container.dataOID else {
            throw ReceiptValidationError(
                .notSigned, "The signedData encapsulates content type \(encapsulated.eContentTypeOID), not id-data.")
        }
        guard encapsulated.eContentField != nil else {
            throw ReceiptValidationError(
                .notSigned, "The signedData has no encapsulated content (a detached or certificates-only structure).")
        }
        guard signedData.crls == nil else {
            throw ReceiptValidationError(.notSigned, "The signedData carries CRLs; receipts carry none.")
        }
        guard signedData.signerInfos.count == 1, let signer = signedData.signerInfos.first else {
            throw ReceiptValidationError(
                .notSigned,
                signedData.signerInfos.isEmpty
                    ? "The signedData has no signer."
                    : "The signedData has \(signedData.signerInfos.count) signers; exactly one is supported.")
        }
        return (signedData, signer)
    }

    // MARK: Phase 3: embedded certificates (invalid_certificate)

    private static func certificates(_ signedData: CMSSignedData, _ reader: BERReader) throws(ReceiptValidationError) {
        let certificates = signedData.certificates
        guard certificates.count <= maximumCertificates else {
            throw ReceiptValidationError(
                .invalidCertificate,
                "The signedData embeds \(certificates.count) certificates; at most \(maximumCertificates) are accepted.")
        }
        for (index, node) in certificates.enumerated() {
            let encoding = reader.encoding(of: node)
            guard node.hasTag(.sequence), CertificateStructure.isCertificate(encoding) else {
                throw ReceiptValidationError(
                    .invalidCertificate, "Embedded certificate \(index) is not a well-formed DER X.509 certificate.",
                    offset: node.offset)
            }
        }
    }

    // MARK: Phase 4: algorithms (invalid_signature)

    private static func algorithms(
        _ signedData: CMSSignedData, _ signer: SignerInfo, _ reader: BERReader
    ) throws(ReceiptValidationError) -> DigestAlgorithm {
        let digestAlgorithm = signer.digestAlgorithm
        let signatureAlgorithm = signer.signatureAlgorithm
        guard let digestOID = digestAlgorithm.algorithmOID(reader), let signatureOID = signatureAlgorithm.algorithmOID(reader) else {
            throw ReceiptValidationError(.invalidSignature, "The signer's algorithms could not be read.")
        }
        let digest = DigestAlgorithm(oid: digestOID)
        guard digest == .sha1 || digest == .sha256, digestAlgorithm.hasAbsentOrNullParameters else {
            throw ReceiptValidationError(
                .invalidSignature, "The signer's digest algorithm \(digestOID) is not SHA-1 or SHA-256 (with absent or NULL parameters).")
        }
        guard signedData.digestAlgorithms.contains(where: { $0.algorithmOID(reader) == digestOID }) else {
            throw ReceiptValidationError(
                .invalidSignature, "The signer's digest algorithm \(digest) is not listed in the signedData's digestAlgorithms.")
        }
        let expected = digest == .sha1 ? sha1WithRSAOID : sha256WithRSAOID
        guard signatureOID == rsaEncryptionOID || signatureOID == expected, signatureAlgorithm.hasAbsentOrNullParameters else {
            throw ReceiptValidationError(
                .invalidSignature, "The signature algorithm \(signatureOID) is not RSA with the signer's digest \(digest).")
        }
        if let attributes = signer.signedAttributes {
            try checkSignedAttributes(attributes, reader)
        }
        return digest
    }

    private static let messageDigestOID = KnownObjectIdentifier.messageDigest.dotted
    private static let contentTypeOID = KnownObjectIdentifier.contentType.dotted

    /// RFC 5652 §5.3/§11: exactly one messageDigest attribute holding one OCTET STRING, and at most
    /// one contentType attribute, whose one value is id-data (the eContentType). OpenSSL's PKCS #7
    /// verification does not compare the contentType attribute; GnuTLS does.
    private static func checkSignedAttributes(_ attributes: CMSAttributes, _ reader: BERReader) throws(ReceiptValidationError) {
        guard SignedAttributeEncoding.isDER(reader.bytes, attributes.node.offset..<attributes.node.end) else {
            throw ReceiptValidationError(
                .invalidSignature,
                "The signed attributes are not DER (sorted SETs, minimal lengths, DER values), so the bytes their signature covers are not one agreed encoding.",
                offset: attributes.node.offset)
        }
        var digests = 0
        var contentTypes = 0
        for attribute in attributes.attributes {
            let values = attribute.values
            switch oid(attribute.type, reader) {
            case messageDigestOID:
                digests += 1
                guard values.count == 1, values[0].identifier == .octetString else {
                    throw ReceiptValidationError(
                        .invalidSignature, "The messageDigest attribute does not hold exactly one OCTET STRING.")
                }
            case contentTypeOID:
                contentTypes += 1
                guard values.count == 1, oid(values[0], reader) == PKCS7Container.dataOID else {
                    throw ReceiptValidationError(
                        .invalidSignature, "The contentType attribute does not match the encapsulated content type (id-data).")
                }
            default:
                continue
            }
        }
        guard digests == 1, contentTypes <= 1 else {
            throw ReceiptValidationError(
                .invalidSignature,
                "The signed attributes hold \(digests) messageDigest and \(contentTypes) contentType attributes; exactly one and at most one are allowed.")
        }
    }

    // MARK: Phase 5: the signer's certificate (untrusted_chain)

    private static func signerCertificate(
        _ signedData: CMSSignedData, _ signer: SignerInfo, _ bytes: [UInt8]
    ) throws(ReceiptValidationError) -> Range<Int> {
        let issuer = signer.issuer.offset..<signer.issuer.end
        let serial = signer.serialNumber.offset..<signer.serialNumber.end
        // Compared in place: the certificates were checked as strict DER in phase 3.
        let candidates = bytes.withUnsafeBufferPointer { pointer -> [(certificate: Range<Int>, issuer: Range<Int>)] in
            let cursor = DERCursor(pointer)
            return signedData.certificates.compactMap { node in
                guard let identity = CertificateStructure.issuerAndSerial(cursor, node.offset..<node.end),
                      pointer[identity.serial].elementsEqual(pointer[serial])
                else { return nil }
                return (node.offset..<node.end, identity.issuer)
            }
        }
        guard let exact = candidates.first(where: { bytes[$0.issuer].elementsEqual(bytes[issuer]) }) else {
            throw ReceiptValidationError(
                .untrustedChain,
                "No embedded certificate has exactly the signer's issuer name and serial number; the signer's certificate is missing.")
        }
        // OpenSSL finds the signer by canonical name comparison (case and spacing ignored), GnuTLS
        // by exact bytes: the signer identifier must not also name another certificate loosely.
        let others = candidates.filter { !bytes[$0.certificate].elementsEqual(bytes[exact.certificate]) }
        if !others.isEmpty {
            let looseIssuer = CertificateStructure.looseNameKey(Array(bytes[issuer]))
            for other in others where CertificateStructure.looseNameKey(Array(bytes[other.issuer])) == looseIssuer {
                throw ReceiptValidationError(
                    .untrustedChain,
                    "The signer's issuer name and serial number identify more than one embedded certificate.")
            }
        }
        return exact.certificate
    }
}
