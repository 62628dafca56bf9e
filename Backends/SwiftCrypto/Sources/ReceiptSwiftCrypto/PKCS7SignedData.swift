import ReceiptKit
import SwiftASN1

/// A PKCS #7 / CMS signedData as this backend reads it with swift-asn1 (DER or BER): the parts the
/// verification needs, each a slice of the input (nothing copied but the segments of a
/// constructed content).
///
/// ```
/// ContentInfo ::= SEQUENCE {
///   contentType OBJECT IDENTIFIER,                 -- id-signedData
///   content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE {
///   version INTEGER,
///   digestAlgorithms SET OF AlgorithmIdentifier,
///   encapContentInfo SEQUENCE {
///     eContentType OBJECT IDENTIFIER,              -- id-data
///     eContent [0] EXPLICIT OCTET STRING OPTIONAL },
///   certificates [0] IMPLICIT SET OF Certificate OPTIONAL,
///   crls [1] IMPLICIT SET OF ANY OPTIONAL,
///   signerInfos SET OF SignerInfo }               -- exactly one is accepted
/// ```
/// (RFC 5652 §3, §5.1, §5.2; the SignerInfo is ``PKCS7SignerInfo``.) Anything that does not follow
/// it is `not_pkcs7`; another content type, no content or not exactly one signer is `not_signed`.
struct PKCS7SignedData {
    /// The encapsulated content: where it lies in the input when it is one primitive OCTET
    /// STRING, or the concatenated segments of a constructed one (BER).
    enum Content {
        case inPlace(ArraySlice<UInt8>)
        case joined([UInt8])
    }

    /// The content.
    var content: Content
    /// The embedded certificates, each its whole encoding.
    var certificates: [ArraySlice<UInt8>]
    /// The one signer.
    var signer: PKCS7SignerInfo

    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// Reads `bytes`.
    /// - Throws: `not_pkcs7` or `not_signed`.
    init(_ bytes: [UInt8]) throws(ReceiptValidationError) {
        let root: ASN1Node
        do {
            root = try BER.parse(bytes)
        } catch {
            throw Self.notPKCS7("the input is not one BER element (\(error))")
        }
        // ContentInfo
        let info = try Self.children(of: root, .sequence, "ContentInfo")
        guard info.count == 2 || info.count == 1 else { throw Self.notPKCS7("the ContentInfo does not hold two fields") }
        guard try Self.oid(info[0], "contentType") == Self.signedDataOID else {
            throw ReceiptValidationError(.notSigned, "The PKCS #7 structure is not signedData.")
        }
        guard info.count == 2 else {
            throw ReceiptValidationError(.notSigned, "The ContentInfo has no signedData content.")
        }
        let explicit = try Self.children(of: info[1], Self.context(0), "ContentInfo content")
        guard explicit.count == 1 else { throw Self.notPKCS7("the ContentInfo content is not one element") }

        // SignedData
        let fields = try Self.children(of: explicit[0], .sequence, "SignedData")
        guard fields.count >= 4 else { throw Self.notPKCS7("SignedData has fewer than four fields") }
        guard fields[0].identifier == .integer else { throw Self.notPKCS7("SignedData version is not an INTEGER") }
        _ = try Self.children(of: fields[1], .set, "digestAlgorithms")
        let encapsulated = try Self.children(of: fields[2], .sequence, "encapContentInfo")
        guard (1...2).contains(encapsulated.count) else { throw Self.notPKCS7("encapContentInfo does not hold one or two fields") }
        let eContentType = try Self.oid(encapsulated[0], "eContentType")
        var position = 3
        var certificates: [ArraySlice<UInt8>] = []
        if position < fields.count - 1, fields[position].identifier == Self.context(0) {
            certificates = try Self.children(of: fields[position], Self.context(0), "certificates").map(\.encodedBytes)
            position += 1
        }
        if position < fields.count - 1, fields[position].identifier == Self.context(1) {
            throw ReceiptValidationError(.notSigned, "The signedData carries certificate revocation lists.")
        }
        guard position == fields.count - 1 else { throw Self.notPKCS7("SignedData has unexpected fields") }
        let signerInfos = try Self.children(of: fields[position], .set, "signerInfos")

        guard eContentType == Self.dataOID else {
            throw ReceiptValidationError(.notSigned, "The signedData does not encapsulate id-data content.")
        }
        guard encapsulated.count == 2 else {
            throw ReceiptValidationError(.notSigned, "The signedData has no encapsulated content.")
        }
        let eContent = try Self.children(of: encapsulated[1], Self.context(0), "eContent")
        guard eContent.count == 1 else { throw Self.notPKCS7("eContent is not one OCTET STRING") }
        let content = try Self.octets(eContent[0])
        guard signerInfos.count == 1 else {
            throw ReceiptValidationError(
                .notSigned,
                signerInfos.isEmpty ? "The signedData has no signer." : "The signedData has \(signerInfos.count) signers; exactly one is supported.")
        }
        self.content = content
        self.certificates = certificates
        self.signer = try PKCS7SignerInfo(signerInfos[0])
    }

    /// The content bytes of an OCTET STRING, primitive (in place) or constructed (joined; the
    /// recursion is bounded by swift-asn1's nesting limit).
    private static func octets(_ node: ASN1Node) throws(ReceiptValidationError) -> Content {
        guard node.identifier == .octetString else { throw notPKCS7("eContent is not an OCTET STRING") }
        switch node.content {
        case .primitive(let bytes):
            return .inPlace(bytes)
        case .constructed(let segments):
            var joined: [UInt8] = []
            for segment in segments {
                switch try octets(segment) {
                case .inPlace(let bytes): joined += bytes
                case .joined(let bytes): joined += bytes
                }
            }
            return .joined(joined)
        }
    }

    // MARK: Reading helpers (shared with PKCS7SignerInfo)

    static func context(_ number: UInt) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }

    static func notPKCS7(_ reason: String) -> ReceiptValidationError {
        ReceiptValidationError(.notPKCS7, "Not a PKCS #7 signedData: \(reason).")
    }

    /// The children of a constructed `node` tagged `identifier`.
    static func children(
        of node: ASN1Node, _ identifier: ASN1Identifier, _ name: String
    ) throws(ReceiptValidationError) -> [ASN1Node] {
        guard node.identifier == identifier, case .constructed(let children) = node.content else {
            throw notPKCS7("\(name) is not a constructed \(identifier)")
        }
        return Array(children)
    }

    static func oid(_ node: ASN1Node, _ name: String) throws(ReceiptValidationError) -> ASN1ObjectIdentifier {
        do {
            return try ASN1ObjectIdentifier(berEncoded: node)
        } catch {
            throw notPKCS7("\(name) is not an OBJECT IDENTIFIER")
        }
    }
}

/// One SignerInfo (RFC 5652 §5.3), as slices of the input.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///   version INTEGER,
///   sid IssuerAndSerialNumber,                     -- SEQUENCE { issuer Name, serialNumber INTEGER }
///   digestAlgorithm AlgorithmIdentifier,
///   signedAttrs [0] IMPLICIT SET OF Attribute OPTIONAL,
///   signatureAlgorithm AlgorithmIdentifier,
///   signature OCTET STRING,
///   unsignedAttrs [1] IMPLICIT SET OF Attribute OPTIONAL }
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF ANY }
/// ```
struct PKCS7SignerInfo {
    /// The issuer Name of the signer's certificate.
    var issuer: ASN1Node
    /// The serial number's INTEGER content octets.
    var serialNumber: ArraySlice<UInt8>
    /// The digest algorithm's OID.
    var digestAlgorithm: ASN1ObjectIdentifier
    /// The signed attributes' whole encoding (`[0] IMPLICIT`), when present.
    var signedAttributes: ArraySlice<UInt8>?
    /// The messageDigest values (each an OCTET STRING's content) among the signed attributes.
    var messageDigests: [ArraySlice<UInt8>] = []
    /// The contentType values among the signed attributes.
    var contentTypes: [ASN1ObjectIdentifier] = []
    /// The signature algorithm's OID.
    var signatureAlgorithm: ASN1ObjectIdentifier
    /// The signature octets.
    var signature: ArraySlice<UInt8>

    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]

    init(_ node: ASN1Node) throws(ReceiptValidationError) {
        typealias Read = PKCS7SignedData
        let fields = try Read.children(of: node, .sequence, "SignerInfo")
        guard fields.count >= 5, fields[0].identifier == .integer else {
            throw Read.notPKCS7("the SignerInfo does not start with a version and hold five fields")
        }
        guard fields[1].identifier == .sequence else {
            throw ReceiptValidationError(
                .untrustedChain, "The SignerInfo names its certificate by subjectKeyIdentifier; issuerAndSerialNumber is supported.")
        }
        let sid = try Read.children(of: fields[1], .sequence, "issuerAndSerialNumber")
        guard sid.count == 2, sid[0].identifier == .sequence, sid[1].identifier == .integer,
              case .primitive(let serial) = sid[1].content
        else { throw Read.notPKCS7("issuerAndSerialNumber is not { Name, INTEGER }") }
        self.issuer = sid[0]
        self.serialNumber = serial
        self.digestAlgorithm = try Self.algorithm(fields[2], "digestAlgorithm")
        var position = 3
        if fields[position].identifier == Read.context(0) {
            self.signedAttributes = fields[position].encodedBytes
            for attribute in try Read.children(of: fields[position], Read.context(0), "signedAttrs") {
                let parts = try Read.children(of: attribute, .sequence, "Attribute")
                guard parts.count == 2 else { throw Read.notPKCS7("an Attribute is not { type, values }") }
                let type = try Read.oid(parts[0], "attrType")
                let values = try Read.children(of: parts[1], .set, "attrValues")
                if type == Self.messageDigestOID {
                    for value in values {
                        guard value.identifier == .octetString, case .primitive(let digest) = value.content else {
                            throw ReceiptValidationError(.invalidSignature, "The messageDigest attribute is not an OCTET STRING.")
                        }
                        messageDigests.append(digest)
                    }
                } else if type == Self.contentTypeOID {
                    for value in values { contentTypes.append(try Read.oid(value, "contentType")) }
                }
            }
            position += 1
        }
        guard position + 1 < fields.count else { throw Read.notPKCS7("the SignerInfo lacks its signature") }
        self.signatureAlgorithm = try Self.algorithm(fields[position], "signatureAlgorithm")
        guard fields[position + 1].identifier == .octetString, case .primitive(let signature) = fields[position + 1].content else {
            throw Read.notPKCS7("the signature is not a primitive OCTET STRING")
        }
        self.signature = signature
        position += 2
        if position < fields.count, fields[position].identifier == Read.context(1) { position += 1 }
        guard position == fields.count else { throw Read.notPKCS7("the SignerInfo has unexpected fields") }
    }

    /// The OID of an `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`.
    private static func algorithm(_ node: ASN1Node, _ name: String) throws(ReceiptValidationError) -> ASN1ObjectIdentifier {
        let parts = try PKCS7SignedData.children(of: node, .sequence, name)
        guard (1...2).contains(parts.count) else { throw PKCS7SignedData.notPKCS7("\(name) is not an AlgorithmIdentifier") }
        return try PKCS7SignedData.oid(parts[0], name)
    }
}
