/// The fields of one strict-DER X.509 certificate that the validator's chain rules read
/// (``SignerPaths``): names, serial number, signature algorithm and the extensions that decide
/// whether a certificate may issue another.
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm AlgorithmIdentifier,
///                            signatureValue BIT STRING }
/// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT INTEGER DEFAULT v1, serialNumber INTEGER,
///   signature AlgorithmIdentifier, issuer Name, validity Validity, subject Name,
///   subjectPublicKeyInfo SubjectPublicKeyInfo, issuerUniqueID [1] OPTIONAL,
///   subjectUniqueID [2] OPTIONAL, extensions [3] EXPLICIT Extensions OPTIONAL }
/// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE,
///                          extnValue OCTET STRING }
/// ```
///
/// Copied out of the certificate's ``X509Certificate`` reading, from a certificate
/// ``CertificateStructure/isCertificate(_:)`` accepted (embedded ones) or from a trust anchor;
/// `nil` for anything not in that shape.
package struct ChainCertificate: Sendable {
    /// One extension.
    package struct Extension: Sendable {
        /// The extnID's content octets.
        package var identifier: [UInt8]
        /// The critical flag.
        package var isCritical: Bool
        /// The extnValue OCTET STRING's content octets (the extension's own DER).
        package var value: [UInt8]
    }

    /// The whole certificate.
    package var der: [UInt8]
    /// 0 for v1, 1 for v2, 2 for v3.
    package var version: Int
    /// The serialNumber INTEGER's content octets.
    package var serialNumber: [UInt8]
    /// The issuer Name TLV.
    package var issuer: [UInt8]
    /// The subject Name TLV.
    package var subject: [UInt8]
    /// The signatureAlgorithm's OID content octets.
    package var signatureAlgorithm: [UInt8]
    /// The extensions, in order.
    package var extensions: [Extension]

    /// Whether issuer and subject are the same name, byte for byte.
    package var isSelfIssued: Bool { issuer == subject }

    /// Reads `der`, or `nil` when it is not one certificate in the shape above.
    package init?(_ der: [UInt8]) {
        guard let read = der.withUnsafeBufferPointer({ Self.read($0) }) else { return nil }
        self = read
        self.der = der
    }

    private init(
        der: [UInt8], version: Int, serialNumber: [UInt8], issuer: [UInt8], subject: [UInt8], signatureAlgorithm: [UInt8],
        extensions: [Extension]
    ) {
        self.der = der
        self.version = version
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.signatureAlgorithm = signatureAlgorithm
        self.extensions = extensions
    }

    private static func read(_ pointer: UnsafeBufferPointer<UInt8>) -> ChainCertificate? {
        let cursor = DERCursor(pointer)
        guard let certificate = X509Certificate(cursor), let version = certificate.tbsCertificate.versionNumber(cursor),
              let extensions = certificate.tbsCertificate.extensionList(cursor)
        else { return nil }
        let tbs = certificate.tbsCertificate
        func content(_ element: DERCursor.Element) -> [UInt8] { Array(pointer[element.contentStart..<element.end]) }
        return ChainCertificate(
            der: [], version: version,
            serialNumber: content(tbs.serialNumber),
            issuer: Array(pointer[tbs.issuer.whole]),
            subject: Array(pointer[tbs.subject.whole]),
            signatureAlgorithm: content(certificate.signatureAlgorithm.algorithm),
            extensions: extensions.map {
                Extension(identifier: content($0.extnID), isCritical: $0.isCritical(cursor), value: content($0.extnValue))
            })
    }

    /// The value of the extension with `identifier` (content octets), if present.
    package func extensionValue(_ identifier: [UInt8]) -> [UInt8]? {
        extensions.first { $0.identifier == identifier }?.value
    }
}

extension ChainCertificate {
    /// The X.509 extensions the chain rules read, by their OIDs' content octets.
    enum ExtensionIdentifier {
        /// subjectKeyIdentifier, 2.5.29.14.
        static let subjectKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x0E]
        /// keyUsage, 2.5.29.15.
        static let keyUsage: [UInt8] = [0x55, 0x1D, 0x0F]
        /// subjectAltName, 2.5.29.17.
        static let subjectAltName: [UInt8] = [0x55, 0x1D, 0x11]
        /// basicConstraints, 2.5.29.19.
        static let basicConstraints: [UInt8] = [0x55, 0x1D, 0x13]
        /// authorityKeyIdentifier, 2.5.29.35.
        static let authorityKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x23]
        /// extKeyUsage, 2.5.29.37.
        static let extendedKeyUsage: [UInt8] = [0x55, 0x1D, 0x25]

        /// The extensions whose meaning the rules (or the libraries, identically) apply; any other
        /// marked critical makes the certificate unusable (RFC 5280 §4.2).
        static let processed: [[UInt8]] = [
            subjectKeyIdentifier, keyUsage, subjectAltName, basicConstraints, authorityKeyIdentifier, extendedKeyUsage,
        ]
    }

    /// Whether basicConstraints says cA TRUE.
    var isCertificateAuthority: Bool {
        guard let value = extensionValue(ExtensionIdentifier.basicConstraints) else { return false }
        return value.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let sequence = cursor.element(at: 0, within: pointer.count), sequence.identifier == .sequence,
                  let first = cursor.children(of: sequence)?.first
            else { return false }
            return first.identifier == .boolean && first.end - first.contentStart == 1 && pointer[first.contentStart] != 0
        }
    }

    /// Whether keyUsage, when present, allows keyCertSign (bit 5); `true` without keyUsage.
    var allowsCertificateSigning: Bool {
        guard let value = extensionValue(ExtensionIdentifier.keyUsage) else { return true }
        // BIT STRING: 03 length unused-bits first-octet …; keyCertSign is 0x04 of the first octet.
        guard value.count >= 4, ASN1Tag(octet: value[0]) == .bitString else { return false }
        return value[3] & 0x04 != 0
    }

    /// The authorityKeyIdentifier's parts: keyIdentifier `[0]`, the directoryName of
    /// authorityCertIssuer `[1]` (a Name TLV) and authorityCertSerialNumber `[2]` (content octets).
    /// `nil` without the extension; each part `nil` when absent.
    var authorityKeyIdentifier: (keyIdentifier: [UInt8]?, issuer: [UInt8]?, serialNumber: [UInt8]?)? {
        guard let value = extensionValue(ExtensionIdentifier.authorityKeyIdentifier) else { return nil }
        return value.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let sequence = cursor.element(at: 0, within: pointer.count), sequence.identifier == .sequence,
                  let members = cursor.children(of: sequence)
            else { return (nil, nil, nil) }
            var result: (keyIdentifier: [UInt8]?, issuer: [UInt8]?, serialNumber: [UInt8]?) = (nil, nil, nil)
            for member in members {
                switch member.identifier {
                case .contextSpecific(0, constructed: false): result.keyIdentifier = Array(pointer[member.contentStart..<member.end])
                case .contextSpecific(1, constructed: true):
                    // GeneralNames: the directoryName [4] EXPLICIT Name.
                    let name = cursor.children(of: member)?.first { $0.identifier == .contextSpecific(4, constructed: true) }
                    if let name, let inner = cursor.children(of: name)?.first {
                        result.issuer = Array(pointer[inner.whole])
                    } else {
                        result.issuer = []
                    }
                case .contextSpecific(2, constructed: false): result.serialNumber = Array(pointer[member.contentStart..<member.end])
                default: continue
                }
            }
            return result
        }
    }

    /// The subjectKeyIdentifier's key identifier octets, if present.
    var subjectKeyIdentifier: [UInt8]? {
        guard let value = extensionValue(ExtensionIdentifier.subjectKeyIdentifier), value.count >= 2,
              ASN1Tag(octet: value[0]) == .octetString
        else { return nil }
        return value.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let octets = cursor.element(at: 0, within: pointer.count), octets.identifier == .octetString else { return nil }
            return Array(pointer[octets.contentStart..<octets.end])
        }
    }
}
