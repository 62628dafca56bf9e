/// An X.509 `Certificate` (RFC 5280 §4.1), read in place with the strict DER cursor: every field
/// is a range of the caller's buffer (the ``DERCursor``'s), nothing is copied. Named
/// `X509Certificate` because ``Certificate`` is the package's public DER holder.
///
/// ```
/// Certificate ::= SEQUENCE {
///   tbsCertificate       TBSCertificate,
///   signatureAlgorithm   AlgorithmIdentifier,
///   signatureValue       BIT STRING }
/// ```
///
/// The one reading of a certificate's fields: ``CertificateStructure`` (the strict structure check
/// every embedded certificate passes), ``ChainCertificate`` (the chain rules' fields),
/// ``CertificateFields`` (the verified-chain cache's), ``CertificateExtensionScan`` (the chain
/// policy's first look), ``RSAPublicKeyLocator`` (a backend's kept key) and ``ValidityPeriod``
/// (the inclusive validity rule) all take their ranges from it. It checks the shape (each field's
/// tag, strict DER lengths, the fields tiling their SEQUENCE exactly, a Validity of two strict
/// times) and nothing of the contents beyond that: whether the version, serial number, names,
/// algorithms, key and extensions are well-formed is ``CertificateStructure``'s rule.
///
/// Read on the cold path only (once per certificate a validation meets, never in a warm one), so
/// it is kept simple rather than fast.
package struct X509Certificate: Sendable, Equatable {
    /// The whole Certificate SEQUENCE.
    package var node: DERCursor.Element
    /// The signed part.
    package var tbsCertificate: TBSCertificate
    /// The outer signatureAlgorithm (which the structure check requires equal to the TBS's
    /// ``TBSCertificate/signature``).
    package var signatureAlgorithm: DERAlgorithmIdentifier
    /// The signatureValue BIT STRING (primitive).
    package var signatureValue: DERCursor.Element

    /// The certificate that fills the cursor's whole buffer, or `nil` when it is not one in the
    /// shape above.
    package init?(_ cursor: DERCursor) {
        self.init(cursor, in: 0..<cursor.bytes.count)
    }

    /// The certificate that spans exactly `range` of the cursor's buffer, or `nil`.
    package init?(_ cursor: DERCursor, in range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= cursor.bytes.count,
              let certificate = cursor.element(at: range.lowerBound, within: range.upperBound),
              certificate.identifier == .sequence, certificate.end == range.upperBound,
              let tbs = cursor.element(at: certificate.contentStart, within: certificate.end),
              let tbsCertificate = TBSCertificate(cursor, tbs),
              let algorithm = cursor.element(at: tbs.end, within: certificate.end),
              let signatureAlgorithm = DERAlgorithmIdentifier(cursor, algorithm),
              let signatureValue = cursor.element(at: algorithm.end, within: certificate.end),
              signatureValue.identifier == .bitString, signatureValue.end == certificate.end
        else { return nil }
        node = certificate
        self.tbsCertificate = tbsCertificate
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureValue = signatureValue
    }
}

/// The signed part of an ``X509Certificate`` (RFC 5280 §4.1), read in place.
///
/// ```
/// TBSCertificate ::= SEQUENCE {
///   version          [0] EXPLICIT Version DEFAULT v1,
///   serialNumber         CertificateSerialNumber,
///   signature            AlgorithmIdentifier,
///   issuer               Name,
///   validity             Validity,
///   subject              Name,
///   subjectPublicKeyInfo SubjectPublicKeyInfo,
///   issuerUniqueID   [1] IMPLICIT UniqueIdentifier OPTIONAL,   -- v2 and v3
///   subjectUniqueID  [2] IMPLICIT UniqueIdentifier OPTIONAL,   -- v2 and v3
///   extensions       [3] EXPLICIT Extensions OPTIONAL }        -- v3
/// Version ::= INTEGER { v1(0), v2(1), v3(2) }
/// CertificateSerialNumber ::= INTEGER
/// Name ::= SEQUENCE OF RelativeDistinguishedName               -- the RDNSequence choice
/// UniqueIdentifier ::= BIT STRING
/// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension
/// ```
///
/// Each field is tagged as the schema says (the names SEQUENCEs, the unique identifiers primitive,
/// `[0]` holding exactly one INTEGER and `[3]` exactly one SEQUENCE), in this order and nothing
/// after; the contents are ``CertificateStructure``'s to check.
package struct TBSCertificate: Sendable, Equatable {
    /// The TBSCertificate SEQUENCE.
    package var node: DERCursor.Element
    /// The version INTEGER inside its `[0] EXPLICIT` field, when present (v1 when absent).
    package var version: DERCursor.Element?
    /// The serialNumber INTEGER.
    package var serialNumber: DERCursor.Element
    /// The signature algorithm (the one the issuer signed with).
    package var signature: DERAlgorithmIdentifier
    /// The issuer Name SEQUENCE.
    package var issuer: DERCursor.Element
    /// The Validity and its two times.
    package var validity: CertificateValidity
    /// The subject Name SEQUENCE.
    package var subject: DERCursor.Element
    /// The subject's public key.
    package var subjectPublicKeyInfo: SubjectPublicKeyInfo
    /// The `[1]` issuerUniqueID (primitive; its content is a BIT STRING's), when present.
    package var issuerUniqueID: DERCursor.Element?
    /// The `[2]` subjectUniqueID (primitive), when present.
    package var subjectUniqueID: DERCursor.Element?
    /// The Extensions SEQUENCE inside the `[3] EXPLICIT` field, when present (see
    /// ``extensionList(_:)``).
    package var extensions: DERCursor.Element?

    /// The TBSCertificate in `element` of the cursor's buffer, or `nil` when it is not in the shape
    /// above.
    package init?(_ cursor: DERCursor, _ element: DERCursor.Element) {
        guard element.identifier == .sequence else { return nil }
        let end = element.end
        var fields = Fields(cursor: cursor, position: element.contentStart, end: end)
        guard var field = fields.next() else { return nil }
        node = element
        version = nil
        if field.identifier == .contextSpecific(0, constructed: true) {
            guard let integer = cursor.element(at: field.contentStart, within: field.end), integer.identifier == .integer,
                  integer.end == field.end, let next = fields.next()
            else { return nil }
            version = integer
            field = next
        }
        guard field.identifier == .integer,
              let signatureField = fields.next(), let signature = DERAlgorithmIdentifier(cursor, signatureField),
              let issuer = fields.next(), issuer.identifier == .sequence,
              let validityField = fields.next(), let validity = CertificateValidity(cursor, validityField),
              let subject = fields.next(), subject.identifier == .sequence,
              let keyField = fields.next(), let key = SubjectPublicKeyInfo(cursor, keyField)
        else { return nil }
        serialNumber = field
        self.signature = signature
        self.issuer = issuer
        self.validity = validity
        self.subject = subject
        subjectPublicKeyInfo = key
        issuerUniqueID = nil
        subjectUniqueID = nil
        extensions = nil
        var trailing = fields.next()
        if let field = trailing, field.identifier == .contextSpecific(1, constructed: false) {
            issuerUniqueID = field
            trailing = fields.next()
        }
        if let field = trailing, field.identifier == .contextSpecific(2, constructed: false) {
            subjectUniqueID = field
            trailing = fields.next()
        }
        if let field = trailing, field.identifier == .contextSpecific(3, constructed: true) {
            guard let list = cursor.element(at: field.contentStart, within: field.end), list.identifier == .sequence,
                  list.end == field.end
            else { return nil }
            extensions = list
            trailing = fields.next()
        }
        // Nothing else, and every field read (a field that did not fit ends the walk early).
        guard trailing == nil, fields.position == end else { return nil }
    }

    /// The version number (0 for v1, 1 for v2, 2 for v3): 0 when the field is absent, the value of
    /// a one-octet INTEGER, else `nil`.
    package func versionNumber(_ cursor: DERCursor) -> Int? {
        guard let version else { return 0 }
        guard version.end - version.contentStart == 1 else { return nil }
        return Int(cursor.bytes[version.contentStart])
    }

    /// One `Extension`.
    ///
    /// ```
    /// Extension ::= SEQUENCE {
    ///   extnID     OBJECT IDENTIFIER,
    ///   critical   BOOLEAN DEFAULT FALSE,
    ///   extnValue  OCTET STRING }       -- the extension's own DER
    /// ```
    package struct Extension: Sendable, Equatable {
        /// The Extension SEQUENCE.
        package var node: DERCursor.Element
        /// The extnID OBJECT IDENTIFIER.
        package var extnID: DERCursor.Element
        /// The element between the two, when present (a BOOLEAN in a well-formed extension).
        package var critical: DERCursor.Element?
        /// The extnValue OCTET STRING.
        package var extnValue: DERCursor.Element

        /// Whether ``critical`` is a one-octet BOOLEAN other than FALSE.
        package func isCritical(_ cursor: DERCursor) -> Bool {
            guard let critical, critical.identifier == .boolean, critical.end - critical.contentStart == 1 else { return false }
            return cursor.bytes[critical.contentStart] != 0
        }
    }

    /// The extensions in order: empty without the `[3]` field; `nil` when a member is not a
    /// SEQUENCE of an OBJECT IDENTIFIER, at most one other element and an OCTET STRING.
    package func extensionList(_ cursor: DERCursor) -> [Extension]? {
        guard let list = extensions else { return [] }
        var result: [Extension] = []
        var members = Fields(cursor: cursor, position: list.contentStart, end: list.end)
        while let item = members.next() {
            guard item.identifier == .sequence,
                  let extnID = cursor.element(at: item.contentStart, within: item.end), extnID.identifier == .objectIdentifier,
                  let second = cursor.element(at: extnID.end, within: item.end)
            else { return nil }
            var critical: DERCursor.Element?
            var extnValue = second
            if second.end != item.end {
                guard let third = cursor.element(at: second.end, within: item.end), third.end == item.end else { return nil }
                critical = second
                extnValue = third
            }
            guard extnValue.identifier == .octetString else { return nil }
            result.append(Extension(node: item, extnID: extnID, critical: critical, extnValue: extnValue))
        }
        return members.position == list.end ? result : nil
    }

    /// The elements of a SEQUENCE's content in order; stops (``position`` short of ``end``) at one
    /// that is not strict DER or does not fit.
    struct Fields {
        let cursor: DERCursor
        var position: Int
        let end: Int

        mutating func next() -> DERCursor.Element? {
            guard position < end, let element = cursor.element(at: position, within: end) else { return nil }
            position = element.end
            return element
        }
    }
}

/// A certificate's `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), read in place.
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE {
///   algorithm          AlgorithmIdentifier,
///   subjectPublicKey   BIT STRING }
/// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }   -- rsaEncryption's key
/// ```
package struct SubjectPublicKeyInfo: Sendable, Equatable {
    /// The SEQUENCE.
    package var node: DERCursor.Element
    /// The key's algorithm.
    package var algorithm: DERAlgorithmIdentifier
    /// The subjectPublicKey BIT STRING (primitive).
    package var subjectPublicKey: DERCursor.Element

    /// The SubjectPublicKeyInfo in `element`, or `nil` when it is not a SEQUENCE of exactly an
    /// AlgorithmIdentifier and a BIT STRING.
    package init?(_ cursor: DERCursor, _ element: DERCursor.Element) {
        guard element.identifier == .sequence,
              let algorithmField = cursor.element(at: element.contentStart, within: element.end),
              let algorithm = DERAlgorithmIdentifier(cursor, algorithmField),
              let key = cursor.element(at: algorithmField.end, within: element.end), key.identifier == .bitString,
              key.end == element.end
        else { return nil }
        node = element
        self.algorithm = algorithm
        subjectPublicKey = key
    }

    /// The RSAPublicKey inside ``subjectPublicKey`` (after its zero unused-bits octet): the modulus
    /// and publicExponent INTEGER elements, when the BIT STRING holds exactly one such SEQUENCE.
    /// The algorithm is not looked at: the caller knows it is rsaEncryption.
    package func rsaPublicKey(_ cursor: DERCursor) -> (modulus: DERCursor.Element, exponent: DERCursor.Element)? {
        let bits = subjectPublicKey
        guard bits.end - bits.contentStart >= 2, cursor.bytes[bits.contentStart] == 0,
              let key = cursor.element(at: bits.contentStart + 1, within: bits.end), key.identifier == .sequence,
              key.end == bits.end,
              let modulus = cursor.element(at: key.contentStart, within: key.end), modulus.identifier == .integer,
              let exponent = cursor.element(at: modulus.end, within: key.end), exponent.identifier == .integer,
              exponent.end == key.end
        else { return nil }
        return (modulus, exponent)
    }
}

/// An `AlgorithmIdentifier` (RFC 5280 §4.1.1.2) read with the strict DER cursor, as a certificate
/// holds it (``AlgorithmIdentifier`` is the same production read from a BER signedData).
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///   algorithm   OBJECT IDENTIFIER,
///   parameters  ANY DEFINED BY algorithm OPTIONAL }
/// ```
package struct DERAlgorithmIdentifier: Sendable, Equatable {
    /// The SEQUENCE.
    package var node: DERCursor.Element
    /// The algorithm OBJECT IDENTIFIER.
    package var algorithm: DERCursor.Element
    /// The parameters, when present.
    package var parameters: DERCursor.Element?

    /// The AlgorithmIdentifier in `element`, or `nil` when it is not a SEQUENCE of an OBJECT
    /// IDENTIFIER and at most one more element.
    package init?(_ cursor: DERCursor, _ element: DERCursor.Element) {
        guard element.identifier == .sequence,
              let algorithm = cursor.element(at: element.contentStart, within: element.end),
              algorithm.identifier == .objectIdentifier
        else { return nil }
        var parameters: DERCursor.Element?
        if algorithm.end != element.end {
            guard let read = cursor.element(at: algorithm.end, within: element.end), read.end == element.end else { return nil }
            parameters = read
        }
        node = element
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// Whether the parameters are absent or an empty NULL (RFC 3279 §2.3.1 for rsaEncryption).
    package var hasAbsentOrNullParameters: Bool {
        guard let parameters else { return true }
        return parameters.identifier == .null && parameters.contentStart == parameters.end
    }
}
