#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SwiftASN1

/// Readable facts about an X.509 certificate, decoded in pure Swift (swift-asn1, strict DER).
///
/// Nothing here is verified: use it for policy checks on a chain a ``CryptoBackend`` already
/// verified (Apple's marker OIDs), and for diagnostics.
///
/// ```swift
/// let leaf = try CertificateInfo(verified.signerChain[0])
/// leaf.extensionOIDs.contains("1.2.840.113635.100.6.11.1")
/// ```
public struct CertificateInfo: Hashable, Sendable {
    /// The subject in RFC 4514 form (RDNs in reverse DER order; types without an RFC 4514 short name as dotted OIDs), e.g.
    /// `CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US`.
    public let subject: String
    /// The issuer in RFC 4514 form.
    public let issuer: String
    /// The serial number as lowercase hex without leading zeros (`2`, `2dab03…`).
    public let serialHex: String
    /// Start of the validity period.
    public let notBefore: Date
    /// End of the validity period.
    public let notAfter: Date
    /// The dotted OIDs of every extension present, in order.
    public let extensionOIDs: [String]
    /// Whether basicConstraints says `cA: TRUE`.
    public let isCA: Bool
    /// Whether the issuer name equals the subject name (byte for byte).
    public let isSelfIssued: Bool
    /// The dotted OID of the signature algorithm (e.g. `1.2.840.113549.1.1.5` for sha1WithRSAEncryption).
    public let signatureAlgorithmOID: String

    /// Decodes a certificate.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when it is not a DER X.509 certificate.
    public init(_ certificate: Certificate) throws(ReceiptValidationError) {
        try self.init(derBytes: certificate.derBytes)
    }

    /// Decodes a certificate from DER.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when it is not a DER X.509 certificate.
    public init(derBytes: [UInt8]) throws(ReceiptValidationError) {
        do {
            self = try Self.decode(derBytes)
        } catch let error as ReceiptValidationError {
            throw error
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "The certificate is not valid DER: \(error).")
        }
    }

    private init(
        subject: String, issuer: String, serialHex: String, notBefore: Date, notAfter: Date,
        extensionOIDs: [String], isCA: Bool, isSelfIssued: Bool, signatureAlgorithmOID: String
    ) {
        self.subject = subject
        self.issuer = issuer
        self.serialHex = serialHex
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.extensionOIDs = extensionOIDs
        self.isCA = isCA
        self.isSelfIssued = isSelfIssued
        self.signatureAlgorithmOID = signatureAlgorithmOID
    }

    private static func invalid(_ reason: String) -> ReceiptValidationError {
        ReceiptValidationError(.invalidCertificate, "The certificate is malformed: \(reason).")
    }

    private static func children(_ node: ASN1Node, _ what: String) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else { throw invalid("\(what) is not constructed") }
        return Array(nodes)
    }

    private static func primitive(_ node: ASN1Node, _ what: String) throws -> ArraySlice<UInt8> {
        guard case .primitive(let bytes) = node.content else { throw invalid("\(what) is not primitive") }
        return bytes
    }

    private static func decode(_ der: [UInt8]) throws -> CertificateInfo {
        let parts = try walk(der)
        return CertificateInfo(
            subject: try distinguishedName(parts.subject),
            issuer: try distinguishedName(parts.issuer),
            serialHex: serialHex(parts.serial),
            notBefore: try time(parts.notBefore),
            notAfter: try time(parts.notAfter),
            extensionOIDs: parts.extensionOIDs.map(\.description),
            isCA: parts.isCA,
            isSelfIssued: parts.issuer.encodedBytes.elementsEqual(parts.subject.encodedBytes),
            signatureAlgorithmOID: parts.signatureAlgorithm.description
        )
    }

    /// Whether the certificate carries an extension with `oid`, after exactly the checks
    /// ``init(_:)`` makes (it throws exactly when ``init(_:)`` throws) but without rendering names,
    /// OIDs or the serial number as text: the chain policy's hot path.
    static func hasExtension(dotted oid: String, in certificate: Certificate) throws(ReceiptValidationError) -> Bool {
        let parts: Parts
        do {
            parts = try walk(certificate.derBytes)
            // The order of ``decode(_:)``: subject, issuer, then the two times.
            try checkName(parts.subject)
            try checkName(parts.issuer)
            _ = try time(parts.notBefore)
            _ = try time(parts.notAfter)
        } catch let error as ReceiptValidationError {
            throw error
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "The certificate is not valid DER: \(error).")
        }
        return parts.extensionOIDs.contains { $0.description == oid }
    }

    /// The decoded fields, names still as nodes.
    private struct Parts {
        var serial: ArraySlice<UInt8>
        var signatureAlgorithm: ASN1ObjectIdentifier
        var issuer: ASN1Node
        var subject: ASN1Node
        var notBefore: ASN1Node
        var notAfter: ASN1Node
        var extensionOIDs: [ASN1ObjectIdentifier]
        var isCA: Bool
    }

    private static func walk(_ der: [UInt8]) throws -> Parts {
        let root = try DER.parse(der)
        let top = try children(root, "Certificate")
        guard root.identifier == .sequence, top.count == 3 else { throw invalid("Certificate is not a SEQUENCE of 3") }
        var tbs = try children(top[0], "TBSCertificate")[...]
        guard top[0].identifier == .sequence else { throw invalid("TBSCertificate is not a SEQUENCE") }
        if let first = tbs.first, first.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            tbs = tbs.dropFirst()
        }
        guard tbs.count >= 6 else { throw invalid("TBSCertificate has too few fields") }
        let fields = Array(tbs)
        guard fields[0].identifier == .integer else { throw invalid("serial number is not an INTEGER") }
        let serial = try primitive(fields[0], "serial number")
        let signatureAlgorithm = try children(fields[1], "signature AlgorithmIdentifier")
        guard let algorithmNode = signatureAlgorithm.first else { throw invalid("empty AlgorithmIdentifier") }
        let algorithm = try ASN1ObjectIdentifier(derEncoded: algorithmNode)
        let issuerNode = fields[2]
        let validity = try children(fields[3], "Validity")
        guard validity.count == 2 else { throw invalid("Validity does not hold two times") }
        let subjectNode = fields[4]

        var extensionOIDs: [ASN1ObjectIdentifier] = []
        var isCA = false
        for field in fields.dropFirst(6) where field.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) {
            let wrapped = try children(field, "extensions")
            guard let list = wrapped.first, list.identifier == .sequence else { throw invalid("extensions are not a SEQUENCE") }
            for extensionNode in try children(list, "extensions") {
                let parts = try children(extensionNode, "Extension")
                guard let oidNode = parts.first, let valueNode = parts.last, valueNode.identifier == .octetString else {
                    throw invalid("an Extension is malformed")
                }
                let oid = try ASN1ObjectIdentifier(derEncoded: oidNode)
                extensionOIDs.append(oid)
                if oid == basicConstraintsOID {
                    let value = try DER.parse(try primitive(valueNode, "basicConstraints"))
                    let constraints = try children(value, "BasicConstraints")
                    if let first = constraints.first, first.identifier == .boolean {
                        isCA = try Bool(derEncoded: first)
                    }
                }
            }
        }

        return Parts(
            serial: serial,
            signatureAlgorithm: algorithm,
            issuer: issuerNode,
            subject: subjectNode,
            notBefore: validity[0],
            notAfter: validity[1],
            extensionOIDs: extensionOIDs,
            isCA: isCA
        )
    }

    private static let basicConstraintsOID: ASN1ObjectIdentifier = [2, 5, 29, 19]

    private static func serialHex(_ bytes: ArraySlice<UInt8>) -> String {
        var text = Hex.encode(Array(bytes))
        while text.count > 1, text.hasPrefix("0") { text.removeFirst() }
        return text
    }

    private static func time(_ node: ASN1Node) throws -> Date {
        if node.identifier == .utcTime {
            let time = try UTCTime(derEncoded: node)
            return RFC3339.date(
                year: time.year, month: time.month, day: time.day, hour: time.hours, minute: time.minutes, second: time.seconds
            )
        }
        if node.identifier == .generalizedTime {
            let time = try GeneralizedTime(derEncoded: node)
            return RFC3339.date(
                year: time.year, month: time.month, day: time.day, hour: time.hours, minute: time.minutes,
                second: time.seconds, fraction: time.fractionalSeconds
            )
        }
        throw invalid("a validity time is neither UTCTime nor GeneralizedTime")
    }

    /// The short names RFC 4514 section 3 defines; every other attribute type is written as its
    /// dotted OID (e.g. `1.2.840.113549.1.9.1=StoreKit` for an e-mail address).
    private static let shortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
        "2.5.4.9": "STREET", "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
    ]

    /// RFC 4514 string of a Name: RDNs in reverse order, joined by `,`; multi-valued RDNs by `+`.
    private static func distinguishedName(_ node: ASN1Node) throws -> String {
        guard node.identifier == .sequence else { throw invalid("a Name is not a SEQUENCE") }
        var rdns: [String] = []
        for rdn in try children(node, "Name") {
            guard rdn.identifier == .set else { throw invalid("an RDN is not a SET") }
            var parts: [String] = []
            for attribute in try children(rdn, "RDN") {
                let pair = try children(attribute, "AttributeTypeAndValue")
                guard pair.count == 2 else { throw invalid("an AttributeTypeAndValue is malformed") }
                let oid = try ASN1ObjectIdentifier(derEncoded: pair[0]).description
                parts.append("\(shortNames[oid] ?? oid)=\(attributeValue(pair[1]))")
            }
            rdns.append(parts.joined(separator: "+"))
        }
        return rdns.reversed().joined(separator: ",")
    }

    /// The checks ``distinguishedName(_:)`` makes, without building the string.
    private static func checkName(_ node: ASN1Node) throws {
        guard node.identifier == .sequence else { throw invalid("a Name is not a SEQUENCE") }
        for rdn in try children(node, "Name") {
            guard rdn.identifier == .set else { throw invalid("an RDN is not a SET") }
            for attribute in try children(rdn, "RDN") {
                let pair = try children(attribute, "AttributeTypeAndValue")
                guard pair.count == 2 else { throw invalid("an AttributeTypeAndValue is malformed") }
                _ = try ASN1ObjectIdentifier(derEncoded: pair[0])
            }
        }
    }

    /// A string attribute value, escaped per RFC 4514; other kinds as `#` + hex of the DER.
    private static func attributeValue(_ node: ASN1Node) -> String {
        guard case .primitive(let bytes) = node.content else { return "#" + Hex.encode(Array(node.encodedBytes)) }
        let text: String?
        switch node.identifier {
        case .utf8String, .printableString, .ia5String, .visibleString, .numericString:
            text = String(validating: bytes, as: UTF8.self)
        case .teletexString:
            text = String(decoding: bytes, as: UTF8.self)  // Latin-1 is rare in practice; keep readable
        case .bmpString:
            guard bytes.count % 2 == 0 else { return "#" + Hex.encode(Array(node.encodedBytes)) }
            var units: [UInt16] = []
            var index = bytes.startIndex
            while index < bytes.endIndex {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            text = String(decoding: units, as: UTF16.self)
        default:
            text = nil
        }
        guard let text else { return "#" + Hex.encode(Array(node.encodedBytes)) }
        return escape(text)
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let special = ",+\"\\<>;=".contains(character)
            let leading = index == 0 && (character == "#" || character == " ")
            let trailing = index == characters.count - 1 && character == " "
            if special || leading || trailing { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
